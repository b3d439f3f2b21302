import { type Handler, requireDoer } from '../kit.js';
import { toApiDeployKey } from '../../convert/deploykey.js';

export const repoListKeys: Handler<'repoListKeys'> = async (ctx) => {
  const me = requireDoer(ctx);
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { keys, total } = await ctx.services.deployKeys.list(access, ctx.paging(), { keyId: ctx.query.key_id, fingerprint: ctx.query.fingerprint });
  const full = me.isAdmin || me.id === access.owner.id;
  return { status: 200, body: keys.map((k) => toApiDeployKey(k, access, me, ctx.services.config, full)), total };
};

export const repoCreateKey: Handler<'repoCreateKey'> = async (ctx) => {
  const me = requireDoer(ctx);
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const key = await ctx.services.deployKeys.add(access, ctx.body.title, ctx.body.key, ctx.body.read_only ?? false);
  // Gitea's create answer has no repository, whoever asks.
  return { status: 201, body: toApiDeployKey(key, access, me, ctx.services.config, false) };
};

export const repoGetKey: Handler<'repoGetKey'> = async (ctx) => {
  const me = requireDoer(ctx);
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const key = await ctx.services.deployKeys.get(access, ctx.path.id);
  return { status: 200, body: toApiDeployKey(key, access, me, ctx.services.config, me.isAdmin || me.id === access.owner.id) };
};

export const repoDeleteKey: Handler<'repoDeleteKey'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.deployKeys.remove(access, ctx.path.id);
  return { status: 204, body: undefined };
};
