import type { Handler } from '../kit.js';
import { toApiUser } from '../../convert/user.js';

export const userGet: Handler<'userGet'> = async (ctx) => {
  // Gitea answers organizations here too, as User JSON.
  const user = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor, { allowOrg: true });
  return { status: 200, body: toApiUser(user, ctx.doer, ctx.services.config) };
};

/** Gitea wraps search results: {"ok": true, "data": [...]}. */
export const userSearch: Handler<'userSearch'> = async (ctx) => {
  const { users, total } = await ctx.services.users.search(ctx.actor, { keyword: ctx.query.q, uid: ctx.query.uid }, ctx.paging());
  return { status: 200, body: { ok: true, data: users.map((u) => toApiUser(u, ctx.doer, ctx.services.config)) }, total, link: true };
};
