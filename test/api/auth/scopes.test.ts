import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { operations, type OperationEntry, type ScopeCategory } from '../../../generated/operations.js';
import type { RequestOptions } from '../../helpers/client.js';
import { describeDb, startServer, type TestServer, type TestUser } from '../../helpers/server.js';

/*
 * The scope gate (BEHAVIOUR.md §1.5), generated from the operations table: for every operation with a
 * scope category, a token holding every scope except the one it needs is refused, for each way of
 * sending a token. Plus public-only tokens (§1.6) and basic password auth (never scope-checked).
 */

/** Gitea's stored order of scope categories (the "token scope=" part of the message uses it). */
const CATEGORY_ORDER: readonly ScopeCategory[] = [
  'activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user',
];

const levelOf = (method: string): 'read' | 'write' => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

/**
 * Everything but the needed scope: write on every other category; for a write operation the needed
 * categories at read level (write implies read, so a read operation's categories are left out entirely).
 */
function scopesWithout(needed: readonly ScopeCategory[], level: 'read' | 'write'): string[] {
  return CATEGORY_ORDER.flatMap((c) => (!needed.includes(c) ? [`write:${c}`] : level === 'write' ? [`read:${c}`] : []));
}

/** Fills path parameters with plausible values: the scope check runs before any lookup. */
function concretePath(entry: OperationEntry): string {
  return entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => (/^(id|token)$/.test(name) ? '1' : 'root'));
}

const scoped = operations.filter((o) => o.scopes.length > 0);

type Way = { name: string; send: (path: string, token: string) => { path: string; opts: RequestOptions } };
const WAYS: readonly Way[] = [
  { name: 'Authorization: token', send: (path, token) => ({ path, opts: { headers: { Authorization: `token ${token}` } } }) },
  { name: 'Authorization: Bearer', send: (path, token) => ({ path, opts: { headers: { Authorization: `Bearer ${token}` } } }) },
  { name: 'basic with the token as password', send: (path, token) => ({ path, opts: { basic: ['root', token] } }) },
  { name: '?token=', send: (path, token) => ({ path: `${path}?token=${token}`, opts: {} }) },
  { name: '?access_token=', send: (path, token) => ({ path: `${path}?access_token=${token}`, opts: {} }) },
];

describeDb('token scopes', () => {
  let s: TestServer;
  let swaggerUrl: string;
  const tokens = new Map<string, string>();
  /** One token per scope set, owned by the site administrator (admin scopes need one). */
  const tokenFor = async (scopes: string[]): Promise<string> => {
    const key = scopes.join(',');
    let t = tokens.get(key);
    if (!t) {
      t = await s.createToken('root', scopes);
      tokens.set(key, t);
    }
    return t;
  };
  beforeAll(async () => {
    s = await startServer();
    swaggerUrl = `${s.url}/api/swagger`;
  });
  afterAll(async () => s?.close());

  it('the table has scoped operations to check', () => {
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.map((o) => o.operationId)).toEqual(expect.arrayContaining(['userGetCurrent', 'adminCreateUser']));
  });

  describe.each(scoped.map((o) => [o.operationId, o] as const))('%s', (_id, entry) => {
    const level = levelOf(entry.method);
    const scopes = scopesWithout(entry.scopes, level);
    const required = entry.scopes.map((c) => `${level}:${c}`).join(' ');
    const message = `token does not have at least one of required scope(s), required=[${required}], token scope=${scopes.join(',')}`;

    it.each(WAYS.map((w) => [w.name, w] as const))('refuses a token lacking the scope sent by %s', async (_name, way) => {
      const token = await tokenFor(scopes);
      const { path, opts } = way.send(concretePath(entry), token);
      const r = await s.client.request(entry.method, path, { ...opts, body: entry.hasBody ? {} : undefined });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message, url: swaggerUrl });
    });

    if (level === 'read') {
      it('lets a token with just the read (or write) scope past the scope gate', async () => {
        for (const lvl of ['read', 'write']) {
          const token = await tokenFor(entry.scopes.map((c) => `${lvl}:${c}`));
          const r = await s.client.request(entry.method, concretePath(entry), { token });
          // Whatever the handler answers (a missing key is 404, token listing needs basic auth: 401), it is not the scope gate.
          expect(r.text).not.toContain('required scope');
          expect(r.status).not.toBe(403);
        }
      });
    }
  });

  describe('public-only tokens', () => {
    let privateUser: TestUser;
    let limitedUser: TestUser;
    let publicUser: TestUser;
    beforeAll(async () => {
      privateUser = await s.createUser({ visibility: 'private' });
      limitedUser = await s.createUser({ visibility: 'limited' });
      publicUser = await s.createUser();
    });

    it('a private user with a public-only token is refused on /user', async () => {
      const token = await s.createToken(privateUser.name, ['public-only', 'read:user']);
      const r = await s.client.get('/user', { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message: 'token scope is limited to public users', url: swaggerUrl });
    });

    it('a public user with a public-only token is served on /user', async () => {
      const token = await s.createToken(publicUser.name, ['public-only', 'read:user']);
      const r = await s.client.get('/user', { token });
      expect(r.status).toBe(200);
      expect(r.body.login).toBe(publicUser.name);
    });

    it('/users/search leaves out non-public users for a public-only token, even an administrator\'s', async () => {
      const all = await tokenFor(['read:user']);
      const publicOnly = await tokenFor(['public-only', 'read:user']);
      const logins = async (token: string) => {
        const r = await s.client.get('/users/search?limit=50', { token });
        expect(r.status).toBe(200);
        expect(r.body.ok).toBe(true);
        return (r.body.data as { login: string }[]).map((u) => u.login);
      };
      // Control: the administrator's ordinary token sees everyone.
      expect(await logins(all)).toEqual(expect.arrayContaining([privateUser.name, limitedUser.name, publicUser.name]));
      const seen = await logins(publicOnly);
      expect(seen).toContain(publicUser.name);
      expect(seen).not.toContain(privateUser.name);
      expect(seen).not.toContain(limitedUser.name);
    });

    it('/users/{private} is never shown to a public-only token', async () => {
      const adminPublicOnly = await tokenFor(['public-only', 'read:user']);
      for (const target of [privateUser.name, limitedUser.name]) {
        // The administrator could see them, but not through a public-only token.
        const r = await s.client.get(`/users/${target}`, { token: adminPublicOnly });
        expect(r.status).toBe(403);
        expect(r.body).toEqual({ message: 'token scope is limited to public users', url: swaggerUrl });
      }
      // A non-admin cannot see a private user at all: 404, not 403.
      const other = await s.createToken(publicUser.name, ['public-only', 'read:user']);
      const r = await s.client.get(`/users/${privateUser.name}`, { token: other });
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ message: "The target couldn't be found.", url: swaggerUrl });
      // Public users stay visible.
      const ok = await s.client.get(`/users/${publicUser.name}`, { token: adminPublicOnly });
      expect(ok.status).toBe(200);
      expect(ok.body.login).toBe(publicUser.name);
    });
  });

  describe('basic password auth', () => {
    it('is not scope-checked (read and write, user and admin operations)', async () => {
      const basic = ['root', s.admin.password] as const;
      const me = await s.client.get('/user', { basic });
      expect(me.status).toBe(200);
      expect(me.body.login).toBe('root');
      const users = await s.client.get('/admin/users', { basic });
      expect(users.status).toBe(200);
      expect(Array.isArray(users.body)).toBe(true);
      const settings = await s.client.patch('/user/settings', { location: 'Basel' }, { basic });
      expect(settings.status).toBe(200);
      expect(settings.body.location).toBe('Basel');
    });

    it('while the same operation with a token lacking the scope is refused', async () => {
      const token = await tokenFor(['read:user']);
      const r = await s.client.patch('/user/settings', { location: 'Zurich' }, { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({
        message: 'token does not have at least one of required scope(s), required=[write:user], token scope=read:user',
        url: swaggerUrl,
      });
    });
  });
});
