import { type Handler, requireDoer } from '../kit.js';
import { toApiToken } from '../../convert/misc.js';
import { AppError } from '../../domain/errors.js';
import type { User } from '../../domain/user.js';
import type { Services } from '../../services/index.js';

/** Gitea's reqSelfOrAdmin on /users/{username}/tokens. */
async function tokenOwner(services: Services, doer: User, username: string): Promise<User> {
  const owner = await services.users.resolveAny(username);
  if (owner.id !== doer.id && !doer.isAdmin) throw new AppError('forbidden', 'doer should be the site admin or be same as the contextUser');
  if (owner.isOrganization) throw new AppError('not_found', "The target couldn't be found.");
  return owner;
}

export const userGetTokens: Handler<'userGetTokens'> = async (ctx) => {
  const owner = await tokenOwner(ctx.services, requireDoer(ctx), ctx.path.username);
  const { tokens, total } = await ctx.services.tokens.list(owner, ctx.paging());
  return { status: 200, body: tokens.map(toApiToken), total };
};

export const userCreateToken: Handler<'userCreateToken'> = async (ctx) => {
  const owner = await tokenOwner(ctx.services, requireDoer(ctx), ctx.path.username);
  const t = await ctx.services.tokens.create(owner, ctx.body.name ?? '', ctx.body.scopes);
  return { status: 201, body: { id: t.id, name: t.name, sha1: t.token, token_last_eight: t.lastEight, scopes: t.scopes } };
};

export const userDeleteAccessToken: Handler<'userDeleteAccessToken'> = async (ctx) => {
  const owner = await tokenOwner(ctx.services, requireDoer(ctx), ctx.path.username);
  await ctx.services.tokens.remove(owner, ctx.path.token);
  return { status: 204, body: undefined };
};
