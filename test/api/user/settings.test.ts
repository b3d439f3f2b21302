import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer, type TestUser } from '../../helpers/server.js';

describeDb('user settings', () => {
  let s: TestServer;
  let err: (message: string) => { message: string; url: string };
  let alice: TestUser;
  let bob: TestUser;
  const defaults = {
    full_name: '',
    website: '',
    description: '',
    location: '',
    language: '',
    theme: 'gitea-auto',
    diff_view_style: '',
    hide_email: false,
    hide_activity: false,
  };

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    alice = await s.createUser();
    bob = await s.createUser();
  });
  afterAll(async () => s?.close());

  it('getUserSettings answers one object with the defaults', async () => {
    const r = await s.client.get('/user/settings', { token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(defaults);
  });

  it('updateUserSettings changes the given fields, answers the new settings and keeps the others', async () => {
    const change = {
      full_name: 'Alice Example',
      website: 'https://alice.example.org',
      description: 'Writes tests.',
      location: 'Berlin',
      language: 'de-DE',
      theme: 'gitea-dark',
      diff_view_style: 'split',
      hide_activity: true,
    };
    const r = await s.client.patch('/user/settings', change, { token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...defaults, ...change });

    const partial = await s.client.patch('/user/settings', { location: 'Paris' }, { token: alice.token });
    expect(partial.status).toBe(200);
    expect(partial.body).toEqual({ ...defaults, ...change, location: 'Paris' });
    const again = await s.client.get('/user/settings', { token: alice.token });
    expect(again.body).toEqual(partial.body);
  });

  it('the profile fields show in the User JSON, for the user and for others', async () => {
    const me = await s.client.get('/user', { token: alice.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ full_name: 'Alice Example', website: 'https://alice.example.org', description: 'Writes tests.', location: 'Paris', language: 'de-DE' });
    const other = await s.client.get(`/users/${alice.name}`, { token: bob.token });
    expect(other.status).toBe(200);
    // language is private to the user.
    expect(other.body).toMatchObject({ full_name: 'Alice Example', website: 'https://alice.example.org', description: 'Writes tests.', location: 'Paris', language: '' });
  });

  it('an empty string clears a field', async () => {
    const r = await s.client.patch('/user/settings', { website: '', description: '' }, { token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ website: '', description: '', full_name: 'Alice Example' });
  });

  it('accepts field names in any letter case', async () => {
    const r = await s.client.patch('/user/settings', { Location: 'Rome' }, { token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body.location).toBe('Rome');
  });

  it('hide_email hides the address from other signed-in users, not from the user or an administrator', async () => {
    const shown = await s.client.get(`/users/${bob.name}`, { token: alice.token });
    expect(shown.body.email).toBe(bob.email);

    const r = await s.client.patch('/user/settings', { hide_email: true }, { token: bob.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...defaults, hide_email: true });

    const placeholder = `${bob.name.toLowerCase()}@noreply.localhost`;
    const other = await s.client.get(`/users/${bob.name}`, { token: alice.token });
    expect(other.status).toBe(200);
    expect(other.body.email).toBe(placeholder);
    const search = await s.client.get(`/users/search?q=${bob.name}`, { token: alice.token });
    expect(search.body.data).toEqual([expect.objectContaining({ login: bob.name, email: placeholder })]);
    const self = await s.client.get(`/users/${bob.name}`, { token: bob.token });
    expect(self.body.email).toBe(bob.email);
    expect((await s.client.get('/user', { token: bob.token })).body.email).toBe(bob.email);
    const admin = await s.client.get(`/users/${bob.name}`, { token: s.admin.token });
    expect(admin.body.email).toBe(bob.email);

    const back = await s.client.patch('/user/settings', { hide_email: false }, { token: bob.token });
    expect(back.status).toBe(200);
    expect(back.body.hide_email).toBe(false);
    expect((await s.client.get(`/users/${bob.name}`, { token: alice.token })).body.email).toBe(bob.email);
  });

  it('refuses a website that is not an http(s) URL with 422', async () => {
    for (const website of ['ftp://files.example.org', 'javascript:alert(1)', 'not a url']) {
      const r = await s.client.patch('/user/settings', { website }, { token: alice.token });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('[Website]: ValidUrl'));
    }
    expect((await s.client.get('/user/settings', { token: alice.token })).body.website).toBe('');
  });

  it('refuses overlong fields with 422', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ full_name: 'x'.repeat(101) }, '[FullName]: MaxSize'],
      [{ location: 'x'.repeat(51) }, '[Location]: MaxSize'],
      [{ description: 'x'.repeat(256) }, '[Description]: MaxSize'],
      [{ website: `https://example.org/${'x'.repeat(250)}` }, '[Website]: MaxSize'],
    ];
    for (const [body, message] of cases) {
      const r = await s.client.patch('/user/settings', body, { token: alice.token });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(message));
    }
    expect((await s.client.get('/user/settings', { token: alice.token })).body.full_name).toBe('Alice Example');
  });

  it('refuses wrongly typed fields with 422', async () => {
    const r = await s.client.patch('/user/settings', { hide_email: 'yes' }, { token: alice.token });
    expect(r.status).toBe(422);
    expect(r.body).toEqual(err('[hide_email]: must be boolean'));
  });

  it('is 401 for anonymous callers', async () => {
    const get = await s.client.get('/user/settings');
    expect(get.status).toBe(401);
    expect(get.body).toEqual(err('token is required'));
    const patch = await s.client.patch('/user/settings', { location: 'x' });
    expect(patch.status).toBe(401);
    expect(patch.body).toEqual(err('token is required'));
  });

  it('reading needs read:user, changing needs write:user', async () => {
    const read = await s.createToken(alice.name, ['read:user']);
    expect((await s.client.get('/user/settings', { token: read })).status).toBe(200);
    const r = await s.client.patch('/user/settings', { location: 'x' }, { token: read });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(err('token does not have at least one of required scope(s), required=[write:user], token scope=read:user'));
    const other = await s.createToken(alice.name, ['write:repository']);
    const g = await s.client.get('/user/settings', { token: other });
    expect(g.status).toBe(403);
    expect(g.body).toEqual(err('token does not have at least one of required scope(s), required=[read:user], token scope=write:repository'));
  });
});
