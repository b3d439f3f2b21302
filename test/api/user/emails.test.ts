import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer, type TestUser } from '../../helpers/server.js';

describeDb('user e-mails', () => {
  let s: TestServer;
  let err: (message: string) => { message: string; url: string };
  let alice: TestUser;
  let bob: TestUser;
  const entry = (u: TestUser, email: string, primary = false) => ({ email, verified: true, primary, user_id: u.id, username: u.name });
  const list = async (u: TestUser) => {
    const r = await s.client.get('/user/emails', { token: u.token });
    expect(r.status).toBe(200);
    return r.body as { email: string }[];
  };

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    alice = await s.createUser();
    bob = await s.createUser();
  });
  afterAll(async () => s?.close());

  it('userListEmails lists the primary address', async () => {
    const r = await s.client.get('/user/emails', { token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([entry(alice, alice.email, true)]);
  });

  it('userAddEmail adds addresses and answers 201 with the full list, primary first', async () => {
    const a = `a.${alice.name}@example.org`;
    const b = `b.${alice.name}@example.org`;
    const r = await s.client.post('/user/emails', { emails: [a, b] }, { token: alice.token });
    expect(r.status).toBe(201);
    expect(r.body).toEqual([entry(alice, alice.email, true), entry(alice, a), entry(alice, b)]);
    expect(await list(alice)).toEqual(r.body);
  });

  it('userAddEmail ignores blanks and repeats within one request', async () => {
    const c = `c.${alice.name}@example.org`;
    const r = await s.client.post('/user/emails', { emails: [c, ' ', c] }, { token: alice.token });
    expect(r.status).toBe(201);
    expect(r.body.filter((e: { email: string }) => e.email === c)).toEqual([entry(alice, c)]);
  });

  it('userAddEmail refuses an address already used by the caller or anyone else, case-insensitively', async () => {
    for (const email of [alice.email, bob.email, bob.email.toUpperCase()]) {
      const r = await s.client.post('/user/emails', { emails: [email] }, { token: alice.token });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(`Email address has been used: ${email}`));
    }
  });

  it('userAddEmail adds nothing when one address of the request is refused', async () => {
    const before = await list(alice);
    const fresh = `fresh.${alice.name}@example.org`;
    const r = await s.client.post('/user/emails', { emails: [fresh, bob.email] }, { token: alice.token });
    expect(r.status).toBe(422);
    expect(r.body).toEqual(err(`Email address has been used: ${bob.email}`));
    expect(await list(alice)).toEqual(before);
  });

  it('userAddEmail refuses invalid addresses with 422', async () => {
    for (const email of ['not-an-email', 'a b@example.com', '-lead@example.com', 'x@']) {
      const r = await s.client.post('/user/emails', { emails: [email] }, { token: alice.token });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(`Email address "${email}" invalid`));
    }
  });

  it('userAddEmail refuses an empty list with 422', async () => {
    for (const body of [{ emails: [] }, {}, { emails: ['', '  '] }]) {
      const r = await s.client.post('/user/emails', body, { token: alice.token });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('Email list empty'));
    }
  });

  it('userAddEmail refuses a wrongly typed body with 422', async () => {
    const r = await s.client.post('/user/emails', { emails: 'one@example.com' }, { token: alice.token });
    expect(r.status).toBe(422);
    expect(r.body).toEqual(err('[emails]: must be array'));
  });

  it('userDeleteEmail removes secondary addresses (204), case-insensitively', async () => {
    const d = `d.${bob.name}@example.org`;
    const e = `e.${bob.name}@example.org`;
    expect((await s.client.post('/user/emails', { emails: [d, e] }, { token: bob.token })).status).toBe(201);
    const r = await s.client.delete('/user/emails', { token: bob.token, body: { emails: [d.toUpperCase()] } });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(await list(bob)).toEqual([entry(bob, bob.email, true), entry(bob, e)]);
  });

  it('userDeleteEmail refuses the primary address with 400 and changes nothing', async () => {
    const before = await list(bob);
    const r = await s.client.delete('/user/emails', { token: bob.token, body: { emails: [bob.email] } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(err(`the primary e-mail address cannot be deleted [email: ${bob.email}]`));
    expect(await list(bob)).toEqual(before);
  });

  it("userDeleteEmail is 404 for an unknown address or someone else's, and changes nothing", async () => {
    const before = await list(bob);
    const mine = before[1]!.email;
    for (const email of ['nobody@example.net', alice.email]) {
      const r = await s.client.delete('/user/emails', { token: bob.token, body: { emails: [mine, email] } });
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err(`e-mail address does not exist [email: ${email}]`));
    }
    expect(await list(bob)).toEqual(before);
    expect((await list(alice)).map((e) => e.email)).toContain(alice.email);
  });

  it('userDeleteEmail refuses an empty list with 422', async () => {
    const r = await s.client.delete('/user/emails', { token: bob.token, body: { emails: [] } });
    expect(r.status).toBe(422);
    expect(r.body).toEqual(err('Email list empty'));
  });

  it('a deleted address can be added by another user', async () => {
    const f = `f.${bob.name}@example.org`;
    expect((await s.client.post('/user/emails', { emails: [f] }, { token: bob.token })).status).toBe(201);
    expect((await s.client.delete('/user/emails', { token: bob.token, body: { emails: [f] } })).status).toBe(204);
    const r = await s.client.post('/user/emails', { emails: [f] }, { token: alice.token });
    expect(r.status).toBe(201);
    expect(r.body).toContainEqual(entry(alice, f));
  });

  it('is 401 for anonymous callers', async () => {
    const get = await s.client.get('/user/emails');
    expect(get.status).toBe(401);
    expect(get.body).toEqual(err('token is required'));
    const post = await s.client.post('/user/emails', { emails: ['x@example.com'] });
    expect(post.status).toBe(401);
    expect(post.body).toEqual(err('token is required'));
    const del = await s.client.delete('/user/emails', { body: { emails: ['x@example.com'] } });
    expect(del.status).toBe(401);
    expect(del.body).toEqual(err('token is required'));
  });

  it('needs write:user to change and read:user to list', async () => {
    const read = await s.createToken(alice.name, ['read:user']);
    expect((await s.client.get('/user/emails', { token: read })).status).toBe(200);
    const post = await s.client.post('/user/emails', { emails: [`g.${alice.name}@example.org`] }, { token: read });
    expect(post.status).toBe(403);
    expect(post.body).toEqual(err('token does not have at least one of required scope(s), required=[write:user], token scope=read:user'));
    const del = await s.client.delete('/user/emails', { token: read, body: { emails: [alice.email] } });
    expect(del.status).toBe(403);
    expect(del.body).toEqual(err('token does not have at least one of required scope(s), required=[write:user], token scope=read:user'));
    const none = await s.createToken(alice.name, ['read:repository']);
    const get = await s.client.get('/user/emails', { token: none });
    expect(get.status).toBe(403);
    expect(get.body).toEqual(err('token does not have at least one of required scope(s), required=[read:user], token scope=read:repository'));
  });
});
