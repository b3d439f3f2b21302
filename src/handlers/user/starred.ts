import { type Handler, requireDoer } from '../kit.js';
import { toApiRepo } from '../../convert/repo.js';
import { notFound } from '../../domain/errors.js';

export const userCurrentPutStar: Handler<'userCurrentPutStar'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.social.star(requireDoer(ctx), access);
  return { status: 204, body: undefined };
};

export const userCurrentDeleteStar: Handler<'userCurrentDeleteStar'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.social.unstar(requireDoer(ctx), access);
  return { status: 204, body: undefined };
};

export const userCurrentCheckStarring: Handler<'userCurrentCheckStarring'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  if (!(await ctx.services.social.isStarred(requireDoer(ctx), access))) throw notFound();
  return { status: 204, body: undefined };
};

export const userCurrentListStarred: Handler<'userCurrentListStarred'> = async (ctx) => {
  const me = requireDoer(ctx);
  const { repos, total } = await ctx.services.social.starredBy(me, ctx.actor, ctx.paging());
  return { status: 200, body: repos.map((r) => toApiRepo(r, me, ctx.services.config)), total };
};

export const userListStarred: Handler<'userListStarred'> = async (ctx) => {
  const user = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor);
  const { repos, total } = await ctx.services.social.starredBy(user, ctx.actor, ctx.paging());
  return { status: 200, body: repos.map((r) => toApiRepo(r, ctx.doer, ctx.services.config)), total };
};
