import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

const ZERO_TIME = '0001-01-01T00:00:00Z';

describeDb('users', () => {
  let s: TestServer;
  let err: (message: string) => { message: string; url: string };
  const notFound = () => err("The target couldn't be found.");
  // Every account of this file starts with the same tag, so searches see only them.
  const tag = `q${randomBytes(3).toString('hex')}`;
  let pub: TestUser;
  let lim: TestUser;
  let priv: TestUser;
  let viewer: TestUser;
  let restricted: TestUser;

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    pub = await s.createUser({ name: uniqueName(`${tag}pub`) });
    lim = await s.createUser({ name: uniqueName(`${tag}lim`), visibility: 'limited' });
    priv = await s.createUser({ name: uniqueName(`${tag}priv`), visibility: 'private' });
    viewer = await s.createUser({ name: uniqueName(`${tag}view`) });
    restricted = await s.createUser({ name: uniqueName(`${tag}restr`), restricted: true });
  });
  afterAll(async () => s?.close());

  describe('userGet', () => {
    const publicView = (u: TestUser, email: string, visibility: string) => ({
      id: u.id,
      login: u.name,
      login_name: '',
      source_id: 0,
      full_name: '',
      email,
      avatar_url: expect.stringMatching(new RegExp(`^${s.url}/avatars/[0-9a-f]{32}$`)),
      html_url: `${s.url}/${u.name}`,
      language: '',
      is_admin: false,
      last_login: ZERO_TIME,
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      restricted: false,
      active: false,
      prohibit_login: false,
      location: '',
      website: '',
      description: '',
      visibility,
      followers_count: 0,
      following_count: 0,
      starred_repos_count: 0,
    });

    it('anonymous callers see a public user with the no-reply placeholder e-mail and no private fields', async () => {
      const r = await s.client.get(`/users/${pub.name}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(publicView(pub, `${pub.name.toLowerCase()}@noreply.localhost`, 'public'));
    });

    it('anonymous callers get 404 for limited and private users', async () => {
      for (const u of [lim, priv]) {
        const r = await s.client.get(`/users/${u.name}`);
        expect(r.status).toBe(404);
        expect(r.body).toEqual(notFound());
      }
    });

    it('another signed-in user sees the real e-mail of public and limited users, but not private fields', async () => {
      const a = await s.client.get(`/users/${pub.name}`, { token: viewer.token });
      expect(a.status).toBe(200);
      expect(a.body).toEqual(publicView(pub, pub.email, 'public'));
      const b = await s.client.get(`/users/${lim.name}`, { token: viewer.token });
      expect(b.status).toBe(200);
      expect(b.body).toEqual(publicView(lim, lim.email, 'limited'));
    });

    it('another signed-in user gets 404 for a private user', async () => {
      const r = await s.client.get(`/users/${priv.name}`, { token: viewer.token });
      expect(r.status).toBe(404);
      expect(r.body).toEqual(notFound());
    });

    it('a restricted user sees public users only', async () => {
      const a = await s.client.get(`/users/${pub.name}`, { token: restricted.token });
      expect(a.status).toBe(200);
      expect(a.body.login).toBe(pub.name);
      for (const u of [lim, priv]) {
        const r = await s.client.get(`/users/${u.name}`, { token: restricted.token });
        expect(r.status).toBe(404);
        expect(r.body).toEqual(notFound());
      }
    });

    it('a private user sees themself with every field', async () => {
      const r = await s.client.get(`/users/${priv.name}`, { token: priv.token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ...publicView(priv, priv.email, 'private'), active: true, last_login: expect.any(String) });
      expect(r.body.last_login).not.toBe(ZERO_TIME);
    });

    it('a site administrator sees private users with every field', async () => {
      const r = await s.client.get(`/users/${priv.name}`, { token: s.admin.token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ...publicView(priv, priv.email, 'private'), active: true, last_login: expect.any(String) });
      expect(r.body.last_login).not.toBe(ZERO_TIME);
    });

    it('the administrator flag of another user is hidden from non-administrators', async () => {
      const r = await s.client.get('/users/root', { token: viewer.token });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ login: 'root', is_admin: false, active: false, last_login: ZERO_TIME });
      const self = await s.client.get('/users/root', { token: s.admin.token });
      expect(self.body).toMatchObject({ login: 'root', is_admin: true, active: true });
    });

    it('looks names up case-insensitively', async () => {
      const r = await s.client.get(`/users/${pub.name.toUpperCase()}`);
      expect(r.status).toBe(200);
      expect(r.body.login).toBe(pub.name);
    });

    it('is 404 for an unknown user', async () => {
      const r = await s.client.get('/users/no-such-user-here');
      expect(r.status).toBe(404);
      expect(r.body).toEqual(notFound());
    });

    it('is 403 for a token without a user scope', async () => {
      const token = await s.createToken(viewer.name, ['read:repository']);
      const r = await s.client.get(`/users/${pub.name}`, { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('token does not have at least one of required scope(s), required=[read:user], token scope=read:repository'));
    });

    it('a public-only token may not look at a limited user', async () => {
      const token = await s.createToken(viewer.name, ['public-only', 'read:user']);
      const ok = await s.client.get(`/users/${pub.name}`, { token });
      expect(ok.status).toBe(200);
      expect(ok.body.login).toBe(pub.name);
      const r = await s.client.get(`/users/${lim.name}`, { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('token scope is limited to public users'));
    });
  });

  describe('userSearch', () => {
    const logins = (r: { body: { data: { login: string }[] } }) => r.body.data.map((u) => u.login);

    it('anonymous callers find public users only, in id order, wrapped in {ok, data}', async () => {
      const r = await s.client.get(`/users/search?q=${tag}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, data: [expect.objectContaining({ login: pub.name }), expect.objectContaining({ login: viewer.name }), expect.objectContaining({ login: restricted.name })] });
      expect(r.headers.get('x-total-count')).toBe('3');
      expect(r.headers.get('link')).toBeNull();
      // Anonymous viewers get the placeholder address.
      expect(r.body.data[0].email).toBe(`${pub.name.toLowerCase()}@noreply.localhost`);
    });

    it('signed-in users also find limited users and themselves, not others\' private accounts', async () => {
      const r = await s.client.get(`/users/search?q=${tag}`, { token: viewer.token });
      expect(r.status).toBe(200);
      expect(logins(r)).toEqual([pub.name, lim.name, viewer.name, restricted.name]);
      expect(r.headers.get('x-total-count')).toBe('4');
      const self = await s.client.get(`/users/search?q=${tag}`, { token: priv.token });
      expect(self.status).toBe(200);
      expect(logins(self)).toEqual([pub.name, lim.name, priv.name, viewer.name, restricted.name]);
    });

    it('restricted users find public users and themselves', async () => {
      const r = await s.client.get(`/users/search?q=${tag}`, { token: restricted.token });
      expect(r.status).toBe(200);
      expect(logins(r)).toEqual([pub.name, viewer.name, restricted.name]);
      expect(r.headers.get('x-total-count')).toBe('3');
    });

    it('site administrators find everyone, with private fields', async () => {
      const r = await s.client.get(`/users/search?q=${tag}`, { token: s.admin.token });
      expect(r.status).toBe(200);
      expect(logins(r)).toEqual([pub.name, lim.name, priv.name, viewer.name, restricted.name]);
      expect(r.body.data[2]).toMatchObject({ login: priv.name, email: priv.email, active: true });
    });

    it('matches the keyword against the full name too, case-insensitively', async () => {
      const full = `Searchable ${tag.toUpperCase()}FULL Person`;
      const set = await s.client.patch('/user/settings', { full_name: full }, { token: lim.token });
      expect(set.status).toBe(200);
      const r = await s.client.get(`/users/search?q=${tag}full`, { token: viewer.token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, data: [expect.objectContaining({ login: lim.name, full_name: full })] });
      expect(r.headers.get('x-total-count')).toBe('1');
    });

    it('treats LIKE wildcards in the keyword literally', async () => {
      const r = await s.client.get(`/users/search?q=${tag}%25`, { token: s.admin.token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, data: [] });
      expect(r.headers.get('x-total-count')).toBe('0');
    });

    it('filters by uid, still applying visibility', async () => {
      const r = await s.client.get(`/users/search?uid=${lim.id}`, { token: viewer.token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, data: [expect.objectContaining({ id: lim.id, login: lim.name })] });
      const anon = await s.client.get(`/users/search?uid=${lim.id}`);
      expect(anon.status).toBe(200);
      expect(anon.body).toEqual({ ok: true, data: [] });
      expect(anon.headers.get('x-total-count')).toBe('0');
    });

    it('pages with limit and page, and sets X-Total-Count and Link', async () => {
      const first = await s.client.get(`/users/search?q=${tag}&limit=2`, { token: s.admin.token });
      expect(first.status).toBe(200);
      expect(logins(first)).toEqual([pub.name, lim.name]);
      expect(first.headers.get('x-total-count')).toBe('5');
      // Go's url.Values.Encode sorts the keys, so Gitea's links do too.
      const at = (page: number) => `${s.url}/api/v1/users/search?limit=2&page=${page}&q=${tag}`;
      expect(first.headers.get('link')).toBe(`<${at(2)}>; rel="next",<${at(3)}>; rel="last"`);

      const second = await s.client.get(`/users/search?q=${tag}&limit=2&page=2`, { token: s.admin.token });
      expect(second.status).toBe(200);
      expect(logins(second)).toEqual([priv.name, viewer.name]);
      expect(second.headers.get('link')).toBe(`<${at(3)}>; rel="next",<${at(3)}>; rel="last",<${at(1)}>; rel="first",<${at(1)}>; rel="prev"`);

      const last = await s.client.get(`/users/search?q=${tag}&limit=2&page=3`, { token: s.admin.token });
      expect(logins(last)).toEqual([restricted.name]);
      expect(last.headers.get('link')).toBe(`<${at(1)}>; rel="first",<${at(2)}>; rel="prev"`);

      const beyond = await s.client.get(`/users/search?q=${tag}&limit=2&page=9`, { token: s.admin.token });
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual({ ok: true, data: [] });
      expect(beyond.headers.get('x-total-count')).toBe('5');
    });

    it('treats page 0 and negative pages as page 1', async () => {
      for (const page of ['0', '-3']) {
        const r = await s.client.get(`/users/search?q=${tag}&limit=2&page=${page}`, { token: s.admin.token });
        expect(r.status).toBe(200);
        expect(logins(r)).toEqual([pub.name, lim.name]);
      }
    });

    it('clamps limit to 50 and uses 30 when it is 0', async () => {
      const bulk = `bulk${randomBytes(3).toString('hex')}`;
      for (let i = 0; i < 51; i++) {
        await s.app.services.users.createUser({ username: `${bulk}${i}`, email: `${bulk}${i}@example.com`, password: 'password-123', mustChangePassword: false });
      }
      const r = await s.client.get(`/users/search?q=${bulk}&limit=100`, { token: s.admin.token });
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(50);
      expect(r.headers.get('x-total-count')).toBe('51');
      const page2 = `${s.url}/api/v1/users/search?limit=100&page=2&q=${bulk}`;
      expect(r.headers.get('link')).toBe(`<${page2}>; rel="next",<${page2}>; rel="last"`);
      const zero = await s.client.get(`/users/search?q=${bulk}&limit=0`, { token: s.admin.token });
      expect(zero.status).toBe(200);
      expect(zero.body.data).toHaveLength(30);
      const dflt = await s.client.get(`/users/search?q=${bulk}`, { token: s.admin.token });
      expect(dflt.body.data).toHaveLength(30);
      // 51 accounts (a password hash each): more than jest's default five seconds on a busy machine.
    }, 60_000);

    it('ignores a non-numeric uid, page or limit (Gitea reads them as 0)', async () => {
      const r = await s.client.get(`/users/search?q=${tag}&uid=abc&page=x&limit=y`, { token: s.admin.token });
      expect(r.status).toBe(200);
      expect(logins(r)).toEqual([pub.name, lim.name, priv.name, viewer.name, restricted.name]);
      expect(r.headers.get('x-total-count')).toBe('5');
    });

    it('is 403 for a token without a user scope', async () => {
      const token = await s.createToken(viewer.name, ['read:repository']);
      const r = await s.client.get(`/users/search?q=${tag}`, { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('token does not have at least one of required scope(s), required=[read:user], token scope=read:repository'));
    });

    it('a public-only token finds public users only', async () => {
      const token = await s.createToken(priv.name, ['public-only', 'read:user']);
      const r = await s.client.get(`/users/search?q=${tag}`, { token });
      expect(r.status).toBe(200);
      expect(logins(r)).toEqual([pub.name, viewer.name, restricted.name]);
    });
  });
});
