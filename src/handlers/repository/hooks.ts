import { type Handler, requireDoer } from '../kit.js';
import { toApiHook } from '../../convert/webhook.js';
import { createHookInput, editHookInput } from '../hookbody.js';
import type { HookTarget } from '../../services/webhooks.js';
import type { HandlerContext, OperationId } from '../kit.js';

const target = async (ctx: HandlerContext<OperationId> & { path: { owner: string; repo: string } }): Promise<HookTarget> => ({
  kind: 'repo',
  access: await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor),
});

export const repoListHooks: Handler<'repoListHooks'> = async (ctx) => {
  const { hooks, total } = await ctx.services.webhooks.list(await target(ctx), ctx.paging());
  return { status: 200, body: hooks.map(toApiHook), total };
};

export const repoCreateHook: Handler<'repoCreateHook'> = async (ctx) => {
  const hook = await ctx.services.webhooks.create(await target(ctx), createHookInput(ctx.body));
  return { status: 201, body: toApiHook(hook) };
};

export const repoGetHook: Handler<'repoGetHook'> = async (ctx) => ({ status: 200, body: toApiHook(await ctx.services.webhooks.get(await target(ctx), ctx.path.id)) });

export const repoEditHook: Handler<'repoEditHook'> = async (ctx) => {
  const hook = await ctx.services.webhooks.edit(await target(ctx), ctx.path.id, editHookInput(ctx.body));
  return { status: 200, body: toApiHook(hook) };
};

export const repoDeleteHook: Handler<'repoDeleteHook'> = async (ctx) => {
  await ctx.services.webhooks.remove(await target(ctx), ctx.path.id);
  return { status: 204, body: undefined };
};

export const repoTestHook: Handler<'repoTestHook'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.webhooks.test(access, ctx.path.id, ctx.query.ref, requireDoer(ctx));
  return { status: 204, body: undefined };
};
