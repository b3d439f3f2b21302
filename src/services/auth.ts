import { createHash } from 'node:crypto';
import { AppError } from '../domain/errors.js';
import { parseScopes, type TokenScope } from '../domain/scopes.js';
import type { Actor, User } from '../domain/user.js';
import { findTokenWithOwner, touchToken } from '../db/tokens.js';
import { getUserByEmail, getUserByName, updateUser } from '../db/users.js';
import { DUMMY_HASH, LoginThrottle, VerifiedPasswordCache, verifyPassword } from './passwords.js';
import { unixNow, type ServiceDeps } from './context.js';

/** Credentials as the request presented them; the HTTP layer only extracts, this service decides. */
export interface Credentials {
  /** `?token=` or `?access_token=` (Gitea reads these before the header). */
  readonly queryToken?: string | undefined;
  /** `Authorization: token X` or `Authorization: Bearer X`. */
  readonly headerToken?: string | undefined;
  readonly basic?: { readonly username: string; readonly password: string } | undefined;
  /** `?sudo=` or the Sudo header. */
  readonly sudo?: string | undefined;
  readonly clientAddress: string;
}

export const ANONYMOUS: Actor = { user: null, method: 'anonymous', viaBasic: false, scopes: null };

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const userDoesNotExist = (name = '') => new AppError('unauthorized', `user does not exist [uid: 0, name: ${name}]`);

export function createAuthService(deps: ServiceDeps) {
  const verified = new VerifiedPasswordCache();
  const throttle = new LoginThrottle(deps.config.security.loginMaxFailures, deps.config.security.loginFailureWindowSeconds * 1000);

  async function byToken(token: string, viaBasic: boolean): Promise<Actor | null> {
    if (token === '' || token.length > 512) return null;
    const found = await findTokenWithOwner(deps.db, hashToken(token));
    if (!found) return null;
    let scopes: TokenScope;
    try {
      scopes = parseScopes(found.scope.split(','));
    } catch (e) {
      throw new AppError('forbidden', `checking scope failed: ${(e as Error).message}`);
    }
    // Gitea stamps the token on every use; once a minute is enough and keeps reads read-only.
    const now = unixNow(deps);
    if (now - found.updatedUnix >= 60) await touchToken(deps.db, found.tokenId, now);
    return { user: found.user, method: 'token', viaBasic, scopes };
  }

  async function byPassword(login: string, password: string, clientAddress: string): Promise<Actor> {
    const now = deps.clock();
    const wait = throttle.retryAfter(clientAddress, now);
    if (wait > 0) {
      throw new AppError('too_many_requests', 'too many failed login attempts, try again later', { headers: { 'Retry-After': String(wait) } });
    }
    const name = login.trim();
    const user = name === '' ? undefined : name.includes('@') ? await getUserByEmail(deps.db, name) : await getUserByName(deps.db, name);
    const stored = user && !user.isOrganization ? { passwd: user.passwd, salt: user.salt, algo: user.passwdHashAlgo } : DUMMY_HASH;
    let ok: boolean;
    if (user && verified.has(user.id, stored, password, now)) ok = true;
    else {
      // An unknown user costs the same KDF run as a wrong password: neither the answer nor its time tell them apart.
      ok = (await verifyPassword(password, stored)) && !!user && !user.isOrganization && user.passwd !== '';
      if (ok && user) verified.add(user.id, stored, password, now);
    }
    if (!ok || !user) {
      throttle.fail(clientAddress, now);
      // Same message for unknown users and wrong passwords (Gitea tells them apart; we do not).
      throw userDoesNotExist(name);
    }
    if (user.prohibitLogin) throw new AppError('unauthorized', `user is not allowed login [uid: ${user.id}, name: ${user.name}]`);
    const nowUnix = Math.floor(now / 1000);
    if (nowUnix - user.lastLoginUnix >= 60) {
      await updateUser(deps.db, user.id, { lastLoginUnix: nowUnix });
      // This very request already answers with the new login time (GET /user right after a sign-in).
      return { user: { ...user, lastLoginUnix: nowUnix }, method: 'basic', viaBasic: true, scopes: null };
    }
    return { user, method: 'basic', viaBasic: true, scopes: null };
  }

  /** Gitea's account-state gate: every signed-in request of an inactive, prohibited or must-change user is 403. */
  function gate(user: User): void {
    if (!user.isActive || user.prohibitLogin) {
      throw new AppError('forbidden', 'This account is prohibited from signing in, please contact your site administrator.', { bare: true });
    }
    if (user.mustChangePassword) {
      throw new AppError('forbidden', `You must change your password. Change it at: ${deps.config.server.rootUrl}/user/change_password`, { bare: true });
    }
  }

  /**
   * Resolves the caller from the request's credentials, in Gitea's order: query token, header token, basic
   * (token as password or username, then password sign-in). Then the account gate and sudo.
   */
  async function authenticate(c: Credentials): Promise<Actor> {
    let actor: Actor | null = null;
    const token = c.queryToken || c.headerToken;
    if (token) {
      actor = await byToken(token, false);
      if (!actor) throw userDoesNotExist();
    } else if (c.basic) {
      const { username, password } = c.basic;
      if (password === '' || password === 'x-oauth-basic') {
        actor = await byToken(username, true);
        if (!actor) throw userDoesNotExist();
      } else {
        actor = (await byToken(password, true)) ?? (await byPassword(username, password, c.clientAddress));
      }
    }
    if (!actor || !actor.user) {
      if (c.sudo) throw new AppError('forbidden', 'Only administrators allowed to sudo.', { bare: true });
      return ANONYMOUS;
    }
    gate(actor.user);
    if (c.sudo) {
      if (!actor.user.isAdmin) throw new AppError('forbidden', 'Only administrators allowed to sudo.', { bare: true });
      const target = await getUserByName(deps.db, c.sudo);
      if (!target) throw new AppError('not_found', "The target couldn't be found.");
      // Permission checks use the impersonated user; the token's scopes stay the admin's.
      actor = { ...actor, user: target };
    }
    return actor;
  }

  return { authenticate };
}

export type AuthService = ReturnType<typeof createAuthService>;
