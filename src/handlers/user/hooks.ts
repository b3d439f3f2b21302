import { type Handler, requireDoer } from '../kit.js';
import { toApiHook } from '../../convert/webhook.js';
import { createHookInput, editHookInput } from '../hookbody.js';
import type { HookTarget } from '../../services/webhooks.js';
import type { User } from '../../domain/user.js';

// Hooks of the signed-in user: they fire for events of every repository the user owns.
const target = (ctx: { doer: User | null }): HookTarget => ({ kind: 'owner', owner: requireDoer(ctx) });

export const userListHooks: Handler<'userListHooks'> = async (ctx) => {
  const { hooks, total } = await ctx.services.webhooks.list(target(ctx), ctx.paging());
  return { status: 200, body: hooks.map(toApiHook), total };
};

export const userCreateHook: Handler<'userCreateHook'> = async (ctx) => {
  const hook = await ctx.services.webhooks.create(target(ctx), createHookInput(ctx.body));
  return { status: 201, body: toApiHook(hook) };
};

export const userGetHook: Handler<'userGetHook'> = async (ctx) => ({ status: 200, body: toApiHook(await ctx.services.webhooks.get(target(ctx), ctx.path.id)) });

export const userEditHook: Handler<'userEditHook'> = async (ctx) => {
  const hook = await ctx.services.webhooks.edit(target(ctx), ctx.path.id, editHookInput(ctx.body));
  return { status: 200, body: toApiHook(hook) };
};

export const userDeleteHook: Handler<'userDeleteHook'> = async (ctx) => {
  await ctx.services.webhooks.remove(target(ctx), ctx.path.id);
  return { status: 204, body: undefined };
};
