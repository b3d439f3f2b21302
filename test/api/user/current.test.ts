import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer, type TestUser } from '../../helpers/server.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

describeDb('userGetCurrent', () => {
  let s: TestServer;
  let alice: TestUser;
  let err: (message: string) => { message: string; url: string };

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    alice = await s.createUser({ visibility: 'limited' });
  });
  afterAll(async () => s?.close());

  it('answers the signed-in user with every field, private ones included', async () => {
    const r = await s.client.get('/user', { token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: alice.id,
      login: alice.name,
      login_name: '',
      source_id: 0,
      full_name: '',
      email: alice.email,
      avatar_url: expect.stringMatching(new RegExp(`^${s.url}/avatars/[0-9a-f]{32}$`)),
      html_url: `${s.url}/${alice.name}`,
      language: '',
      is_admin: false,
      last_login: expect.stringMatching(RFC3339),
      created: expect.stringMatching(RFC3339),
      restricted: false,
      active: true,
      prohibit_login: false,
      location: '',
      website: '',
      description: '',
      visibility: 'limited',
      followers_count: 0,
      following_count: 0,
      starred_repos_count: 0,
    });
    expect(Math.abs(Date.parse(r.body.created) - Date.now())).toBeLessThan(5 * 60_000);
  });

  it('shows is_admin to a site administrator looking at themself', async () => {
    const r = await s.client.get('/user', { token: s.admin.token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: s.admin.id, login: 'root', is_admin: true, active: true, email: s.admin.email });
  });

  it('accepts basic auth with the password and records the login time', async () => {
    const before = Math.floor(Date.now() / 1000) - 1;
    const r = await s.client.get('/user', { basic: [alice.name, alice.password] });
    expect(r.status).toBe(200);
    expect(r.body.login).toBe(alice.name);
    expect(Date.parse(r.body.last_login) / 1000).toBeGreaterThanOrEqual(before);
    // The login time is kept: a later token request sees the same time.
    const again = await s.client.get('/user', { token: alice.token });
    expect(again.status).toBe(200);
    expect(again.body.last_login).toBe(r.body.last_login);
  });

  it('is 401 for anonymous callers', async () => {
    const r = await s.client.get('/user');
    expect(r.status).toBe(401);
    expect(r.body).toEqual(err('token is required'));
  });

  it('is 401 for an unknown token', async () => {
    const r = await s.client.get('/user', { token: '0123456789abcdef0123456789abcdef01234567' });
    expect(r.status).toBe(401);
    expect(r.body).toEqual(err('user does not exist [uid: 0, name: ]'));
  });

  it('is 403 for a token without a user scope', async () => {
    const token = await s.createToken(alice.name, ['read:repository']);
    const r = await s.client.get('/user', { token });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(err('token does not have at least one of required scope(s), required=[read:user], token scope=read:repository'));
  });

  it('works with a read:user token (GET needs read only)', async () => {
    const token = await s.createToken(alice.name, ['read:user']);
    const r = await s.client.get('/user', { token });
    expect(r.status).toBe(200);
    expect(r.body.login).toBe(alice.name);
  });

});

