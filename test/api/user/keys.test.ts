import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer, type TestUser } from '../../helpers/server.js';
import { generateSshKey } from '../../helpers/sshkeys.js';

describeDb('SSH keys', () => {
  let s: TestServer;
  let err: (message: string) => { message: string; url: string };
  const notFound = () => err("The target couldn't be found.");
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    alice = await s.createUser();
    bob = await s.createUser();
  });
  afterAll(async () => s?.close());

  const post = (u: TestUser, body: unknown) => s.client.post('/user/keys', body, { token: u.token });

  describe('userCurrentPostKey', () => {
    it('adds an ed25519 key and answers the PublicKey with its owner', async () => {
      const k = generateSshKey('ed25519');
      const r = await post(alice, { title: 'laptop', key: k.line });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.any(Number),
        key: k.line,
        url: `${s.url}/api/v1/user/keys/${r.body.id}`,
        title: 'laptop',
        fingerprint: k.fingerprint,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
        read_only: false,
        key_type: 'user',
        user: expect.objectContaining({ id: alice.id, login: alice.name, email: alice.email }),
      });
    });

    it('adds ecdsa and rsa-2048 keys, and keeps read_only', async () => {
      const ec = generateSshKey('ecdsa');
      const a = await post(alice, { title: 'ecdsa', key: ec.line, read_only: true });
      expect(a.status).toBe(201);
      expect(a.body).toMatchObject({ title: 'ecdsa', key: ec.line, fingerprint: ec.fingerprint, read_only: true });
      const rsa = generateSshKey('rsa', 2048);
      const b = await post(alice, { title: 'rsa', key: rsa.line });
      expect(b.status).toBe(201);
      expect(b.body).toMatchObject({ title: 'rsa', key: rsa.line, fingerprint: rsa.fingerprint, read_only: false });
    });

    it('accepts surrounding whitespace and a key without a comment', async () => {
      const k = generateSshKey('ed25519');
      const r = await post(alice, { title: 'bare', key: `\n  ${k.type} ${k.base64}  \n` });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ key: `${k.type} ${k.base64}`, fingerprint: k.fingerprint });
    });

    it('refuses a malformed key with 422', async () => {
      const cases: [string, string][] = [
        ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA', 'Invalid key content: invalid ssh public key: ssh: short read'],
        ['not a key at all', 'Invalid key content: extractTypeFromBase64Key: base64 decode: illegal base64 data'],
      ];
      for (const [key, message] of cases) {
        const r = await post(alice, { title: 'broken', key });
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(message));
      }
    });

    it('refuses a key whose declared type does not match its content', async () => {
      const k = generateSshKey('ed25519');
      const r = await post(alice, { title: 'mismatch', key: `ssh-rsa ${k.base64}` });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('Invalid key content: key type and content does not match'));
    });

    it('refuses an RSA key shorter than 2048 bits', async () => {
      const k = generateSshKey('rsa', 1024);
      const r = await post(alice, { title: 'short', key: k.line });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('Invalid key content: key length is not enough: got 1024, needs 2048'));
    });

    it('refuses a private key', async () => {
      const r = await post(alice, { title: 'private', key: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----' });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('Invalid key content: key is private'));
    });

    it('refuses a key already registered, by anyone', async () => {
      const k = generateSshKey('ed25519');
      expect((await post(alice, { title: 'first', key: k.line })).status).toBe(201);
      for (const u of [alice, bob]) {
        const r = await post(u, { title: 'again', key: k.line });
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err('Key content has been used as non-deploy key'));
      }
      // A different comment does not make it a different key.
      const r = await post(bob, { title: 'again2', key: `${k.type} ${k.base64} other@comment` });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('Key content has been used as non-deploy key'));
    });

    it('refuses a title the user already uses, but not one another user uses', async () => {
      expect((await post(alice, { title: 'shared-title', key: generateSshKey().line })).status).toBe(201);
      const r = await post(alice, { title: 'shared-title', key: generateSshKey().line });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('Key title has been used'));
      expect((await post(bob, { title: 'shared-title', key: generateSshKey().line })).status).toBe(201);
    });

    it('refuses a missing title or key, and a blank or overlong title, with 422', async () => {
      const noTitle = await post(alice, { key: generateSshKey().line });
      expect(noTitle.status).toBe(422);
      expect(noTitle.body).toEqual(err('[title]: Required'));
      const noKey = await post(alice, { title: 'x' });
      expect(noKey.status).toBe(422);
      expect(noKey.body).toEqual(err('[key]: Required'));
      const blank = await post(alice, { title: '  ', key: generateSshKey().line });
      expect(blank.status).toBe(422);
      expect(blank.body).toEqual(err('[Title]: Required'));
      const long = await post(alice, { title: 'x'.repeat(51), key: generateSshKey().line });
      expect(long.status).toBe(422);
      expect(long.body).toEqual(err('[Title]: MaxSize'));
    });

    it('is 401 for anonymous callers and 403 for a read-only user token', async () => {
      const anon = await s.client.post('/user/keys', { title: 'x', key: generateSshKey().line });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
      const token = await s.createToken(alice.name, ['read:user']);
      const r = await s.client.post('/user/keys', { title: 'x', key: generateSshKey().line }, { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('token does not have at least one of required scope(s), required=[write:user], token scope=read:user'));
    });
  });

  describe('listing, getting and deleting', () => {
    let carol: TestUser;
    const keys: { id: number; fingerprint: string; line: string }[] = [];

    beforeAll(async () => {
      carol = await s.createUser();
      for (const title of ['k1', 'k2', 'k3']) {
        const k = generateSshKey();
        const r = await post(carol, { title, key: k.line });
        expect(r.status).toBe(201);
        keys.push({ id: r.body.id, fingerprint: k.fingerprint, line: k.line });
      }
    });

    it('userCurrentListKeys lists the caller\'s keys with X-Total-Count', async () => {
      const r = await s.client.get('/user/keys', { token: carol.token });
      expect(r.status).toBe(200);
      expect(r.body.map((k: { id: number }) => k.id)).toEqual(keys.map((k) => k.id));
      expect(r.body[0]).toMatchObject({ title: 'k1', key: keys[0]!.line, fingerprint: keys[0]!.fingerprint, key_type: 'user', user: expect.objectContaining({ login: carol.name }) });
      expect(r.headers.get('x-total-count')).toBe('3');
    });

    it('userCurrentListKeys filters by fingerprint', async () => {
      const r = await s.client.get(`/user/keys?fingerprint=${encodeURIComponent(keys[1]!.fingerprint)}`, { token: carol.token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual([expect.objectContaining({ id: keys[1]!.id, title: 'k2' })]);
      expect(r.headers.get('x-total-count')).toBe('1');
      // Another user's fingerprint finds nothing in one's own list.
      const other = generateSshKey();
      expect((await post(bob, { title: 'bobs', key: other.line })).status).toBe(201);
      const none = await s.client.get(`/user/keys?fingerprint=${encodeURIComponent(other.fingerprint)}`, { token: carol.token });
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
      expect(none.headers.get('x-total-count')).toBe('0');
    });

    it('userCurrentListKeys pages (page 0 is page 1)', async () => {
      const p2 = await s.client.get('/user/keys?limit=2&page=2', { token: carol.token });
      expect(p2.status).toBe(200);
      expect(p2.body.map((k: { id: number }) => k.id)).toEqual([keys[2]!.id]);
      expect(p2.headers.get('x-total-count')).toBe('3');
      const p0 = await s.client.get('/user/keys?limit=2&page=0', { token: carol.token });
      expect(p0.body.map((k: { id: number }) => k.id)).toEqual([keys[0]!.id, keys[1]!.id]);
    });

    it('userListKeys lists another user\'s keys, with the owner as the viewer may see them', async () => {
      const r = await s.client.get(`/users/${carol.name}/keys`, { token: alice.token });
      expect(r.status).toBe(200);
      expect(r.body.map((k: { id: number }) => k.id)).toEqual(keys.map((k) => k.id));
      expect(r.body[0].user).toMatchObject({ login: carol.name, is_admin: false, active: false, last_login: '0001-01-01T00:00:00Z' });
      expect(r.headers.get('x-total-count')).toBe('3');
      const f = await s.client.get(`/users/${carol.name}/keys?fingerprint=${encodeURIComponent(keys[2]!.fingerprint)}`, { token: alice.token });
      expect(f.status).toBe(200);
      expect(f.body).toEqual([expect.objectContaining({ id: keys[2]!.id, title: 'k3' })]);
    });

    it('userListKeys is 401 for anonymous callers, 404 for unknown and invisible users', async () => {
      const anon = await s.client.get(`/users/${carol.name}/keys`);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
      const unknown = await s.client.get('/users/no-such-user-k/keys', { token: alice.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFound());
      const hidden = await s.createUser({ visibility: 'private' });
      const r = await s.client.get(`/users/${hidden.name}/keys`, { token: alice.token });
      expect(r.status).toBe(404);
      expect(r.body).toEqual(notFound());
      const admin = await s.client.get(`/users/${hidden.name}/keys`, { token: s.admin.token });
      expect(admin.status).toBe(200);
      expect(admin.body).toEqual([]);
    });

    it('userCurrentGetKey returns one of the caller\'s keys', async () => {
      const r = await s.client.get(`/user/keys/${keys[0]!.id}`, { token: carol.token });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: keys[0]!.id, title: 'k1', key: keys[0]!.line, fingerprint: keys[0]!.fingerprint, url: `${s.url}/api/v1/user/keys/${keys[0]!.id}` });
    });

    it('userCurrentGetKey is 404 for someone else\'s key and for unknown ids', async () => {
      for (const id of [keys[0]!.id, 999999]) {
        const r = await s.client.get(`/user/keys/${id}`, { token: alice.token });
        expect(r.status).toBe(404);
        expect(r.body).toEqual(notFound());
      }
    });

    it('userCurrentGetKey is 404 for a non-numeric or out-of-range id', async () => {
      for (const id of ['abc', '99999999999999999999', '0', '-1']) {
        const r = await s.client.get(`/user/keys/${id}`, { token: carol.token });
        expect(r.status).toBe(404);
        expect(r.body).toEqual(notFound());
      }
    });

    it('userCurrentDeleteKey refuses someone else\'s key (403) and unknown ids (404)', async () => {
      const r = await s.client.delete(`/user/keys/${keys[0]!.id}`, { token: alice.token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('You do not have access to this key'));
      const unknown = await s.client.delete('/user/keys/999999', { token: alice.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFound());
      // The key is still there.
      expect((await s.client.get(`/user/keys/${keys[0]!.id}`, { token: carol.token })).status).toBe(200);
    });

    it('userCurrentDeleteKey deletes; the key is gone and its content may be added again', async () => {
      const r = await s.client.delete(`/user/keys/${keys[0]!.id}`, { token: carol.token });
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      const gone = await s.client.get(`/user/keys/${keys[0]!.id}`, { token: carol.token });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(notFound());
      const list = await s.client.get('/user/keys', { token: carol.token });
      expect(list.body.map((k: { id: number }) => k.id)).toEqual([keys[1]!.id, keys[2]!.id]);
      expect(list.headers.get('x-total-count')).toBe('2');
      const again = await post(alice, { title: 'reused', key: keys[0]!.line });
      expect(again.status).toBe(201);
    });

    it('the read routes are 401 for anonymous callers', async () => {
      for (const path of ['/user/keys', `/user/keys/${keys[1]!.id}`]) {
        const r = await s.client.get(path);
        expect(r.status).toBe(401);
        expect(r.body).toEqual(err('token is required'));
      }
      const d = await s.client.delete(`/user/keys/${keys[1]!.id}`);
      expect(d.status).toBe(401);
      expect(d.body).toEqual(err('token is required'));
    });
  });
});
