// repoTransfer, acceptRepoTransfer, rejectRepoTransfer (Gitea 1.22 services/repository/transfer.go) and generateRepo
// (BEHAVIOUR.md 6.18).
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

interface ApiUser {
  id: number;
  login: string;
}
interface ApiRepo {
  id: number;
  name: string;
  full_name: string;
  owner: ApiUser;
  description: string;
  private: boolean;
  empty: boolean;
  template: boolean;
  default_branch: string;
  permissions: { admin: boolean; push: boolean; pull: boolean };
  repo_transfer?: { doer: ApiUser; recipient: ApiUser; teams: unknown[] | null };
}

describeDb('repository transfer and template generation', () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  const as = (u: TestUser) => ({ token: u.token });

  const newRepo = async (u: TestUser, body: Record<string, unknown> = {}) => {
    const r = await s.client.post<ApiRepo>('/user/repos', { name: uniqueName('tr'), auto_init: true, ...body }, as(u));
    expect(r.status).toBe(201);
    return r.body;
  };
  const collaborate = async (repo: ApiRepo, owner: TestUser, u: TestUser, permission: string) => {
    expect((await s.client.put(`/repos/${repo.full_name}/collaborators/${u.name}`, { permission }, as(owner))).status).toBe(204);
  };

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    alice = await s.createUser();
    bob = await s.createUser();
    carol = await s.createUser();
    stranger = await s.createUser();
  });
  afterAll(async () => s?.close());

  describe('repoTransfer to another user (pending)', () => {
    it('answers 201 with repo_transfer, gives the recipient read access, and shows the transfer on GET', async () => {
      const repo = await newRepo(alice, { private: true });
      expect((await s.client.get(`/repos/${repo.full_name}`, as(bob))).status).toBe(404);
      const r = await s.client.post<ApiRepo>(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(alice));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        id: repo.id,
        full_name: repo.full_name,
        owner: { login: alice.name },
        permissions: { admin: true, push: true, pull: true },
        repo_transfer: { doer: { id: alice.id, login: alice.name }, recipient: { id: bob.id, login: bob.name }, teams: [] },
      });
      const seen = await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(bob));
      expect(seen.status).toBe(200);
      expect(seen.body).toMatchObject({ owner: { login: alice.name }, permissions: { admin: false, push: false, pull: true }, repo_transfer: { recipient: { login: bob.name } } });
      const byOwner = await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice));
      expect(byOwner.body.repo_transfer).toMatchObject({ doer: { login: alice.name }, recipient: { login: bob.name }, teams: [] });
      // Listings carry it too.
      const list = await s.client.get<ApiRepo[]>('/user/repos', as(alice));
      expect(list.body.find((x) => x.id === repo.id)?.repo_transfer).toMatchObject({ recipient: { login: bob.name } });
    });

    it('refuses a second transfer while one is pending (409)', async () => {
      const repo = await newRepo(alice);
      expect((await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(alice))).status).toBe(201);
      const r = await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: carol.name }, as(alice));
      expect(r.status).toBe(409);
      expect(r.body).toEqual(err(`repository is already being transferred [uname: ${alice.name.toLowerCase()}, name: ${repo.name}]`));
    });

    it('is 422 when the recipient already has a repository of that name', async () => {
      const repo = await newRepo(alice);
      await newRepo(bob, { name: repo.name });
      const r = await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(alice));
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(`repository already exists [uname: ${bob.name.toLowerCase()}, name: ${repo.name}]`));
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice))).body.repo_transfer).toBeUndefined();
    });
  });

  describe('acceptRepoTransfer', () => {
    it('moves the repository to the recipient (202), redirects the old name and drops the recipient collaboration', async () => {
      const repo = await newRepo(alice, { private: true });
      expect((await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(alice))).status).toBe(201);
      const r = await s.client.post<ApiRepo>(`/repos/${repo.full_name}/transfer/accept`, undefined, as(bob));
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ id: repo.id, full_name: `${bob.name}/${repo.name}`, owner: { login: bob.name }, private: true, permissions: { admin: true, push: true, pull: true } });
      expect(r.body.repo_transfer).toBeUndefined();
      const got = await s.client.get<ApiRepo>(`/repos/${bob.name}/${repo.name}`, as(bob));
      expect(got.status).toBe(200);
      expect(got.body.repo_transfer).toBeUndefined();
      // The old full name redirects for those who may see the repository; the old owner no longer may.
      const old = await s.client.get(`/repos/${repo.full_name}`, as(bob));
      expect(old.status).toBe(307);
      expect(old.headers.get('location')).toBe(`/api/v1/repos/${bob.name}/${repo.name}`);
      expect(await s.client.get(`/repos/${repo.full_name}`, as(alice))).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
      const collabs = await s.client.get<ApiUser[]>(`/repos/${bob.name}/${repo.name}/collaborators`, as(bob));
      expect(collabs.status).toBe(200);
      expect(collabs.body).toEqual([]);
      // The recipient's own listing has it; the old owner's has not.
      expect((await s.client.get<ApiRepo[]>('/user/repos', as(bob))).body.map((x) => x.id)).toContain(repo.id);
      expect((await s.client.get<ApiRepo[]>('/user/repos', as(alice))).body.map((x) => x.id)).not.toContain(repo.id);
    });

    it('keeps git content: the moved repository serves its README', async () => {
      const repo = await newRepo(alice);
      expect((await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: carol.name }, as(alice))).status).toBe(201);
      expect((await s.client.post(`/repos/${repo.full_name}/transfer/accept`, undefined, as(carol))).status).toBe(202);
      const c = await s.client.get<{ name: string; type: string }>(`/repos/${carol.name}/${repo.name}/contents/README.md`, as(carol));
      expect(c.status).toBe(200);
      expect(c.body).toMatchObject({ name: 'README.md', type: 'file' });
    });

    it('is 403 for someone other than the recipient, 404 without a pending transfer, 404 when invisible', async () => {
      const repo = await newRepo(alice, { private: true });
      await collaborate(repo, alice, carol, 'admin');
      expect(await s.client.post(`/repos/${repo.full_name}/transfer/accept`, undefined, as(carol))).toMatchObject({
        status: 404,
        body: err(`repository doesn't have a pending transfer [repo_id: ${repo.id}]`),
      });
      expect((await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(alice))).status).toBe(201);
      for (const u of [carol, alice]) {
        expect(await s.client.post(`/repos/${repo.full_name}/transfer/accept`, undefined, as(u))).toMatchObject({ status: 403, body: err('permission denied') });
        expect(await s.client.post(`/repos/${repo.full_name}/transfer/reject`, undefined, as(u))).toMatchObject({ status: 403, body: err('permission denied') });
      }
      expect(await s.client.post(`/repos/${repo.full_name}/transfer/accept`, undefined, as(stranger))).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
      expect(await s.client.post(`/repos/${repo.full_name}/transfer/accept`)).toMatchObject({ status: 401, body: err('token is required') });
      // Still pending and still alice's.
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice))).body).toMatchObject({ owner: { login: alice.name }, repo_transfer: { recipient: { login: bob.name } } });
    });

    it('lets a site administrator accept in place of the recipient', async () => {
      const repo = await newRepo(alice);
      expect((await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(alice))).status).toBe(201);
      const r = await s.client.post<ApiRepo>(`/repos/${repo.full_name}/transfer/accept`, undefined, as(s.admin));
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ full_name: `${bob.name}/${repo.name}`, owner: { login: bob.name } });
    });

    it('is 422 when the recipient took the name meanwhile, and the transfer stays pending', async () => {
      const repo = await newRepo(alice);
      expect((await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(alice))).status).toBe(201);
      await newRepo(bob, { name: repo.name });
      const r = await s.client.post(`/repos/${repo.full_name}/transfer/accept`, undefined, as(bob));
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(`repository already exists [uname: ${bob.name.toLowerCase()}, name: ${repo.name}]`));
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice))).body).toMatchObject({ owner: { login: alice.name }, repo_transfer: { recipient: { login: bob.name } } });
    });
  });

  describe('rejectRepoTransfer', () => {
    it('cancels the transfer (200): the repository stays, a new transfer may start', async () => {
      const repo = await newRepo(alice);
      expect((await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(alice))).status).toBe(201);
      const r = await s.client.post<ApiRepo>(`/repos/${repo.full_name}/transfer/reject`, undefined, as(bob));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: repo.id, full_name: repo.full_name, owner: { login: alice.name }, permissions: { admin: false, push: false, pull: true } });
      expect(r.body.repo_transfer).toBeUndefined();
      expect(await s.client.post(`/repos/${repo.full_name}/transfer/accept`, undefined, as(bob))).toMatchObject({
        status: 404,
        body: err(`repository doesn't have a pending transfer [repo_id: ${repo.id}]`),
      });
      expect((await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: carol.name }, as(alice))).status).toBe(201);
    });
  });

  describe('repoTransfer, immediate and refused', () => {
    it('transfers at once for a site administrator (202) with admin permissions in the answer', async () => {
      const repo = await newRepo(alice);
      const r = await s.client.post<ApiRepo>(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name }, as(s.admin));
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ id: repo.id, full_name: `${bob.name}/${repo.name}`, owner: { login: bob.name }, permissions: { admin: true, push: true, pull: true } });
      expect(r.body.repo_transfer).toBeUndefined();
      expect((await s.client.get<ApiRepo>(`/repos/${bob.name}/${repo.name}`, as(bob))).body.permissions).toEqual({ admin: true, push: true, pull: true });
    });

    it('is 422 to the current owner; a site administrator may take a repository at once', async () => {
      const repo = await newRepo(alice);
      const r = await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: alice.name }, as(alice));
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(`repository already exists [uname: ${alice.name.toLowerCase()}, name: ${repo.name}]`));
      const back = await s.client.post<ApiRepo>(`/repos/${repo.full_name}/transfer`, { new_owner: s.admin.name }, as(s.admin));
      expect(back.status).toBe(202);
      expect(back.body.owner.login).toBe(s.admin.name);
    });

    it('is 403 for non-owners, 404 for invisible repositories and 401 for anonymous callers', async () => {
      const repo = await newRepo(alice);
      await collaborate(repo, alice, carol, 'admin');
      expect(await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: carol.name }, as(carol))).toMatchObject({ status: 403, body: err('user should be the owner of the repo') });
      expect(await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: stranger.name }, as(stranger))).toMatchObject({ status: 403, body: err('user should be the owner of the repo') });
      const priv = await newRepo(alice, { private: true });
      expect(await s.client.post(`/repos/${priv.full_name}/transfer`, { new_owner: stranger.name }, as(stranger))).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
      expect(await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name })).toMatchObject({ status: 401, body: err('token is required') });
    });

    it('is 404 for an unknown new owner and 422 for team_ids or a missing new_owner', async () => {
      const repo = await newRepo(alice);
      expect(await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: 'nobody-at-all' }, as(alice))).toMatchObject({
        status: 404,
        body: err('The new owner does not exist or cannot be found'),
      });
      expect(await s.client.post(`/repos/${repo.full_name}/transfer`, { new_owner: bob.name, team_ids: [] }, as(alice))).toMatchObject({
        status: 422,
        body: err('Teams can only be added to organization-owned repositories'),
      });
      const missing = await s.client.post<{ message: string; url: string }>(`/repos/${repo.full_name}/transfer`, {}, as(alice));
      expect(missing.status).toBe(422);
      expect(missing.body.url).toBe(`${s.url}/api/swagger`);
      expect(missing.body.message).toContain('new_owner');
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice))).body.owner.login).toBe(alice.name);
    });
  });

  describe('generateRepo', () => {
    const makeTemplate = async (u: TestUser, body: Record<string, unknown> = {}) => {
      const tpl = await newRepo(u, { template: true, description: 'the template', default_branch: 'trunk', ...body });
      expect((await s.client.put(`/repos/${tpl.full_name}/topics`, { topics: ['go', 'starter'] }, as(u))).status).toBe(204);
      if (!body.private && body.auto_init !== false) {
        expect((await s.client.post(`/repos/${tpl.full_name}/branches`, { new_branch_name: 'other' }, as(u))).status).toBe(201);
        const f = await s.client.post(`/repos/${tpl.full_name}/contents/docs/a.txt`, { content: Buffer.from('hello\n').toString('base64'), message: 'second' }, as(u));
        expect(f.status).toBe(201);
      }
      return tpl;
    };

    it('copies the default branch as one root commit and the topics (201)', async () => {
      const tpl = await makeTemplate(alice);
      const name = uniqueName('gen');
      const r = await s.client.post<ApiRepo>(
        `/repos/${tpl.full_name}/generate`,
        { owner: bob.name, name, description: 'made from a template', private: true, git_content: true, topics: true },
        as(bob),
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        name,
        full_name: `${bob.name}/${name}`,
        owner: { login: bob.name },
        description: 'made from a template',
        private: true,
        empty: false,
        template: false,
        default_branch: 'trunk',
        permissions: { admin: true, push: true, pull: true },
      });
      const commits = await s.client.get<{ commit: { message: string; author: { name: string } }; parents: unknown[] }[]>(`/repos/${bob.name}/${name}/commits`, as(bob));
      expect(commits.status).toBe(200);
      expect(commits.body).toHaveLength(1);
      expect(commits.body[0]).toMatchObject({ commit: { message: 'Initial commit\n' }, parents: [] });
      const files = await s.client.get<{ name: string }[]>(`/repos/${bob.name}/${name}/contents`, as(bob));
      expect(files.status).toBe(200);
      expect(files.body.map((f) => f.name).sort()).toEqual(['README.md', 'docs']);
      const a = await s.client.get<{ content: string }>(`/repos/${bob.name}/${name}/contents/docs/a.txt`, as(bob));
      expect(Buffer.from(a.body.content, 'base64').toString()).toBe('hello\n');
      const branches = await s.client.get<{ name: string }[]>(`/repos/${bob.name}/${name}/branches`, as(bob));
      expect(branches.body.map((b) => b.name)).toEqual(['trunk']);
      const topics = await s.client.get(`/repos/${bob.name}/${name}/topics`, as(bob));
      expect(topics).toMatchObject({ status: 200, body: { topics: ['go', 'starter'] } });
    });

    it('honours default_branch and copies nothing but the topics when git_content is off', async () => {
      const tpl = await makeTemplate(alice);
      const name = uniqueName('gen');
      const r = await s.client.post<ApiRepo>(`/repos/${tpl.full_name}/generate`, { owner: bob.name, name, default_branch: 'dev', git_content: true }, as(bob));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ default_branch: 'dev', empty: false, private: false });
      const branches = await s.client.get<{ name: string }[]>(`/repos/${bob.name}/${name}/branches`, as(bob));
      expect(branches.body.map((b) => b.name)).toEqual(['dev']);

      const bare = uniqueName('gen');
      const t = await s.client.post<ApiRepo>(`/repos/${tpl.full_name}/generate`, { owner: bob.name, name: bare, topics: true }, as(bob));
      expect(t.status).toBe(201);
      expect(t.body).toMatchObject({ empty: true, full_name: `${bob.name}/${bare}` });
      expect(await s.client.get(`/repos/${bob.name}/${bare}/topics`, as(bob))).toMatchObject({ status: 200, body: { topics: ['go', 'starter'] } });
      expect((await s.client.get(`/repos/${bob.name}/${bare}/branches`, as(bob))).body).toEqual([]);
    });

    it('lets a site administrator generate for another user', async () => {
      const tpl = await makeTemplate(alice);
      const name = uniqueName('gen');
      const r = await s.client.post<ApiRepo>(`/repos/${tpl.full_name}/generate`, { owner: carol.name, name, git_content: true }, as(s.admin));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ full_name: `${carol.name}/${name}`, owner: { login: carol.name } });
    });

    it('refuses what Gitea refuses', async () => {
      const tpl = await makeTemplate(alice);
      const plain = await newRepo(alice);
      const name = uniqueName('gen');
      expect(await s.client.post(`/repos/${plain.full_name}/generate`, { owner: bob.name, name, git_content: true }, as(bob))).toMatchObject({
        status: 422,
        body: err('this is not a template repo'),
      });
      expect(await s.client.post(`/repos/${tpl.full_name}/generate`, { owner: bob.name, name }, as(bob))).toMatchObject({
        status: 422,
        body: err('must select at least one template item'),
      });
      const unknown = await s.client.post(`/repos/${tpl.full_name}/generate`, { owner: 'no-such-owner', name, git_content: true }, as(bob));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ ...err('request owner `no-such-owner` does not exist'), error: 'request owner `no-such-owner` does not exist' });
      expect(await s.client.post(`/repos/${tpl.full_name}/generate`, { owner: carol.name, name, git_content: true }, as(bob))).toMatchObject({
        status: 403,
        body: err('Only admin can generate repository for other user.'),
      });
      const existing = await newRepo(bob);
      expect(await s.client.post(`/repos/${tpl.full_name}/generate`, { owner: bob.name, name: existing.name, git_content: true }, as(bob))).toMatchObject({
        status: 409,
        body: err('The repository with the same name already exists.'),
      });
      const bad = await s.client.post<{ message: string }>(`/repos/${tpl.full_name}/generate`, { owner: bob.name, name: 'bad name', git_content: true }, as(bob));
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({ url: `${s.url}/api/swagger` });
      expect(await s.client.post(`/repos/${tpl.full_name}/generate`, { owner: bob.name, name, git_content: true })).toMatchObject({ status: 401, body: err('token is required') });
      // Nothing was created by the refusals.
      expect((await s.client.get(`/repos/${bob.name}/${name}`, as(bob))).status).toBe(404);
      expect((await s.client.get(`/repos/${carol.name}/${name}`, as(carol))).status).toBe(404);
    });

    it('is 404 for a private template the caller cannot see, and works for a collaborator who can', async () => {
      const tpl = await makeTemplate(alice, { private: true });
      const name = uniqueName('gen');
      expect(await s.client.post(`/repos/${tpl.full_name}/generate`, { owner: stranger.name, name, git_content: true }, as(stranger))).toMatchObject({
        status: 404,
        body: err("The target couldn't be found."),
      });
      await collaborate(tpl, alice, stranger, 'read');
      const r = await s.client.post<ApiRepo>(`/repos/${tpl.full_name}/generate`, { owner: stranger.name, name, git_content: true, topics: true }, as(stranger));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ full_name: `${stranger.name}/${name}`, empty: false, private: false });
    });
  });
});
