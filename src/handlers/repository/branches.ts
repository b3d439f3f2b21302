import type { Handler } from '../kit.js';
import { toApiBranch } from '../../convert/branch.js';
import { AccessMode } from '../../domain/repo.js';

const fullName = (a: { owner: { name: string }; repo: { name: string } }) => `${a.owner.name}/${a.repo.name}`;

export const repoListBranches: Handler<'repoListBranches'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { branches, total } = await ctx.services.branches.list(access, ctx.paging());
  const canPush = access.mode >= AccessMode.write;
  const protection = await ctx.services.protections.forBranches(access, ctx.actor);
  return { status: 200, body: branches.map((b) => toApiBranch(b, fullName(access), canPush, ctx.services.config, protection(b.name))), total, link: true };
};

export const repoGetBranch: Handler<'repoGetBranch'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const branch = await ctx.services.branches.get(access, ctx.path.branch);
  const protection = await ctx.services.protections.forBranches(access, ctx.actor);
  return { status: 200, body: toApiBranch(branch, fullName(access), access.mode >= AccessMode.write, ctx.services.config, protection(branch.name)) };
};

export const repoCreateBranch: Handler<'repoCreateBranch'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  // old_branch_name is deprecated but still honoured when old_ref_name is absent.
  const branch = await ctx.services.branches.create(access, ctx.body.new_branch_name, ctx.body.old_ref_name || ctx.body.old_branch_name, ctx.doer ?? undefined);
  const protection = await ctx.services.protections.forBranches(access, ctx.actor);
  return { status: 201, body: toApiBranch(branch, fullName(access), true, ctx.services.config, protection(branch.name)) };
};

export const repoDeleteBranch: Handler<'repoDeleteBranch'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.branches.remove(access, ctx.path.branch, ctx.doer ?? undefined);
  return { status: 204, body: undefined };
};
