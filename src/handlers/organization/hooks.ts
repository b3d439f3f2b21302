import { type Handler, requireDoer } from '../kit.js';
import { toApiHook } from '../../convert/webhook.js';
import { createHookInput, editHookInput } from '../hookbody.js';
import type { HookTarget } from '../../services/webhooks.js';
import type { Actor, User } from '../../domain/user.js';
import type { Services } from '../../services/index.js';

/** An organization the caller can see (else 404); the service requires an owner or a site administrator. */
const target = async (ctx: { services: Services; actor: Actor; doer: User | null; path: { org: string } }): Promise<HookTarget> => ({
  kind: 'org',
  owner: await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor),
  doer: requireDoer(ctx),
});

export const orgListHooks: Handler<'orgListHooks'> = async (ctx) => {
  const { hooks, total } = await ctx.services.webhooks.list(await target(ctx), ctx.paging());
  return { status: 200, body: hooks.map(toApiHook), total };
};

export const orgCreateHook: Handler<'orgCreateHook'> = async (ctx) => {
  const hook = await ctx.services.webhooks.create(await target(ctx), createHookInput(ctx.body));
  return { status: 201, body: toApiHook(hook) };
};

export const orgGetHook: Handler<'orgGetHook'> = async (ctx) => ({ status: 200, body: toApiHook(await ctx.services.webhooks.get(await target(ctx), ctx.path.id)) });

export const orgEditHook: Handler<'orgEditHook'> = async (ctx) => {
  const hook = await ctx.services.webhooks.edit(await target(ctx), ctx.path.id, editHookInput(ctx.body));
  return { status: 200, body: toApiHook(hook) };
};

export const orgDeleteHook: Handler<'orgDeleteHook'> = async (ctx) => {
  await ctx.services.webhooks.remove(await target(ctx), ctx.path.id);
  return { status: 204, body: undefined };
};
