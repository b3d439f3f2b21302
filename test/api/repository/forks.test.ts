// createFork and listForks (BEHAVIOUR.md 6.5), the parent of a fork in the Repository JSON, and git clone of a fork.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { createGitCli, type GitCli } from '../../helpers/gitcli.js';

interface ApiRepo {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string };
  description: string;
  fork: boolean;
  private: boolean;
  empty: boolean;
  default_branch: string;
  forks_count: number;
  permissions: { admin: boolean; push: boolean; pull: boolean };
  parent?: ApiRepo;
}

describeDb('forks', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };

  const withAuth = (url: string, u: TestUser) => {
    const x = new URL(url);
    x.username = u.name;
    x.password = u.token;
    return x.toString();
  };
  const newRepo = async (u: TestUser, body: Record<string, unknown> = {}) => {
    const r = await s.client.post<ApiRepo>('/user/repos', { name: uniqueName('fk'), auto_init: true, description: 'the source', ...body }, { token: u.token });
    expect(r.status).toBe(201);
    return r.body;
  };

  beforeAll(async () => {
    s = await startServer();
    git = await createGitCli();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    alice = await s.createUser();
    bob = await s.createUser();
    stranger = await s.createUser();
  });
  afterAll(async () => {
    await git?.close();
    await s?.close();
  });

  describe('createFork', () => {
    it('forks with every branch and tag, answers 202 with the parent, and counts the fork', async () => {
      const src = await newRepo(owner, { default_branch: 'trunk' });
      expect((await s.client.post(`/repos/${src.full_name}/branches`, { new_branch_name: 'feature/a' }, { token: owner.token })).status).toBe(201);
      expect((await s.client.post(`/repos/${src.full_name}/tags`, { tag_name: 'v1', message: 'one' }, { token: owner.token })).status).toBe(201);
      const r = await s.client.post<ApiRepo>(`/repos/${src.full_name}/forks`, {}, { token: alice.token });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({
        name: src.name,
        full_name: `${alice.name}/${src.name}`,
        owner: { login: alice.name },
        description: 'the source',
        fork: true,
        private: false,
        empty: false,
        default_branch: 'trunk',
        permissions: { admin: true, push: true, pull: true },
        parent: { id: src.id, full_name: src.full_name, fork: false, forks_count: 1, permissions: { admin: false, push: false, pull: true } },
      });
      expect(r.body.parent!.parent).toBeUndefined();
      const parent = await s.client.get<ApiRepo>(`/repos/${src.full_name}`);
      expect(parent.body.forks_count).toBe(1);
      expect(parent.body.parent).toBeUndefined();
      // The fork's own JSON carries the parent, with the caller's permissions on the parent.
      const got = await s.client.get<ApiRepo>(`/repos/${alice.name}/${src.name}`, { token: owner.token });
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ fork: true, permissions: { admin: false, push: false, pull: true }, parent: { id: src.id, permissions: { admin: true, push: true, pull: true } } });
      const anon = await s.client.get<ApiRepo>(`/repos/${alice.name}/${src.name}`);
      expect(anon.body).toMatchObject({ permissions: { admin: false, push: false, pull: true }, parent: { id: src.id, permissions: { admin: false, push: false, pull: true } } });
      // The fork is a real git repository: clone it over HTTP and compare the refs.
      const d = await git.dir('fork');
      await git.ok(['clone', '-q', `${s.url}/${alice.name}/${src.name}.git`, d]);
      expect(await git.ok(['symbolic-ref', 'HEAD'], { cwd: d })).toBe('refs/heads/trunk');
      const srcRefs = await git.ok(['ls-remote', `${s.url}/${src.full_name}.git`]);
      const forkRefs = await git.ok(['ls-remote', `${s.url}/${alice.name}/${src.name}.git`]);
      expect(forkRefs).toBe(srcRefs);
      expect(forkRefs).toContain('refs/heads/feature/a');
      expect(forkRefs).toContain('refs/tags/v1');
      // And takes pushes without touching the source.
      await git.ok(['config', 'user.name', 'x'], { cwd: d });
      const sha = await git.commit(d, { 'new.txt': 'new\n' }, 'on the fork');
      await git.ok(['push', '-q', withAuth(`${s.url}/${alice.name}/${src.name}.git`, alice), 'trunk'], { cwd: d });
      expect(await git.ok(['ls-remote', `${s.url}/${alice.name}/${src.name}.git`, 'refs/heads/trunk'])).toBe(`${sha}\trefs/heads/trunk`);
      expect(await git.ok(['ls-remote', `${s.url}/${src.full_name}.git`, 'refs/heads/trunk'])).not.toContain(sha);
    });

    it('answers 409 with a message on a second fork, whatever its name', async () => {
      const src = await newRepo(owner);
      expect((await s.client.post(`/repos/${src.full_name}/forks`, {}, { token: bob.token })).status).toBe(202);
      const again = await s.client.post(`/repos/${src.full_name}/forks`, { name: 'other-name' }, { token: bob.token });
      expect(again).toMatchObject({
        status: 409,
        body: err(`repository is already forked by user [uname: ${bob.name}, repo path: ${src.full_name}, fork path: ${bob.name}/${src.name}]`),
      });
      expect((await s.client.get<ApiRepo>(`/repos/${src.full_name}`)).body.forks_count).toBe(1);
    });

    it('takes a name; a taken name is 409, an invalid one 422', async () => {
      const src = await newRepo(owner);
      const mine = await newRepo(alice);
      expect(await s.client.post(`/repos/${src.full_name}/forks`, { name: mine.name }, { token: alice.token })).toMatchObject({
        status: 409,
        body: err(`repository already exists [uname: ${alice.name}, name: ${mine.name}]`),
      });
      expect(await s.client.post(`/repos/${src.full_name}/forks`, { name: 'bad name' }, { token: alice.token })).toMatchObject({
        status: 422,
        body: err('name is invalid [bad name]: must be valid alpha or numeric or dash(-_) or dot characters'),
      });
      const named = await s.client.post<ApiRepo>(`/repos/${src.full_name}/forks`, { name: 'renamed-fork' }, { token: alice.token });
      expect(named.status).toBe(202);
      expect(named.body).toMatchObject({ full_name: `${alice.name}/renamed-fork`, fork: true, parent: { id: src.id } });
    });

    it('answers 422 for an organization (none exists)', async () => {
      const src = await newRepo(owner);
      expect(await s.client.post(`/repos/${src.full_name}/forks`, { organization: 'some-org' }, { token: alice.token })).toMatchObject({
        status: 422,
        body: err('org does not exist [id: 0, name: some-org]'),
      });
    });

    it('needs a signed-in caller who can read the source; a fork of a private repository is private', async () => {
      const src = await newRepo(owner, { private: true });
      expect((await s.client.post(`/repos/${src.full_name}/forks`, {})).status).toBe(401);
      expect(await s.client.post(`/repos/${src.full_name}/forks`, {}, { token: stranger.token })).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
      expect((await s.client.put(`/repos/${src.full_name}/collaborators/${bob.name}`, { permission: 'read' }, { token: owner.token })).status).toBe(204);
      const r = await s.client.post<ApiRepo>(`/repos/${src.full_name}/forks`, {}, { token: bob.token });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ private: true, fork: true, parent: { id: src.id, private: true } });
    });

    it('forks an empty repository', async () => {
      const src = await newRepo(owner, { auto_init: false });
      const r = await s.client.post<ApiRepo>(`/repos/${src.full_name}/forks`, {}, { token: alice.token });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ empty: true, fork: true });
    });
  });

  describe('listForks', () => {
    let src: ApiRepo;
    let privateFork: string;
    beforeAll(async () => {
      src = await newRepo(owner);
      expect((await s.client.post(`/repos/${src.full_name}/forks`, {}, { token: alice.token })).status).toBe(202);
      const b = await s.client.post<ApiRepo>(`/repos/${src.full_name}/forks`, {}, { token: bob.token });
      expect(b.status).toBe(202);
      privateFork = b.body.full_name;
      // bob makes his fork private.
      expect((await s.client.patch(`/repos/${privateFork}`, { private: true }, { token: bob.token })).status).toBe(200);
    });

    it('lists only the forks the caller may see', async () => {
      const anon = await s.client.get<ApiRepo[]>(`/repos/${src.full_name}/forks`);
      expect(anon.status).toBe(200);
      expect(anon.headers.get('x-total-count')).toBe('1');
      expect(anon.body.map((r) => r.full_name)).toEqual([`${alice.name}/${src.name}`]);
      expect(anon.body[0]).toMatchObject({ fork: true, parent: { id: src.id } });
      const strangerList = await s.client.get<ApiRepo[]>(`/repos/${src.full_name}/forks`, { token: stranger.token });
      expect(strangerList.body.map((r) => r.full_name)).toEqual([`${alice.name}/${src.name}`]);
      // The source's owner does not see bob's private fork either.
      const ownerList = await s.client.get<ApiRepo[]>(`/repos/${src.full_name}/forks`, { token: owner.token });
      expect(ownerList.body.map((r) => r.full_name)).toEqual([`${alice.name}/${src.name}`]);
      const bobList = await s.client.get<ApiRepo[]>(`/repos/${src.full_name}/forks`, { token: bob.token });
      expect(bobList.headers.get('x-total-count')).toBe('2');
      expect(bobList.body.map((r) => r.full_name)).toEqual([`${alice.name}/${src.name}`, privateFork]);
      const admin = await s.client.get<ApiRepo[]>(`/repos/${src.full_name}/forks`, { token: s.admin.token });
      expect(admin.body).toHaveLength(2);
    });

    it('pages', async () => {
      const r = await s.client.get<ApiRepo[]>(`/repos/${src.full_name}/forks?page=2&limit=1`, { token: bob.token });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-total-count')).toBe('2');
      expect(r.body.map((x) => x.full_name)).toEqual([privateFork]);
    });

    it('shows forks in search results with their parent', async () => {
      const r = await s.client.get<{ ok: boolean; data: ApiRepo[] }>(`/repos/search?q=${src.name}&mode=fork`, { token: bob.token });
      expect(r.status).toBe(200);
      expect(r.body.data.map((x) => [x.full_name, x.parent?.id])).toEqual([
        [`${alice.name}/${src.name}`, src.id],
        [privateFork, src.id],
      ]);
    });

    it('answers 404 for a repository the caller may not see', async () => {
      const hidden = await newRepo(owner, { private: true });
      expect(await s.client.get(`/repos/${hidden.full_name}/forks`, { token: stranger.token })).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
    });

    it('deleting a fork lowers the count; deleting the source turns forks into ordinary repositories', async () => {
      const base = await newRepo(owner);
      const f = await s.client.post<ApiRepo>(`/repos/${base.full_name}/forks`, {}, { token: alice.token });
      const g = await s.client.post<ApiRepo>(`/repos/${base.full_name}/forks`, {}, { token: bob.token });
      expect((await s.client.get<ApiRepo>(`/repos/${base.full_name}`)).body.forks_count).toBe(2);
      expect((await s.client.delete(`/repos/${f.body.full_name}`, { token: alice.token })).status).toBe(204);
      expect((await s.client.get<ApiRepo>(`/repos/${base.full_name}`)).body.forks_count).toBe(1);
      expect((await s.client.delete(`/repos/${base.full_name}`, { token: owner.token })).status).toBe(204);
      const orphan = await s.client.get<ApiRepo>(`/repos/${g.body.full_name}`, { token: bob.token });
      expect(orphan.status).toBe(200);
      expect(orphan.body.fork).toBe(false);
      expect(orphan.body.parent).toBeUndefined();
    });
  });
});
