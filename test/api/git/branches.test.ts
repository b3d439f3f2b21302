// repoListBranches, repoGetBranch, repoCreateBranch, repoDeleteBranch against repositories filled with the stock git client.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { join } from 'node:path';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { createGitCli, type GitCli, tokenRemote } from '../../helpers/gitcli.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const ANN = { GIT_AUTHOR_NAME: 'Ann Author', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_AUTHOR_DATE: '2023-05-06T07:08:09+02:00' };
const CARL = { GIT_COMMITTER_NAME: 'Carl Committer', GIT_COMMITTER_EMAIL: 'carl@example.org', GIT_COMMITTER_DATE: '2023-06-07T08:09:10+01:00' };
const OLD = { GIT_AUTHOR_DATE: '2022-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2022-01-01T00:00:00Z' };

interface BranchJson {
  name: string;
  commit: { id: string; message: string; timestamp: string; author: { name: string; email: string; username: string }; committer: { name: string; email: string } };
  user_can_push: boolean;
  user_can_merge: boolean;
}

describeDb('branches', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  /** The local clone holding main, dated, feature/deep/x, tag v1 (lightweight, on dated) and v2 (annotated, on feature/deep/x). */
  let local: string;
  const sha: Record<string, string> = {};

  const remote = (repo: string) => tokenRemote(s.url, owner, repo);

  /** A new repository of owner's, with the given collaborators; returns its name and id. */
  const createRepo = async (body: Record<string, unknown>, collaborators = true) => {
    const r = await s.client.post('/user/repos', body, { token: owner.token });
    expect(r.status).toBe(201);
    if (collaborators) {
      for (const [u, permission] of [
        [writer, 'write'],
        [reader, 'read'],
      ] as const) {
        expect((await s.client.put(`/repos/${owner.name}/${r.body.name}/collaborators/${u.name}`, { permission }, { token: owner.token })).status).toBe(204);
      }
    }
    return { name: r.body.name as string, id: r.body.id as number };
  };

  /** A repository holding exactly what `local` holds (main, dated, feature/deep/x, v1, v2). */
  const filledRepo = async (extra: Record<string, unknown> = {}) => {
    const repo = await createRepo({ name: uniqueName('br'), auto_init: false, ...extra });
    await git.ok(['push', remote(repo.name), 'main', 'dated', 'feature/deep/x', 'v1', 'v2'], { cwd: local });
    return repo;
  };

  const gitBranches = async (repo: string) =>
    (await git.ok(['ls-remote', '--heads', remote(repo)]))
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[1]!.replace('refs/heads/', ''))
      .sort();

  beforeAll(async () => {
    s = await startServer();
    git = await createGitCli();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    writer = await s.createUser();
    reader = await s.createUser();
    stranger = await s.createUser();
    local = await git.initWithCommit('main', { 'README.md': '# branches\n' }, 'initial commit');
    sha.main = await git.ok(['rev-parse', 'HEAD'], { cwd: local });
    await git.ok(['checkout', '-q', '-b', 'dated'], { cwd: local });
    sha.dated = await git.commit(local, { 'dated.txt': 'dated\n' }, 'Dated subject\n\nA body\nof two lines', { ...ANN, ...CARL });
    await git.ok(['checkout', '-q', '-b', 'feature/deep/x', 'main'], { cwd: local });
    sha.deep = await git.commit(local, { 'deep.txt': 'deep\n' }, 'deep work', OLD);
    await git.ok(['tag', 'v1', 'dated'], { cwd: local });
    await git.ok(['tag', '-a', 'v2', '-m', 'release two', 'feature/deep/x'], { cwd: local });
    await git.ok(['checkout', '-q', 'main'], { cwd: local });
  });
  afterAll(async () => {
    await git?.close();
    await s?.close();
  });

  describe('repoListBranches', () => {
    let repo: { name: string; id: number };
    beforeAll(async () => {
      repo = await filledRepo();
    });

    it('lists every branch, latest commit first, with the tip commit', async () => {
      const r = await s.client.get<BranchJson[]>(`/repos/${owner.name}/${repo.name}/branches`, { token: owner.token });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-total-count')).toBe('3');
      expect(r.headers.get('link')).toBeNull();
      // main was committed now, dated in 2023, feature/deep/x in 2022.
      expect(r.body.map((b) => [b.name, b.commit.id])).toEqual([
        ['main', sha.main],
        ['dated', sha.dated],
        ['feature/deep/x', sha.deep],
      ]);
    });

    it('gives the complete Branch object', async () => {
      const r = await s.client.get<BranchJson[]>(`/repos/${owner.name}/${repo.name}/branches`, { token: owner.token });
      const dated = r.body.find((b) => b.name === 'dated');
      expect(dated).toEqual({
        name: 'dated',
        commit: {
          id: sha.dated,
          message: 'Dated subject\n\nA body\nof two lines\n',
          url: `${s.url}/${owner.name}/${repo.name}/commit/${sha.dated}`,
          author: { name: 'Ann Author', email: 'ann@example.com', username: '' },
          committer: { name: 'Carl Committer', email: 'carl@example.org', username: '' },
          verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
          timestamp: expect.stringMatching(RFC3339),
          added: null,
          removed: null,
          modified: null,
        },
        protected: false,
        required_approvals: 0,
        enable_status_check: false,
        status_check_contexts: [],
        user_can_push: true,
        user_can_merge: true,
        effective_branch_protection_name: '',
      });
      // The timestamp is the committer's date, not the author's.
      expect(Date.parse(dated!.commit.timestamp)).toBe(Date.parse(CARL.GIT_COMMITTER_DATE));
    });

    it('pages with X-Total-Count and Link', async () => {
      const base = `/repos/${owner.name}/${repo.name}/branches`;
      const p1 = await s.client.get<BranchJson[]>(`${base}?limit=2&page=1`, { token: owner.token });
      expect(p1.status).toBe(200);
      expect(p1.body.map((b) => b.name)).toEqual(['main', 'dated']);
      expect(p1.headers.get('x-total-count')).toBe('3');
      const api = `${s.url}/api/v1${base}`;
      expect(p1.headers.get('link')).toBe(`<${api}?limit=2&page=2>; rel="next",<${api}?limit=2&page=2>; rel="last"`);
      const p2 = await s.client.get<BranchJson[]>(`${base}?limit=2&page=2`, { token: owner.token });
      expect(p2.status).toBe(200);
      expect(p2.body.map((b) => b.name)).toEqual(['feature/deep/x']);
      expect(p2.headers.get('x-total-count')).toBe('3');
      expect(p2.headers.get('link')).toBe(`<${api}?limit=2&page=1>; rel="first",<${api}?limit=2&page=1>; rel="prev"`);
      const p3 = await s.client.get<BranchJson[]>(`${base}?limit=2&page=3`, { token: owner.token });
      expect(p3.status).toBe(200);
      expect(p3.body).toEqual([]);
      expect(p3.headers.get('x-total-count')).toBe('3');
    });

    it('computes user_can_push and user_can_merge for each caller', async () => {
      const callers: [string, { token?: string }, boolean][] = [
        ['owner', { token: owner.token }, true],
        ['writer', { token: writer.token }, true],
        ['site admin', { token: s.admin.token }, true],
        ['reader', { token: reader.token }, false],
        ['stranger', { token: stranger.token }, false],
        ['anonymous', {}, false],
      ];
      for (const [who, opts, can] of callers) {
        const list = await s.client.get<BranchJson[]>(`/repos/${owner.name}/${repo.name}/branches`, opts);
        expect({ who, status: list.status }).toEqual({ who, status: 200 });
        expect({ who, push: list.body.map((b) => b.user_can_push), merge: list.body.map((b) => b.user_can_merge) }).toEqual({
          who,
          push: [can, can, can],
          merge: [can, can, can],
        });
        const one = await s.client.get<BranchJson>(`/repos/${owner.name}/${repo.name}/branches/main`, opts);
        expect({ who, status: one.status, push: one.body.user_can_push }).toEqual({ who, status: 200, push: can });
      }
    });

    it('hides a private repository from those who cannot see it', async () => {
      const hidden = await filledRepo({ private: true });
      for (const opts of [{ token: stranger.token }, {}]) {
        const r = await s.client.get(`/repos/${owner.name}/${hidden.name}/branches`, opts);
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
      const r = await s.client.get<BranchJson[]>(`/repos/${owner.name}/${hidden.name}/branches`, { token: reader.token });
      expect(r.status).toBe(200);
      expect(r.body.map((b) => b.name)).toEqual(['main', 'dated', 'feature/deep/x']);
    });

    it('an empty repository has no branches', async () => {
      const empty = await createRepo({ name: uniqueName('empty'), auto_init: false });
      const r = await s.client.get(`/repos/${owner.name}/${empty.name}/branches`, { token: owner.token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(r.headers.get('x-total-count')).toBe('0');
      const main = await s.client.get(`/repos/${owner.name}/${empty.name}/branches/main`, { token: owner.token });
      expect(main.status).toBe(404);
      expect(main.body).toEqual(err("The target couldn't be found."));
      const create = await s.client.post(`/repos/${owner.name}/${empty.name}/branches`, { new_branch_name: 'x' }, { token: owner.token });
      expect(create.status).toBe(404);
      expect(create.body).toEqual(err('Git Repository is empty.'));
      const del = await s.client.delete(`/repos/${owner.name}/${empty.name}/branches/main`, { token: owner.token });
      expect(del.status).toBe(404);
      expect(del.body).toEqual(err('Git Repository is empty.'));
    });
  });

  describe('repoGetBranch', () => {
    let repo: { name: string; id: number };
    beforeAll(async () => {
      repo = await filledRepo();
    });

    it('returns a branch whose name has slashes', async () => {
      const r = await s.client.get<BranchJson>(`/repos/${owner.name}/${repo.name}/branches/feature/deep/x`, { token: owner.token });
      expect(r.status).toBe(200);
      expect(r.body.name).toBe('feature/deep/x');
      expect(r.body.commit.id).toBe(sha.deep);
      expect(r.body.commit.message).toBe('deep work\n');
      expect(r.body.commit.timestamp).toMatch(RFC3339);
      expect(Date.parse(r.body.commit.timestamp)).toBe(Date.parse(OLD.GIT_COMMITTER_DATE));
    });

    it('answers 404 for what is not a branch', async () => {
      for (const name of ['nope', 'feature', 'feature/deep', 'v1', 'v2', 'HEAD', sha.main!, 'main/x']) {
        const r = await s.client.get(`/repos/${owner.name}/${repo.name}/branches/${name}`, { token: owner.token });
        expect({ name, status: r.status }).toEqual({ name, status: 404 });
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
    });

    it('is readable anonymously on a public repository, not on a missing one', async () => {
      const r = await s.client.get<BranchJson>(`/repos/${owner.name}/${repo.name}/branches/dated`);
      expect(r.status).toBe(200);
      expect(r.body.commit.id).toBe(sha.dated);
      const missing = await s.client.get(`/repos/${owner.name}/${uniqueName('none')}/branches/main`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(err("The target couldn't be found."));
    });
  });

  describe('repoCreateBranch', () => {
    let repo: { name: string; id: number };
    const create = (body: Record<string, unknown>, token: string | null = owner.token) =>
      s.client.post<BranchJson & { message?: string; url?: string }>(`/repos/${owner.name}/${repo.name}/branches`, body, token ? { token } : {});
    beforeAll(async () => {
      repo = await filledRepo();
    });

    it('starts from the default branch when no old ref is given', async () => {
      const r = await create({ new_branch_name: 'from-default' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name: 'from-default', user_can_push: true, protected: false });
      expect(r.body.commit.id).toBe(sha.main);
      const got = await s.client.get<BranchJson>(`/repos/${owner.name}/${repo.name}/branches/from-default`, { token: owner.token });
      expect(got.status).toBe(200);
      expect(got.body.commit.id).toBe(sha.main);
      expect(await gitBranches(repo.name)).toContain('from-default');
    });

    it('starts from another branch, a tag, an annotated tag or a commit given as old_ref_name', async () => {
      const cases: [string, string, string][] = [
        ['from-branch', 'feature/deep/x', sha.deep!],
        ['from-tag', 'v1', sha.dated!],
        ['from-annotated-tag', 'v2', sha.deep!],
        ['from-sha', sha.dated!, sha.dated!],
        ['from-short-sha', sha.deep!.slice(0, 10), sha.deep!],
        ['nested/from/ref', 'dated', sha.dated!],
      ];
      for (const [name, from, expected] of cases) {
        const r = await create({ new_branch_name: name, old_ref_name: from });
        expect({ name, status: r.status }).toEqual({ name, status: 201 });
        expect(r.body.name).toBe(name);
        expect(r.body.commit.id).toBe(expected);
      }
      const clone = join(await git.dir(), 'c');
      await git.ok(['clone', '-q', remote(repo.name), clone]);
      for (const [name, , expected] of cases) expect(await git.ok(['rev-parse', `origin/${name}`], { cwd: clone })).toBe(expected);
    });

    it('honours the deprecated old_branch_name, after old_ref_name', async () => {
      const r = await create({ new_branch_name: 'from-old-branch-name', old_branch_name: 'dated' });
      expect(r.status).toBe(201);
      expect(r.body.commit.id).toBe(sha.dated);
      const both = await create({ new_branch_name: 'ref-wins', old_branch_name: 'dated', old_ref_name: 'feature/deep/x' });
      expect(both.status).toBe(201);
      expect(both.body.commit.id).toBe(sha.deep);
    });

    it('refuses an existing branch, a tag name and a path clash with 409', async () => {
      const cases: [string, string][] = [
        ['dated', 'The branch already exists.'],
        ['main', 'The branch already exists.'],
        ['v1', 'The branch with the same tag already exists.'],
        ['feature/deep', 'The branch with the same name already exists.'],
        ['dated/sub', 'The branch with the same name already exists.'],
      ];
      for (const [name, message] of cases) {
        const r = await create({ new_branch_name: name });
        expect({ name, status: r.status }).toEqual({ name, status: 409 });
        expect(r.body).toEqual(err(message));
      }
      // Nothing moved.
      const got = await s.client.get<BranchJson>(`/repos/${owner.name}/${repo.name}/branches/dated`, { token: owner.token });
      expect(got.body.commit.id).toBe(sha.dated);
    });

    it('answers 404 for an old ref that does not resolve', async () => {
      for (const body of [{ old_ref_name: 'no-such-ref' }, { old_ref_name: '0123456789abcdef0123456789abcdef01234567' }, { old_branch_name: 'no-such-branch' }]) {
        const r = await create({ new_branch_name: uniqueName('n'), ...body });
        expect(r.status).toBe(404);
        expect(r.body.message).toMatch(/^The old branch does not exist/);
        expect(r.body.url).toBe(`${s.url}/api/swagger`);
      }
    });

    it('refuses invalid names with 422', async () => {
      for (const name of ['a..b', 'bad name', '-dash', 'x.lock', 'a//b', '/a', 'a/', 'a@{b', 'a~1', 'a^', 'a:b', 'HEAD', '']) {
        const r = await create({ new_branch_name: name });
        expect({ name, status: r.status }).toEqual({ name, status: 422 });
        if (name !== '') expect(r.body).toEqual(err('[NewBranchName]: GitRefName'));
      }
      const long = await create({ new_branch_name: 'b'.repeat(101) });
      expect(long.status).toBe(422);
      expect(long.body).toEqual(err('[NewBranchName]: MaxSize'));
      const ok = await create({ new_branch_name: 'c'.repeat(100) });
      expect(ok.status).toBe(201);
      expect(await gitBranches(repo.name)).not.toContain('a..b');
    });

    it('needs write access: 403 for a reader, 401 anonymously; a writer may', async () => {
      const byReader = await create({ new_branch_name: 'by-reader' }, reader.token);
      expect(byReader.status).toBe(403);
      expect(byReader.body).toEqual(err('user should have a permission to write to a repo'));
      const byStranger = await create({ new_branch_name: 'by-stranger' }, stranger.token);
      expect(byStranger.status).toBe(403);
      expect(byStranger.body).toEqual(err('user should have a permission to write to a repo'));
      const anonymous = await create({ new_branch_name: 'by-anonymous' }, null);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(err('token is required'));
      const readToken = await s.createToken(owner.name, ['read:repository']);
      const byReadToken = await create({ new_branch_name: 'by-read-token' }, readToken);
      expect(byReadToken.status).toBe(403);
      expect(byReadToken.body.message).toMatch(/^token does not have at least one of required scope\(s\), required=\[write:repository\]/);
      const byWriter = await create({ new_branch_name: 'by-writer' }, writer.token);
      expect(byWriter.status).toBe(201);
      expect(byWriter.body.user_can_push).toBe(true);
      const names = await gitBranches(repo.name);
      expect(names).toContain('by-writer');
      expect(names.filter((n) => ['by-reader', 'by-stranger', 'by-anonymous', 'by-read-token'].includes(n))).toEqual([]);
    });
  });

  describe('repoDeleteBranch', () => {
    let repo: { name: string; id: number };
    const del = (name: string, token: string | null = owner.token) => s.client.delete(`/repos/${owner.name}/${repo.name}/branches/${name}`, token ? { token } : {});
    beforeAll(async () => {
      repo = await filledRepo();
    });

    it('deletes a branch, also one with slashes', async () => {
      for (const name of ['dated', 'feature/deep/x']) {
        const r = await del(name);
        expect(r.status).toBe(204);
        expect(r.text).toBe('');
        const got = await s.client.get(`/repos/${owner.name}/${repo.name}/branches/${name}`, { token: owner.token });
        expect(got.status).toBe(404);
      }
      expect(await gitBranches(repo.name)).toEqual(['main']);
      // Tags stay.
      expect(await git.ok(['ls-remote', '--tags', remote(repo.name)])).toContain('refs/tags/v1');
      const again = await del('dated');
      expect(again.status).toBe(404);
      expect(again.body).toEqual(err("The target couldn't be found."));
    });

    it('refuses the default branch with 403 and an unknown one with 404', async () => {
      const r = await del('main');
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('can not delete default branch'));
      for (const name of ['nope', 'v1', 'a..b']) {
        const missing = await del(name);
        expect({ name, status: missing.status }).toEqual({ name, status: 404 });
        expect(missing.body).toEqual(err("The target couldn't be found."));
      }
      expect(await gitBranches(repo.name)).toContain('main');
    });

    it('needs write access', async () => {
      const target = await s.client.post(`/repos/${owner.name}/${repo.name}/branches`, { new_branch_name: 'doomed' }, { token: owner.token });
      expect(target.status).toBe(201);
      const byReader = await del('doomed', reader.token);
      expect(byReader.status).toBe(403);
      expect(byReader.body).toEqual(err('user should have a permission to write to a repo'));
      const anonymous = await del('doomed', null);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(err('token is required'));
      expect(await gitBranches(repo.name)).toContain('doomed');
      const byWriter = await del('doomed', writer.token);
      expect(byWriter.status).toBe(204);
      expect(await gitBranches(repo.name)).not.toContain('doomed');
    });
  });

  it('creating and deleting branches of an archived repository is refused with 423', async () => {
    const repo = await filledRepo();
    const edit = await s.client.patch(`/repos/${owner.name}/${repo.name}`, { archived: true }, { token: owner.token });
    expect(edit.status).toBe(200);
    const message = `<Repository ${repo.id}:${owner.name}/${repo.name}> is archived`;
    const create = await s.client.post(`/repos/${owner.name}/${repo.name}/branches`, { new_branch_name: 'new' }, { token: owner.token });
    expect(create.status).toBe(423);
    expect(create.body).toEqual(err(message));
    const del = await s.client.delete(`/repos/${owner.name}/${repo.name}/branches/dated`, { token: owner.token });
    expect(del.status).toBe(423);
    expect(del.body).toEqual(err(message));
    // A reader still gets the permission error first, as in Gitea (reqRepoWriter before mustNotBeArchived).
    const byReader = await s.client.post(`/repos/${owner.name}/${repo.name}/branches`, { new_branch_name: 'new' }, { token: reader.token });
    expect(byReader.status).toBe(403);
    // Reading still works.
    const list = await s.client.get<BranchJson[]>(`/repos/${owner.name}/${repo.name}/branches`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.map((b) => b.name)).toEqual(['main', 'dated', 'feature/deep/x']);
    expect(await gitBranches(repo.name)).toEqual(['dated', 'feature/deep/x', 'main']);
    // Unarchived, it works again.
    expect((await s.client.patch(`/repos/${owner.name}/${repo.name}`, { archived: false }, { token: owner.token })).status).toBe(200);
    expect((await s.client.delete(`/repos/${owner.name}/${repo.name}/branches/dated`, { token: owner.token })).status).toBe(204);
  });
});
