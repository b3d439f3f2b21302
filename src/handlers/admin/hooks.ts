import type { Handler } from '../kit.js';
import { toApiHook } from '../../convert/webhook.js';
import { createHookInput, editHookInput } from '../hookbody.js';
import type { HookTarget } from '../../services/webhooks.js';
// System hooks (fire for every repository) and default hooks (copied into new repositories); the admin scope
// and site-administrator check are the HTTP layer's.
const target = (_ctx: unknown): HookTarget => ({ kind: 'admin' });

export const adminListHooks: Handler<'adminListHooks'> = async (ctx) => {
  const { hooks, total } = await ctx.services.webhooks.list(target(ctx), ctx.paging());
  // Gitea 1.22 answers every hook at once, without X-Total-Count.
  void total;
  return { status: 200, body: hooks.map(toApiHook) };
};

export const adminCreateHook: Handler<'adminCreateHook'> = async (ctx) => {
  const hook = await ctx.services.webhooks.create(target(ctx), createHookInput(ctx.body));
  return { status: 201, body: toApiHook(hook) };
};

export const adminGetHook: Handler<'adminGetHook'> = async (ctx) => ({ status: 200, body: toApiHook(await ctx.services.webhooks.get(target(ctx), ctx.path.id)) });

export const adminEditHook: Handler<'adminEditHook'> = async (ctx) => {
  const hook = await ctx.services.webhooks.edit(target(ctx), ctx.path.id, editHookInput(ctx.body));
  return { status: 200, body: toApiHook(hook) };
};

export const adminDeleteHook: Handler<'adminDeleteHook'> = async (ctx) => {
  await ctx.services.webhooks.remove(target(ctx), ctx.path.id);
  return { status: 204, body: undefined };
};
