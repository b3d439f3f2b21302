import { type Handler, type HandlerContext, requireDoer } from '../kit.js';
import { toApiUser } from '../../convert/user.js';
import { notFound } from '../../domain/errors.js';
import type { User } from '../../domain/user.js';

type ListOp = 'userCurrentListFollowers' | 'userCurrentListFollowing' | 'userListFollowers' | 'userListFollowing';

async function listLinks<O extends ListOp>(ctx: HandlerContext<O>, owner: User, direction: 'followers' | 'following') {
  const { users, total } = await ctx.services.follows.list(owner, direction, ctx.doer, ctx.paging());
  return { status: 200 as const, body: users.map((u) => toApiUser(u, ctx.doer, ctx.services.config)), total };
}

export const userCurrentListFollowers: Handler<'userCurrentListFollowers'> = (ctx) => listLinks(ctx, requireDoer(ctx), 'followers');
export const userCurrentListFollowing: Handler<'userCurrentListFollowing'> = (ctx) => listLinks(ctx, requireDoer(ctx), 'following');

export const userListFollowers: Handler<'userListFollowers'> = async (ctx) =>
  listLinks(ctx, await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor), 'followers');
export const userListFollowing: Handler<'userListFollowing'> = async (ctx) =>
  listLinks(ctx, await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor), 'following');

export const userCurrentCheckFollowing: Handler<'userCurrentCheckFollowing'> = async (ctx) => {
  const target = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor);
  if (!(await ctx.services.follows.isFollowing(requireDoer(ctx), target))) throw notFound();
  return { status: 204, body: undefined };
};

export const userCheckFollowing: Handler<'userCheckFollowing'> = async (ctx) => {
  const user = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor);
  const target = await ctx.services.users.resolveVisible(ctx.path.target, ctx.actor);
  if (!(await ctx.services.follows.isFollowing(user, target))) throw notFound();
  return { status: 204, body: undefined };
};

export const userCurrentPutFollow: Handler<'userCurrentPutFollow'> = async (ctx) => {
  const target = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor);
  await ctx.services.follows.follow(requireDoer(ctx), target);
  return { status: 204, body: undefined };
};

export const userCurrentDeleteFollow: Handler<'userCurrentDeleteFollow'> = async (ctx) => {
  const target = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor);
  await ctx.services.follows.unfollow(requireDoer(ctx), target);
  return { status: 204, body: undefined };
};
