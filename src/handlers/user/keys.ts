import { type Handler, requireDoer } from '../kit.js';
import { toApiPublicKey } from '../../convert/keys.js';

export const userCurrentListKeys: Handler<'userCurrentListKeys'> = async (ctx) => {
  const me = requireDoer(ctx);
  const { keys, total } = await ctx.services.keys.list(me, ctx.paging(), ctx.query.fingerprint);
  return { status: 200, body: keys.map((k) => toApiPublicKey(k, me, me, ctx.services.config)), total };
};

export const userCurrentPostKey: Handler<'userCurrentPostKey'> = async (ctx) => {
  const me = requireDoer(ctx);
  const key = await ctx.services.keys.add(me, ctx.body.title, ctx.body.key, ctx.body.read_only ?? false);
  return { status: 201, body: toApiPublicKey(key, me, me, ctx.services.config) };
};

export const userCurrentGetKey: Handler<'userCurrentGetKey'> = async (ctx) => {
  const me = requireDoer(ctx);
  const key = await ctx.services.keys.getOwn(me, ctx.path.id);
  return { status: 200, body: toApiPublicKey(key, me, me, ctx.services.config) };
};

export const userCurrentDeleteKey: Handler<'userCurrentDeleteKey'> = async (ctx) => {
  await ctx.services.keys.remove(requireDoer(ctx), ctx.path.id);
  return { status: 204, body: undefined };
};

export const userListKeys: Handler<'userListKeys'> = async (ctx) => {
  const owner = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor);
  const { keys, total } = await ctx.services.keys.list(owner, ctx.paging(), ctx.query.fingerprint);
  return { status: 200, body: keys.map((k) => toApiPublicKey(k, owner, ctx.doer, ctx.services.config)), total };
};
