import type { Handler } from '../kit.js';
import { toApiBranchProtection } from '../../convert/protection.js';

export const repoListBranchProtection: Handler<'repoListBranchProtection'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const rules = await ctx.services.protections.list(access);
  return { status: 200, body: rules.map(toApiBranchProtection) };
};

export const repoCreateBranchProtection: Handler<'repoCreateBranchProtection'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  return { status: 201, body: toApiBranchProtection(await ctx.services.protections.create(access, ctx.body)) };
};

export const repoGetBranchProtection: Handler<'repoGetBranchProtection'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  return { status: 200, body: toApiBranchProtection(await ctx.services.protections.get(access, ctx.path.name)) };
};

export const repoEditBranchProtection: Handler<'repoEditBranchProtection'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  return { status: 200, body: toApiBranchProtection(await ctx.services.protections.edit(access, ctx.path.name, ctx.body)) };
};

export const repoDeleteBranchProtection: Handler<'repoDeleteBranchProtection'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.protections.remove(access, ctx.path.name);
  return { status: 204, body: undefined };
};
