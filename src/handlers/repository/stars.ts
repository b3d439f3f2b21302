import type { Handler } from '../kit.js';
import { toApiUser } from '../../convert/user.js';

export const repoListStargazers: Handler<'repoListStargazers'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { users, total } = await ctx.services.social.stargazers(access, ctx.doer, ctx.paging());
  return { status: 200, body: users.map((u) => toApiUser(u, ctx.doer, ctx.services.config)), total };
};
