import { randomBytes } from 'node:crypto';
import { AppError, notFound } from '../domain/errors.js';
import { formatScopes, parseScopes, ScopeError, type TokenScope } from '../domain/scopes.js';
import type { User } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as tokensDb from '../db/tokens.js';
import { hashToken } from './auth.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';

export interface CreatedToken {
  readonly id: number;
  readonly name: string;
  /** The secret, shown once. */
  readonly token: string;
  readonly lastEight: string;
  readonly scopes: string[];
}

export function createTokenService(deps: ServiceDeps) {
  const { db } = deps;

  /**
   * Creates a personal access token: 40 hex characters like Gitea's, stored as a SHA-256 hash (the token
   * carries 160 random bits, so a fast hash is enough). An empty scope list is refused (Gitea 1.22.3+).
   */
  async function create(owner: User, name: string, scopes: readonly string[] | undefined): Promise<CreatedToken> {
    const trimmed = name.trim();
    if (trimmed === '') throw new AppError('validation', '[Name]: Required');
    if ([...trimmed].length > 255) throw new AppError('validation', '[Name]: MaxSize');
    let scope: TokenScope;
    try {
      scope = parseScopes(scopes ?? []);
    } catch (e) {
      if (e instanceof ScopeError) throw new AppError('bad_request', `invalid access token scope provided: ${e.message}`);
      throw e;
    }
    if (scope.granted.size === 0) throw new AppError('bad_request', 'access token must have a scope');
    // Only an explicit admin scope is refused to non-admins: "all" stays usable by everyone (as in Gitea; the
    // admin routes still answer 403 for them).
    const explicitAdmin = (scopes ?? []).some((item) => item.split(',').some((i) => /^(read|write):admin$/.test(i.trim())));
    if (explicitAdmin && !owner.isAdmin) {
      throw new AppError('bad_request', 'invalid access token scope provided: admin scopes are only for site administrators');
    }
    if (await tokensDb.tokenNameExists(db, owner.id, trimmed)) throw new AppError('bad_request', 'access token name has been used already');
    const token = randomBytes(20).toString('hex');
    const formatted = formatScopes(scope);
    let id: number;
    try {
      id = await tokensDb.insertToken(db, {
        uid: owner.id,
        name: trimmed,
        tokenHash: hashToken(token),
        tokenLastEight: token.slice(-8),
        scope: formatted.join(','),
        now: unixNow(deps),
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('bad_request', 'access token name has been used already');
      throw e;
    }
    return { id, name: trimmed, token, lastEight: token.slice(-8), scopes: formatted };
  }

  async function list(owner: User, paging: Paging) {
    return tokensDb.listTokens(db, owner.id, paging.offset, paging.limit);
  }

  /** Deletes by id or by name; a name matching several tokens is ambiguous (422), as in Gitea. */
  async function remove(owner: User, idOrName: string): Promise<void> {
    const ids = await tokensDb.findTokensByIdOrName(db, owner.id, idOrName);
    if (ids.length === 0) throw notFound();
    if (ids.length > 1) throw new AppError('validation', 'multiple matches for token name, use the token id instead');
    await tokensDb.deleteToken(db, ids[0]!);
  }

  return { create, list, remove };
}

export type TokenService = ReturnType<typeof createTokenService>;
