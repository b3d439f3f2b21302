import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

describeDb('access tokens', () => {
  let s: TestServer;
  let err: (message: string) => { message: string; url: string };
  const notFound = () => err("The target couldn't be found.");
  let alice: TestUser;
  let bob: TestUser;
  const basicOf = (u: TestUser) => ({ basic: [u.name, u.password] as const });

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    alice = await s.createUser();
    bob = await s.createUser();
  });
  afterAll(async () => s?.close());

  describe('userCreateToken', () => {
    it('creates a token with basic password auth and shows its secret once', async () => {
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name: 'laptop', scopes: ['read:user', 'write:repository'] }, basicOf(alice));
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.any(Number),
        name: 'laptop',
        sha1: expect.stringMatching(/^[0-9a-f]{40}$/),
        token_last_eight: r.body.sha1.slice(-8),
        scopes: ['write:repository', 'read:user'],
      });
    });

    it('the new token signs in and is limited to its scopes', async () => {
      const c = await s.client.post(`/users/${alice.name}/tokens`, { name: 'reader', scopes: ['read:user'] }, basicOf(alice));
      expect(c.status).toBe(201);
      const token = c.body.sha1 as string;
      const me = await s.client.get('/user', { token });
      expect(me.status).toBe(200);
      expect(me.body.login).toBe(alice.name);
      const settings = await s.client.get('/user/settings', { token });
      expect(settings.status).toBe(200);
      const write = await s.client.patch('/user/settings', { location: 'nowhere' }, { token });
      expect(write.status).toBe(403);
      expect(write.body).toEqual(err('token does not have at least one of required scope(s), required=[write:user], token scope=read:user'));
      // Nothing was changed.
      expect((await s.client.get('/user/settings', { token })).body.location).toBe('');
    });

    it('normalises scopes: write implies read, every write scope becomes "all", public-only comes first', async () => {
      const cases: [string[], string[]][] = [
        [['read:user', 'write:user', 'read:user'], ['write:user']],
        [['read:user,read:issue'], ['read:issue', 'read:user']],
        [['all'], ['all']],
        [['read:user', 'public-only'], ['public-only', 'read:user']],
      ];
      for (const [i, [scopes, expected]] of cases.entries()) {
        const r = await s.client.post(`/users/${alice.name}/tokens`, { name: `norm-${i}`, scopes }, basicOf(alice));
        expect(r.status).toBe(201);
        expect(r.body.scopes).toEqual(expected);
      }
    });

    it('also accepts a token inside basic auth', async () => {
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name: 'via-basic-token', scopes: ['read:user'] }, { basic: [alice.name, alice.token] });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name: 'via-basic-token', scopes: ['read:user'] });
    });

    it('is 401 auth required with a token in the Authorization header', async () => {
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name: 'nope', scopes: ['read:user'] }, { token: alice.token });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(err('auth required'));
    });

    it('is 401 for anonymous callers', async () => {
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name: 'nope', scopes: ['read:user'] });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(err('token is required'));
    });

    it('is 401 for a wrong password', async () => {
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name: 'nope', scopes: ['read:user'] }, { basic: [alice.name, 'wrong-password'] });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(err(`user does not exist [uid: 0, name: ${alice.name}]`));
    });

    it("is 403 for another user's name", async () => {
      const r = await s.client.post(`/users/${bob.name}/tokens`, { name: 'steal', scopes: ['all'] }, basicOf(alice));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('doer should be the site admin or be same as the contextUser'));
    });

    it('lets a site administrator create a token for another user, owned by that user', async () => {
      const r = await s.client.post(`/users/${bob.name}/tokens`, { name: 'from-admin', scopes: ['read:user'] }, basicOf(s.admin));
      expect(r.status).toBe(201);
      const me = await s.client.get('/user', { token: r.body.sha1 });
      expect(me.status).toBe(200);
      expect(me.body.login).toBe(bob.name);
    });

    it('is 404 for an unknown user', async () => {
      const r = await s.client.post('/users/no-such-user-t/tokens', { name: 'x', scopes: ['read:user'] }, basicOf(s.admin));
      expect(r.status).toBe(404);
      expect(r.body).toEqual(notFound());
    });

    it('refuses a duplicate name with 400', async () => {
      const name = uniqueName('dup');
      expect((await s.client.post(`/users/${alice.name}/tokens`, { name, scopes: ['read:user'] }, basicOf(alice))).status).toBe(201);
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name, scopes: ['read:user'] }, basicOf(alice));
      expect(r.status).toBe(400);
      expect(r.body).toEqual(err('access token name has been used already'));
      // Another user may use the same name.
      expect((await s.client.post(`/users/${bob.name}/tokens`, { name, scopes: ['read:user'] }, basicOf(bob))).status).toBe(201);
    });

    it('refuses an unknown scope with 400', async () => {
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name: 'bad-scope', scopes: ['read:user', 'read:bogus'] }, basicOf(alice));
      expect(r.status).toBe(400);
      expect(r.body).toEqual(err('invalid access token scope provided: invalid access token scope: read:bogus'));
    });

    it('refuses an empty scope list, a missing one and public-only alone with 400', async () => {
      for (const body of [{ name: 'empty', scopes: [] }, { name: 'missing' }, { name: 'po', scopes: ['public-only'] }]) {
        const r = await s.client.post(`/users/${alice.name}/tokens`, body, basicOf(alice));
        expect(r.status).toBe(400);
        expect(r.body).toEqual(err('access token must have a scope'));
      }
    });

    it('refuses admin scopes to non-administrators but not to administrators', async () => {
      for (const scope of ['read:admin', 'write:admin']) {
        const r = await s.client.post(`/users/${alice.name}/tokens`, { name: `adm-${scope}`, scopes: [scope] }, basicOf(alice));
        expect(r.status).toBe(400);
        expect(r.body).toEqual(err('invalid access token scope provided: admin scopes are only for site administrators'));
      }
      const ok = await s.client.post('/users/root/tokens', { name: uniqueName('adm'), scopes: ['read:admin'] }, basicOf(s.admin));
      expect(ok.status).toBe(201);
      expect(ok.body.scopes).toEqual(['read:admin']);
    });

    it('lets a non-administrator create an "all" token; admin operations still refuse it', async () => {
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name: 'everything', scopes: ['all'] }, basicOf(alice));
      expect(r.status).toBe(201);
      expect(r.body.scopes).toEqual(['all']);
      const admin = await s.client.get('/admin/users', { token: r.body.sha1 });
      expect(admin.status).toBe(403);
      expect(admin.body).toEqual(err('user should be the site admin'));
    });

    it('refuses a missing or blank name with 422', async () => {
      const missing = await s.client.post(`/users/${alice.name}/tokens`, { scopes: ['read:user'] }, basicOf(alice));
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual(err('[name]: Required'));
      const blank = await s.client.post(`/users/${alice.name}/tokens`, { name: '   ', scopes: ['read:user'] }, basicOf(alice));
      expect(blank.status).toBe(422);
      expect(blank.body).toEqual(err('[Name]: Required'));
    });

    it('is 403 for a basic-auth token without write:user', async () => {
      const token = await s.createToken(alice.name, ['read:user']);
      const r = await s.client.post(`/users/${alice.name}/tokens`, { name: 'x', scopes: ['read:user'] }, { basic: [alice.name, token] });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('token does not have at least one of required scope(s), required=[write:user], token scope=read:user'));
    });
  });

  describe('userGetTokens', () => {
    let carol: TestUser;
    const made: { id: number; name: string; last: string }[] = [];

    beforeAll(async () => {
      carol = await s.createUser();
      // createUser made one token already ("all").
      for (const name of ['one', 'two', 'three']) {
        const r = await s.client.post(`/users/${carol.name}/tokens`, { name, scopes: ['read:user'] }, basicOf(carol));
        made.push({ id: r.body.id, name, last: r.body.token_last_eight });
      }
    });

    it('lists the tokens newest first, never with their secret', async () => {
      const r = await s.client.get(`/users/${carol.name}/tokens`, basicOf(carol));
      expect(r.status).toBe(200);
      expect(r.body).toHaveLength(4);
      expect(r.body.slice(0, 3)).toEqual(
        [...made].reverse().map((t) => ({ id: t.id, name: t.name, sha1: '', token_last_eight: t.last, scopes: ['read:user'] })),
      );
      expect(r.body[3]).toMatchObject({ sha1: '', scopes: ['all'], token_last_eight: carol.token.slice(-8) });
      expect(r.headers.get('x-total-count')).toBe('4');
    });

    it('pages (page 0 is page 1)', async () => {
      const p2 = await s.client.get(`/users/${carol.name}/tokens?limit=2&page=2`, basicOf(carol));
      expect(p2.status).toBe(200);
      expect(p2.body.map((t: { name: string }) => t.name)).toEqual(['one', expect.any(String)]);
      expect(p2.headers.get('x-total-count')).toBe('4');
      const p0 = await s.client.get(`/users/${carol.name}/tokens?limit=2&page=0`, basicOf(carol));
      expect(p0.status).toBe(200);
      expect(p0.body.map((t: { name: string }) => t.name)).toEqual(['three', 'two']);
    });

    it('is 401 auth required with a header token', async () => {
      const r = await s.client.get(`/users/${carol.name}/tokens`, { token: carol.token });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(err('auth required'));
    });

    it("is 403 for another user's tokens, allowed for a site administrator", async () => {
      const r = await s.client.get(`/users/${carol.name}/tokens`, basicOf(alice));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('doer should be the site admin or be same as the contextUser'));
      const a = await s.client.get(`/users/${carol.name}/tokens`, basicOf(s.admin));
      expect(a.status).toBe(200);
      expect(a.body).toHaveLength(4);
    });
  });

  describe('userDeleteAccessToken', () => {
    let dave: TestUser;
    const create = async (name: string) => {
      const r = await s.client.post(`/users/${dave.name}/tokens`, { name, scopes: ['read:user'] }, basicOf(dave));
      expect(r.status).toBe(201);
      return r.body as { id: number; sha1: string };
    };
    const names = async () => ((await s.client.get(`/users/${dave.name}/tokens`, basicOf(dave))).body as { name: string }[]).map((t) => t.name);

    beforeAll(async () => {
      dave = await s.createUser();
    });

    it('deletes by id; the deleted token no longer signs in', async () => {
      const t = await create('by-id');
      expect((await s.client.get('/user', { token: t.sha1 })).status).toBe(200);
      const r = await s.client.delete(`/users/${dave.name}/tokens/${t.id}`, basicOf(dave));
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect(await names()).not.toContain('by-id');
      const after = await s.client.get('/user', { token: t.sha1 });
      expect(after.status).toBe(401);
      expect(after.body).toEqual(err('user does not exist [uid: 0, name: ]'));
    });

    it('deletes by name', async () => {
      const t = await create('by-name');
      const r = await s.client.delete(`/users/${dave.name}/tokens/by-name`, basicOf(dave));
      expect(r.status).toBe(204);
      expect(await names()).not.toContain('by-name');
      expect((await s.client.get('/user', { token: t.sha1 })).status).toBe(401);
    });

    it('a numeric value is an id first, then a name', async () => {
      const a = await create(uniqueName('num'));
      const b = await create(String(a.id));
      // "a.id" is both the id of a and the name of b: the id wins.
      const r = await s.client.delete(`/users/${dave.name}/tokens/${a.id}`, basicOf(dave));
      expect(r.status).toBe(204);
      expect((await s.client.get('/user', { token: a.sha1 })).status).toBe(401);
      expect((await s.client.get('/user', { token: b.sha1 })).status).toBe(200);
      // Now only the name matches.
      const again = await s.client.delete(`/users/${dave.name}/tokens/${a.id}`, basicOf(dave));
      expect(again.status).toBe(204);
      expect((await s.client.get('/user', { token: b.sha1 })).status).toBe(401);
    });

    it('is 404 for an unknown id or name', async () => {
      for (const t of ['999999', 'no-such-token', '99999999999999999999']) {
        const r = await s.client.delete(`/users/${dave.name}/tokens/${t}`, basicOf(dave));
        expect(r.status).toBe(404);
        expect(r.body).toEqual(notFound());
      }
    });

    it("is 404 for another user's token id under one's own name", async () => {
      const other = await s.client.post(`/users/${bob.name}/tokens`, { name: uniqueName('bob'), scopes: ['read:user'] }, basicOf(bob));
      const r = await s.client.delete(`/users/${dave.name}/tokens/${other.body.id}`, basicOf(dave));
      expect(r.status).toBe(404);
      expect(r.body).toEqual(notFound());
      expect((await s.client.get('/user', { token: other.body.sha1 })).status).toBe(200);
    });

    it("is 403 for another user's tokens; a site administrator may delete them", async () => {
      const t = await create('admin-deletes');
      const r = await s.client.delete(`/users/${dave.name}/tokens/${t.id}`, basicOf(alice));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('doer should be the site admin or be same as the contextUser'));
      const a = await s.client.delete(`/users/${dave.name}/tokens/${t.id}`, basicOf(s.admin));
      expect(a.status).toBe(204);
      expect((await s.client.get('/user', { token: t.sha1 })).status).toBe(401);
    });

    it('is 401 auth required with a header token', async () => {
      const t = await create('header');
      const r = await s.client.delete(`/users/${dave.name}/tokens/${t.id}`, { token: dave.token });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(err('auth required'));
    });
  });
});
