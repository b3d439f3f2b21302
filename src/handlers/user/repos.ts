import { type Handler, requireDoer } from '../kit.js';
import { toApiRepo } from '../../convert/repo.js';
import { listOwnedRepos } from '../repository/shared.js';

export const userCurrentListRepos: Handler<'userCurrentListRepos'> = async (ctx) => {
  const me = requireDoer(ctx);
  // Gitea lists what the caller owns or collaborates on.
  const { repos, total } = await ctx.services.repos.search(ctx.actor, { ownerId: me.id, ownership: 'both', orderBy: { column: 'id', desc: false } }, ctx.paging());
  return { status: 200, body: repos.map((r) => toApiRepo(r, me, ctx.services.config)), total, link: true };
};

export const userListRepos: Handler<'userListRepos'> = async (ctx) => {
  const owner = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor, { allowOrg: true });
  const { repos, total } = await listOwnedRepos(ctx, owner.id);
  return { status: 200, body: repos.map((r) => toApiRepo(r, ctx.doer, ctx.services.config)), total, link: true };
};
