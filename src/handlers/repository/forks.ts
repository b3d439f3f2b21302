import { type Handler, requireDoer } from '../kit.js';
import { toApiRepo } from '../../convert/repo.js';

export const createFork: Handler<'createFork'> = async (ctx) => {
  const me = requireDoer(ctx);
  const base = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const fork = await ctx.services.forks.fork(base, me, { name: ctx.body.name, organization: ctx.body.organization });
  const [withParent] = await ctx.services.repos.withParents([fork], ctx.actor);
  // Gitea answers 202 (a TODO there says it should become 201).
  return { status: 202, body: toApiRepo(withParent!, me, ctx.services.config) };
};

export const listForks: Handler<'listForks'> = async (ctx) => {
  const base = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { repos, total } = await ctx.services.forks.list(base, ctx.actor, ctx.paging());
  return { status: 200, body: repos.map((r) => toApiRepo(r, ctx.doer, ctx.services.config)), total };
};
