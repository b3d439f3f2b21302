import { type Handler, requireDoer } from '../kit.js';
import { toApiRepo } from '../../convert/repo.js';
import { createRepoInput } from '../repository/shared.js';

/** A site administrator creates a repository for any user; the response renders it as the owner sees it. */
export const adminCreateRepo: Handler<'adminCreateRepo'> = async (ctx) => {
  const owner = await ctx.services.users.resolveAny(ctx.path.username);
  const created = await ctx.services.repos.create(requireDoer(ctx), owner, createRepoInput(ctx.body));
  return { status: 201, body: toApiRepo(created, ctx.doer, ctx.services.config) };
};
