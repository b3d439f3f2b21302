// Deploy keys: repoListKeys, repoCreateKey, repoGetKey, repoDeleteKey (Gitea 1.22 routers/api/v1/repo/key.go).
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { generateSshKey } from '../../helpers/sshkeys.js';

interface ApiRepo {
  id: number;
  full_name: string;
  permissions: { admin: boolean; push: boolean; pull: boolean };
}
interface ApiDeployKey {
  id: number;
  key_id: number;
  key: string;
  url: string;
  title: string;
  fingerprint: string;
  created_at: string;
  read_only: boolean;
  repository?: ApiRepo;
}

const TIME = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

describeDb('deploy keys', () => {
  let s: TestServer;
  let alice: TestUser;
  let admin2: TestUser;
  let writer: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  const as = (u: TestUser) => ({ token: u.token });

  const newRepo = async (u: TestUser, body: Record<string, unknown> = {}) => {
    const r = await s.client.post<ApiRepo>('/user/repos', { name: uniqueName('dk'), auto_init: true, ...body }, as(u));
    expect(r.status).toBe(201);
    return r.body;
  };
  const collaborate = async (repo: ApiRepo, u: TestUser, permission: string) => {
    expect((await s.client.put(`/repos/${repo.full_name}/collaborators/${u.name}`, { permission }, as(alice))).status).toBe(204);
  };
  const addKey = (repo: ApiRepo, u: TestUser, body: Record<string, unknown>) => s.client.post<ApiDeployKey>(`/repos/${repo.full_name}/keys`, body, as(u));

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    alice = await s.createUser();
    admin2 = await s.createUser();
    writer = await s.createUser();
    stranger = await s.createUser();
  });
  afterAll(async () => s?.close());

  describe('repoCreateKey', () => {
    it('adds a key (201) without the repository in the answer', async () => {
      const repo = await newRepo(alice);
      const k = generateSshKey('ed25519');
      const r = await addKey(repo, alice, { title: 'ci', key: k.line });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.any(Number),
        key_id: expect.any(Number),
        key: k.line,
        url: `${s.url}/api/v1/repos/${repo.full_name}/keys/${r.body.id}`,
        title: 'ci',
        fingerprint: k.fingerprint,
        created_at: TIME,
        read_only: false,
      });
      const ro = await addKey(repo, alice, { title: 'ro', key: generateSshKey('ed25519').line, read_only: true });
      expect(ro.status).toBe(201);
      expect(ro.body.read_only).toBe(true);
    });

    it('shares one public key between repositories, but not twice on one repository or under one title', async () => {
      const one = await newRepo(alice);
      const two = await newRepo(alice);
      const k = generateSshKey('ed25519');
      const a = await addKey(one, alice, { title: 'deploy', key: k.line });
      const b = await addKey(two, alice, { title: 'deploy', key: k.line, read_only: true });
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(b.body.key_id).toBe(a.body.key_id);
      expect(b.body.id).not.toBe(a.body.id);
      expect(await addKey(one, alice, { title: 'again', key: k.line })).toMatchObject({ status: 422, body: err('This key has already been added to this repository') });
      expect(await addKey(one, alice, { title: 'deploy', key: generateSshKey('ed25519').line })).toMatchObject({
        status: 422,
        body: err('A key with the same name already exists'),
      });
    });

    it('keeps user keys and deploy keys apart', async () => {
      const repo = await newRepo(alice);
      const userKey = generateSshKey('ed25519');
      expect((await s.client.post('/user/keys', { title: 'laptop', key: userKey.line }, as(alice))).status).toBe(201);
      expect(await addKey(repo, alice, { title: 'x', key: userKey.line })).toMatchObject({ status: 422, body: err('Key content has been used as non-deploy key') });
      const deployKey = generateSshKey('ed25519');
      expect((await addKey(repo, alice, { title: 'y', key: deployKey.line })).status).toBe(201);
      expect(await s.client.post('/user/keys', { title: 'desk', key: deployKey.line }, as(alice))).toMatchObject({
        status: 422,
        body: err('Key content has been used as non-deploy key'),
      });
      // The deploy key is not one of the user's keys.
      const mine = await s.client.get<{ fingerprint: string }[]>('/user/keys', as(alice));
      expect(mine.body.map((x) => x.fingerprint)).toEqual([userKey.fingerprint]);
    });

    it('validates the title and the key', async () => {
      const repo = await newRepo(alice);
      expect(await addKey(repo, alice, { title: 'bad', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA' })).toMatchObject({
        status: 422,
        body: err('Invalid key content: invalid ssh public key: ssh: short read'),
      });
      expect(await addKey(repo, alice, { title: '  ', key: generateSshKey('ed25519').line })).toMatchObject({ status: 422, body: err('[Title]: Required') });
      const missing = await addKey(repo, alice, { title: 'no key' });
      expect(missing.status).toBe(422);
      expect(missing.body).toMatchObject({ url: `${s.url}/api/swagger`, message: expect.stringContaining('key') });
    });
  });

  describe('permissions', () => {
    it('needs repository admin: 403 for writers and readers, 404 for invisible, 401 anonymous', async () => {
      const repo = await newRepo(alice, { private: true });
      await collaborate(repo, writer, 'write');
      const k = generateSshKey('ed25519');
      const forbidden = err('user should be an owner or a collaborator with admin write of a repository');
      expect(await addKey(repo, writer, { title: 'w', key: k.line })).toMatchObject({ status: 403, body: forbidden });
      expect(await s.client.get(`/repos/${repo.full_name}/keys`, as(writer))).toMatchObject({ status: 403, body: forbidden });
      const created = await addKey(repo, alice, { title: 'a', key: k.line });
      expect(created.status).toBe(201);
      expect(await s.client.get(`/repos/${repo.full_name}/keys/${created.body.id}`, as(writer))).toMatchObject({ status: 403, body: forbidden });
      expect(await s.client.delete(`/repos/${repo.full_name}/keys/${created.body.id}`, as(writer))).toMatchObject({ status: 403, body: forbidden });
      const notFound = err("The target couldn't be found.");
      expect(await s.client.get(`/repos/${repo.full_name}/keys`, as(stranger))).toMatchObject({ status: 404, body: notFound });
      expect(await addKey(repo, stranger, { title: 's', key: generateSshKey('ed25519').line })).toMatchObject({ status: 404, body: notFound });
      expect(await s.client.get(`/repos/${repo.full_name}/keys`)).toMatchObject({ status: 401, body: err('token is required') });
      const pub = await newRepo(alice);
      expect(await s.client.get(`/repos/${pub.full_name}/keys`, as(stranger))).toMatchObject({ status: 403, body: forbidden });
      // The key is still there.
      expect((await s.client.get<ApiDeployKey[]>(`/repos/${repo.full_name}/keys`, as(alice))).body.map((x) => x.id)).toEqual([created.body.id]);
    });

    it('shows read_only and the repository (with the key mode as permissions) to the owner and site admins only', async () => {
      const repo = await newRepo(alice);
      await collaborate(repo, admin2, 'admin');
      const rw = await addKey(repo, admin2, { title: 'rw', key: generateSshKey('ed25519').line });
      const ro = await addKey(repo, admin2, { title: 'ro', key: generateSshKey('ed25519').line, read_only: true });
      expect(rw.status).toBe(201);
      expect(ro.status).toBe(201);
      const byOwner = await s.client.get<ApiDeployKey[]>(`/repos/${repo.full_name}/keys`, as(alice));
      expect(byOwner.status).toBe(200);
      expect(byOwner.headers.get('x-total-count')).toBe('2');
      expect(byOwner.body).toEqual([
        { ...rw.body, repository: expect.objectContaining({ id: repo.id, full_name: repo.full_name, permissions: { admin: false, push: true, pull: true } }) },
        { ...ro.body, repository: expect.objectContaining({ id: repo.id, permissions: { admin: false, push: false, pull: true } }) },
      ]);
      const bySiteAdmin = await s.client.get<ApiDeployKey>(`/repos/${repo.full_name}/keys/${ro.body.id}`, as(s.admin));
      expect(bySiteAdmin.status).toBe(200);
      expect(bySiteAdmin.body).toEqual({ ...ro.body, repository: expect.objectContaining({ id: repo.id }) });
      const byCollaborator = await s.client.get<ApiDeployKey[]>(`/repos/${repo.full_name}/keys`, as(admin2));
      expect(byCollaborator.status).toBe(200);
      expect(byCollaborator.body).toEqual([rw.body, ro.body]);
    });
  });

  describe('repoListKeys and repoGetKey', () => {
    it('filters by key_id and fingerprint, pages, and hides other repositories keys', async () => {
      const repo = await newRepo(alice);
      const other = await newRepo(alice);
      const keys = [generateSshKey('ed25519'), generateSshKey('ed25519'), generateSshKey('ed25519')];
      const made: ApiDeployKey[] = [];
      for (const [i, k] of keys.entries()) {
        const r = await addKey(repo, alice, { title: `k${i}`, key: k.line });
        expect(r.status).toBe(201);
        made.push(r.body);
      }
      const foreign = await addKey(other, alice, { title: 'f', key: generateSshKey('ed25519').line });
      const byFp = await s.client.get<ApiDeployKey[]>(`/repos/${repo.full_name}/keys?fingerprint=${encodeURIComponent(keys[1]!.fingerprint)}`, as(alice));
      expect(byFp.body.map((x) => x.id)).toEqual([made[1]!.id]);
      const byKeyId = await s.client.get<ApiDeployKey[]>(`/repos/${repo.full_name}/keys?key_id=${made[2]!.key_id}`, as(alice));
      expect(byKeyId.body.map((x) => x.id)).toEqual([made[2]!.id]);
      const page = await s.client.get<ApiDeployKey[]>(`/repos/${repo.full_name}/keys?page=2&limit=2`, as(alice));
      expect(page.headers.get('x-total-count')).toBe('3');
      expect(page.body.map((x) => x.id)).toEqual([made[2]!.id]);
      const got = await s.client.get<ApiDeployKey>(`/repos/${repo.full_name}/keys/${made[0]!.id}`, as(alice));
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ id: made[0]!.id, title: 'k0', key: keys[0]!.line });
      expect(await s.client.get(`/repos/${repo.full_name}/keys/${foreign.body.id}`, as(alice))).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
      expect(await s.client.get(`/repos/${repo.full_name}/keys/999999`, as(alice))).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
    });
  });

  describe('repoDeleteKey', () => {
    it('removes the key from one repository; the public key goes with its last repository', async () => {
      const one = await newRepo(alice);
      const two = await newRepo(alice);
      const k = generateSshKey('ed25519');
      const a = await addKey(one, alice, { title: 'd', key: k.line });
      const b = await addKey(two, alice, { title: 'd', key: k.line });
      expect(await s.client.delete(`/repos/${one.full_name}/keys/${b.body.id}`, as(alice))).toMatchObject({ status: 403, body: err('You do not have access to this key') });
      const del = await s.client.delete(`/repos/${one.full_name}/keys/${a.body.id}`, as(alice));
      expect(del.status).toBe(204);
      expect((await s.client.get(`/repos/${one.full_name}/keys`, as(alice))).body).toEqual([]);
      // Gitea answers an unknown id with success.
      expect((await s.client.delete(`/repos/${one.full_name}/keys/${a.body.id}`, as(alice))).status).toBe(204);
      // Still a deploy key of the second repository, so not usable as a user key.
      expect((await s.client.get<ApiDeployKey>(`/repos/${two.full_name}/keys/${b.body.id}`, as(alice))).body.key_id).toBe(a.body.key_id);
      expect((await s.client.post('/user/keys', { title: 'mine', key: k.line }, as(alice))).status).toBe(422);
      expect((await s.client.delete(`/repos/${two.full_name}/keys/${b.body.id}`, as(alice))).status).toBe(204);
      const asUser = await s.client.post<{ fingerprint: string }>('/user/keys', { title: 'mine', key: k.line }, as(alice));
      expect(asUser.status).toBe(201);
      expect(asUser.body.fingerprint).toBe(k.fingerprint);
    });

    it('removes the deploy keys of a deleted repository', async () => {
      const repo = await newRepo(alice);
      const k = generateSshKey('ed25519');
      expect((await addKey(repo, alice, { title: 'gone', key: k.line })).status).toBe(201);
      expect((await s.client.delete(`/repos/${repo.full_name}`, as(alice))).status).toBe(204);
      const again = await newRepo(alice);
      const r = await addKey(again, alice, { title: 'gone', key: k.line });
      expect(r.status).toBe(201);
      expect(r.body.fingerprint).toBe(k.fingerprint);
    });
  });
});
