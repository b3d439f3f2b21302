import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { operations } from '../../../generated/operations.js';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { generateSshKey } from '../../helpers/sshkeys.js';

/*
 * Every admin operation refuses, before doing anything: anonymous callers (401 "token is required"), signed-in
 * users who are not site administrators (403 "user should be the site admin") and tokens without the admin scope
 * at the method's level (403, Gitea 1.22.3+ wording). A final test checks that none of the refused calls changed
 * anything.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface AdminCall {
  readonly id: string;
  readonly method: Method;
  readonly path: () => string;
  readonly body?: () => unknown;
}

describeDb('admin operations: authentication, site-admin and scope guards', () => {
  let s: TestServer;
  let victim: TestUser;
  let plain: TestUser;
  let keyId = 0;
  const newName = uniqueName('nobody');
  const renamed = uniqueName('renamed');
  const key = generateSshKey('ed25519');
  const swagger = () => `${s.url}/api/swagger`;

  const calls: AdminCall[] = [
    { id: 'adminSearchUsers', method: 'GET', path: () => '/admin/users' },
    {
      id: 'adminCreateUser',
      method: 'POST',
      path: () => '/admin/users',
      body: () => ({ username: newName, email: `${newName}@example.com`, password: 'password-123', must_change_password: false }),
    },
    {
      id: 'adminEditUser',
      method: 'PATCH',
      path: () => `/admin/users/${victim.name}`,
      body: () => ({ source_id: 0, login_name: victim.name, full_name: 'Changed By Someone', admin: true }),
    },
    { id: 'adminDeleteUser', method: 'DELETE', path: () => `/admin/users/${victim.name}` },
    { id: 'adminRenameUser', method: 'POST', path: () => `/admin/users/${victim.name}/rename`, body: () => ({ new_username: renamed }) },
    {
      id: 'adminCreatePublicKey',
      method: 'POST',
      path: () => `/admin/users/${victim.name}/keys`,
      body: () => ({ title: 'sneaky', key: generateSshKey('ed25519').line }),
    },
    { id: 'adminDeleteUserPublicKey', method: 'DELETE', path: () => `/admin/users/${victim.name}/keys/${keyId}` },
    { id: 'adminGetAllEmails', method: 'GET', path: () => '/admin/emails' },
    { id: 'adminSearchEmails', method: 'GET', path: () => `/admin/emails/search?q=${victim.name}` },
  ];

  const send = (c: AdminCall, auth: { token?: string; basic?: readonly [string, string] }) =>
    s.client.request(c.method, c.path(), { ...auth, ...(c.body ? { body: c.body() } : {}) });

  beforeAll(async () => {
    s = await startServer();
    victim = await s.createUser();
    plain = await s.createUser();
    const r = await s.client.post(`/admin/users/${victim.name}/keys`, { title: 'victim key', key: key.line }, { token: s.admin.token });
    expect(r.status).toBe(201);
    keyId = r.body.id;
  });
  afterAll(async () => s?.close());

  it('covers operations that the table marks as admin, with the admin scope', () => {
    for (const c of calls) {
      const entry = operations.find((o) => o.operationId === c.id);
      expect(entry).toBeDefined();
      expect(entry!.tag).toBe('admin');
      expect(entry!.scopes).toEqual(['admin']);
      expect(entry!.public).toBe(false);
      expect(entry!.method).toBe(c.method);
    }
  });

  describe.each(calls.map((c) => [c.id, c] as const))('%s', (_id, call) => {
    it('anonymous: 401 token is required', async () => {
      const r = await send(call, {});
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ message: 'token is required', url: swagger() });
    });

    it('non-admin user with an all-scope token: 403 user should be the site admin', async () => {
      const r = await send(call, { token: plain.token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message: 'user should be the site admin', url: swagger() });
    });

    it('non-admin user with basic auth: 403 user should be the site admin', async () => {
      const r = await send(call, { basic: [plain.name, plain.password] });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message: 'user should be the site admin', url: swagger() });
    });

    it('site admin whose token lacks the admin scope: 403 naming the required scope', async () => {
      const token = await s.createToken('root', ['write:user']);
      const level = call.method === 'GET' ? 'read' : 'write';
      const r = await send(call, { token });
      expect(r.status).toBe(403);
      expect(r.body.message.startsWith('token does not have at least one of required scope(s)')).toBe(true);
      expect(r.body).toEqual({
        message: `token does not have at least one of required scope(s), required=[${level}:admin], token scope=write:user`,
        url: swagger(),
      });
    });

    if (call.method !== 'GET') {
      it('site admin with only read:admin: 403 for a write operation', async () => {
        const token = await s.createToken('root', ['read:admin']);
        const r = await send(call, { token });
        expect(r.status).toBe(403);
        expect(r.body).toEqual({
          message: 'token does not have at least one of required scope(s), required=[write:admin], token scope=read:admin',
          url: swagger(),
        });
      });
    }
  });

  it('the refused calls changed nothing', async () => {
    const t = { token: s.admin.token };
    const all = await s.client.get('/admin/users?limit=50', t);
    expect(all.status).toBe(200);
    const names = (all.body as Array<{ login: string }>).map((u) => u.login);
    expect(names).toContain(victim.name);
    expect(names).not.toContain(newName);
    expect(names).not.toContain(renamed);
    const v = (all.body as Array<{ login: string; full_name: string; is_admin: boolean }>).find((u) => u.login === victim.name)!;
    expect(v.full_name).toBe('');
    expect(v.is_admin).toBe(false);
    const keys = await s.client.get(`/users/${victim.name}/keys`, t);
    expect(keys.status).toBe(200);
    expect((keys.body as Array<{ id: number; title: string }>).map((k) => [k.id, k.title])).toEqual([[keyId, 'victim key']]);
  });

  it('a read:admin token may call the read operations', async () => {
    const token = await s.createToken('root', ['read:admin']);
    for (const c of calls.filter((x) => x.method === 'GET')) {
      const r = await send(c, { token });
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
    }
  });

  it('the site admin may use basic auth (no token scope applies)', async () => {
    const r = await s.client.get('/admin/users', { basic: ['root', s.admin.password] });
    expect(r.status).toBe(200);
    expect((r.body as Array<{ login: string }>).map((u) => u.login)).toContain('root');
  });
});
