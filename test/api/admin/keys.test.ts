import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { generateSshKey } from '../../helpers/sshkeys.js';

/* adminCreatePublicKey and adminDeleteUserPublicKey (BEHAVIOUR.md 4.10); keys come from ssh-keygen. */

interface ApiKey {
  id: number;
  key: string;
  url: string;
  title: string;
  fingerprint: string;
  created_at: string;
  read_only: boolean;
  key_type: string;
  user: { id: number; login: string; email: string; is_admin: boolean };
}

describeDb('admin public keys', () => {
  let s: TestServer;
  let owner: TestUser;
  let other: TestUser;
  const admin = () => ({ token: s.admin.token });
  const err = (message: string) => ({ message, url: `${s.url}/api/swagger` });
  const listKeys = async (name: string) => {
    const r = await s.client.get<ApiKey[]>(`/users/${name}/keys`, admin());
    expect(r.status).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    s = await startServer();
    owner = await s.createUser();
    other = await s.createUser();
  });
  afterAll(async () => s?.close());

  describe('adminCreatePublicKey', () => {
    const cases: ['ed25519' | 'ecdsa' | 'rsa', number | undefined, string][] = [
      ['ed25519', undefined, 'ssh-ed25519'],
      ['ecdsa', 256, 'ecdsa-sha2-nistp256'],
      ['ecdsa', 384, 'ecdsa-sha2-nistp384'],
      ['rsa', 2048, 'ssh-rsa'],
      ['rsa', 3072, 'ssh-rsa'],
    ];
    it.each(cases)('adds a %s key (%s bits): 201 with the PublicKey body', async (type, bits, sshType) => {
      const k = generateSshKey(type, bits);
      const title = `${type}-${bits ?? 'default'}`;
      const before = Math.floor(Date.now() / 1000);
      const r = await s.client.post<ApiKey>(`/admin/users/${owner.name}/keys`, { title, key: k.line }, admin());
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        key: `${sshType} ${k.base64} ${k.comment}`,
        url: `${s.url}/api/v1/user/keys/${r.body.id}`,
        title,
        fingerprint: k.fingerprint,
        read_only: false,
        key_type: 'user',
        user: { id: owner.id, login: owner.name, email: owner.email, is_admin: false },
      });
      expect(k.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      expect(r.body.id).toBeGreaterThan(0);
      const created = Date.parse(r.body.created_at) / 1000;
      expect(created).toBeGreaterThanOrEqual(before - 1);
      expect(created).toBeLessThanOrEqual(Date.now() / 1000 + 1);

      const listed = (await listKeys(owner.name)).find((x) => x.id === r.body.id);
      expect(listed).toMatchObject({ title, fingerprint: k.fingerprint, key: `${sshType} ${k.base64} ${k.comment}` });
    });

    it('stores read_only', async () => {
      const k = generateSshKey('ed25519');
      const r = await s.client.post<ApiKey>(`/admin/users/${owner.name}/keys`, { title: uniqueName('ro'), key: k.line, read_only: true }, admin());
      expect(r.status).toBe(201);
      expect(r.body.read_only).toBe(true);
      expect((await listKeys(owner.name)).find((x) => x.id === r.body.id)?.read_only).toBe(true);
    });

    it('accepts surrounding whitespace and a key without comment', async () => {
      const k = generateSshKey('ed25519');
      const r = await s.client.post<ApiKey>(`/admin/users/${owner.name}/keys`, { title: uniqueName('bare'), key: `\n  ${k.type} ${k.base64}\n` }, admin());
      expect(r.status).toBe(201);
      expect(r.body.key).toBe(`${k.type} ${k.base64}`);
      expect(r.body.fingerprint).toBe(k.fingerprint);
    });

    it('finds the owner case-insensitively and is 404 for an unknown user', async () => {
      const k = generateSshKey('ed25519');
      const r = await s.client.post<ApiKey>(`/admin/users/${other.name.toUpperCase()}/keys`, { title: uniqueName('t'), key: k.line }, admin());
      expect(r.status).toBe(201);
      expect(r.body.user.login).toBe(other.name);
      const missing = await s.client.post(`/admin/users/${uniqueName('nobody')}/keys`, { title: 't', key: generateSshKey('ed25519').line }, admin());
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(err("The target couldn't be found."));
    });

    it.each([
      ['garbage', 'this is not a key'],
      ['bad base64', 'ssh-ed25519 AAAA%%%notbase64 me@host'],
      ['an unknown algorithm', `ssh-foo ${Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-foo'), Buffer.from([0, 0, 0, 1, 1])]).toString('base64')}`],
      ['a type that does not match the blob', () => `ssh-rsa ${generateSshKey('ed25519').base64}`],
      ['two keys', () => `${generateSshKey('ed25519').line}\n${generateSshKey('ed25519').line}`],
      ['a private key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----'],
      ['an RSA key of 1024 bits', () => generateSshKey('rsa', 1024).line],
      ['an empty key', ''],
    ])('refuses %s with 422', async (_what, key) => {
      const text = typeof key === 'function' ? key() : key;
      const before = (await listKeys(owner.name)).length;
      const r = await s.client.post<{ message: string; url: string }>(`/admin/users/${owner.name}/keys`, { title: uniqueName('bad'), key: text }, admin());
      expect(r.status).toBe(422);
      expect(r.body.url).toBe(`${s.url}/api/swagger`);
      expect(Object.keys(r.body).sort()).toEqual(['message', 'url']);
      expect(r.body.message).toMatch(/^(Invalid key content: .+|Unable to verify key content)$/);
      expect(await listKeys(owner.name)).toHaveLength(before);
    });

    it('gives the exact reason for a short RSA key, a type mismatch and an unknown algorithm', async () => {
      const short = await s.client.post(`/admin/users/${owner.name}/keys`, { title: 'short', key: generateSshKey('rsa', 1024).line }, admin());
      expect(short.body).toEqual(err('Invalid key content: key length is not enough: got 1024, needs 2048'));
      const mismatch = await s.client.post(`/admin/users/${owner.name}/keys`, { title: 'mm', key: `ssh-rsa ${generateSshKey('ed25519').base64}` }, admin());
      expect(mismatch.body).toEqual(err('Invalid key content: key type and content does not match'));
      const blob = Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-foo'), Buffer.from([0, 0, 0, 1, 1])]).toString('base64');
      const unknown = await s.client.post(`/admin/users/${owner.name}/keys`, { title: 'unk', key: `ssh-foo ${blob}` }, admin());
      expect(unknown.body).toEqual(err('Unable to verify key content'));
    });

    it('refuses a key already registered, by this or another user (422)', async () => {
      const k = generateSshKey('ed25519');
      const first = await s.client.post(`/admin/users/${owner.name}/keys`, { title: uniqueName('dup'), key: k.line }, admin());
      expect(first.status).toBe(201);
      // The same key with another comment has the same fingerprint.
      for (const [user, key] of [
        [owner.name, k.line],
        [other.name, k.line],
        [other.name, `${k.type} ${k.base64} another-comment`],
      ] as const) {
        const r = await s.client.post(`/admin/users/${user}/keys`, { title: uniqueName('dup'), key }, admin());
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err('Key content has been used as non-deploy key'));
      }
      // Also through the user's own endpoint.
      const own = await s.client.post('/user/keys', { title: uniqueName('dup'), key: k.line }, { token: other.token });
      expect(own.status).toBe(422);
      expect(own.body).toEqual(err('Key content has been used as non-deploy key'));
    });

    it('refuses a title the user already uses (422), but another user may use it', async () => {
      const title = uniqueName('title');
      expect((await s.client.post(`/admin/users/${owner.name}/keys`, { title, key: generateSshKey('ed25519').line }, admin())).status).toBe(201);
      const again = await s.client.post(`/admin/users/${owner.name}/keys`, { title, key: generateSshKey('ed25519').line }, admin());
      expect(again.status).toBe(422);
      expect(again.body).toEqual(err('Key title has been used'));
      const elsewhere = await s.client.post<ApiKey>(`/admin/users/${other.name}/keys`, { title, key: generateSshKey('ed25519').line }, admin());
      expect(elsewhere.status).toBe(201);
      expect(elsewhere.body.title).toBe(title);
    });

    it('requires title and key (422 naming the field)', async () => {
      const noTitle = await s.client.post(`/admin/users/${owner.name}/keys`, { key: generateSshKey('ed25519').line }, admin());
      expect(noTitle.status).toBe(422);
      expect(noTitle.body).toEqual(err('[title]: Required'));
      const noKey = await s.client.post(`/admin/users/${owner.name}/keys`, { title: 'x' }, admin());
      expect(noKey.status).toBe(422);
      expect(noKey.body).toEqual(err('[key]: Required'));
      const blankTitle = await s.client.post(`/admin/users/${owner.name}/keys`, { title: '   ', key: generateSshKey('ed25519').line }, admin());
      expect(blankTitle.status).toBe(422);
      expect(blankTitle.body).toEqual(err('[Title]: Required'));
      const longTitle = await s.client.post(`/admin/users/${owner.name}/keys`, { title: 't'.repeat(51), key: generateSshKey('ed25519').line }, admin());
      expect(longTitle.status).toBe(422);
      expect(longTitle.body).toEqual(err('[Title]: MaxSize'));
    });

    it('the owner sees the added key through their own endpoint; another user gets 404', async () => {
      const k = generateSshKey('ed25519');
      const r = await s.client.post<ApiKey>(`/admin/users/${other.name}/keys`, { title: uniqueName('mine'), key: k.line }, admin());
      expect(r.status).toBe(201);
      const mine = await s.client.get<ApiKey[]>(`/user/keys/${r.body.id}`, { token: other.token });
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({ id: r.body.id, fingerprint: k.fingerprint });
      const notYours = await s.client.get(`/user/keys/${r.body.id}`, { token: owner.token });
      expect(notYours.status).toBe(404);
      expect(notYours.body).toEqual(err("The target couldn't be found."));
    });
  });

  describe('adminDeleteUserPublicKey', () => {
    it('deletes the key (204); a second delete is 404', async () => {
      const k = generateSshKey('ed25519');
      const c = await s.client.post<ApiKey>(`/admin/users/${owner.name}/keys`, { title: uniqueName('del'), key: k.line }, admin());
      expect(c.status).toBe(201);
      const r = await s.client.delete(`/admin/users/${owner.name}/keys/${c.body.id}`, admin());
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect((await listKeys(owner.name)).map((x) => x.id)).not.toContain(c.body.id);
      const again = await s.client.delete(`/admin/users/${owner.name}/keys/${c.body.id}`, admin());
      expect(again.status).toBe(404);
      expect(again.body).toEqual(err("The target couldn't be found."));
      // The key may be registered again once deleted.
      const re = await s.client.post<ApiKey>(`/admin/users/${other.name}/keys`, { title: uniqueName('re'), key: k.line }, admin());
      expect(re.status).toBe(201);
    });

    it('is 404 for an unknown key id, a malformed id and an unknown user', async () => {
      const unknown = await s.client.delete(`/admin/users/${owner.name}/keys/987654`, admin());
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(err("The target couldn't be found."));
      const malformed = await s.client.delete(`/admin/users/${owner.name}/keys/abc`, admin());
      expect(malformed.status).toBe(404);
      expect(malformed.body).toEqual(err("The target couldn't be found."));
      const c = await s.client.post<ApiKey>(`/admin/users/${owner.name}/keys`, { title: uniqueName('u'), key: generateSshKey('ed25519').line }, admin());
      const noUser = await s.client.delete(`/admin/users/${uniqueName('nobody')}/keys/${c.body.id}`, admin());
      expect(noUser.status).toBe(404);
      expect(noUser.body).toEqual(err("The target couldn't be found."));
      expect((await listKeys(owner.name)).map((x) => x.id)).toContain(c.body.id);
    });

    it("is 403 for another user's key, which stays", async () => {
      const c = await s.client.post<ApiKey>(`/admin/users/${other.name}/keys`, { title: uniqueName('theirs'), key: generateSshKey('ed25519').line }, admin());
      expect(c.status).toBe(201);
      const r = await s.client.delete(`/admin/users/${owner.name}/keys/${c.body.id}`, admin());
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('You do not have access to this key'));
      expect((await listKeys(other.name)).map((x) => x.id)).toContain(c.body.id);
    });
  });
});
