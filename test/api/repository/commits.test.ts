// repoGetAllCommits, repoGetSingleCommit, repoGetSingleCommitByPath, repoDownloadCommitDiffOrPatch, repoCreateStatus,
// repoListStatuses, repoGetCombinedStatusByRef, repoListStatusesByRef against repositories filled with the stock git client.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { CLIENT_EMAIL, CLIENT_NAME, createGitCli, type GitCli, tokenRemote } from '../../helpers/gitcli.js';

const D1 = { GIT_AUTHOR_DATE: '2021-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2021-01-01T00:00:00Z' };
const D2 = { GIT_AUTHOR_DATE: '2022-02-02T00:00:00Z', GIT_COMMITTER_DATE: '2022-02-02T00:00:00Z' };
const D3 = { GIT_AUTHOR_DATE: '2023-03-03T00:00:00Z', GIT_COMMITTER_DATE: '2023-03-03T00:00:00+02:00' };
const D4 = { GIT_AUTHOR_DATE: '2024-04-04T00:00:00Z', GIT_COMMITTER_DATE: '2024-04-04T00:00:00Z' };

interface CommitJson {
  sha: string;
  url: string;
  html_url: string;
  created: string;
  commit: {
    url: string;
    message: string;
    author: { name: string; email: string; date: string };
    committer: { name: string; email: string; date: string };
    tree: { sha: string; url: string };
    verification?: unknown;
  };
  author?: Record<string, unknown>;
  committer?: Record<string, unknown>;
  parents: { sha: string; url: string; created: string }[];
  files: { filename: string; status: string }[] | null;
  stats?: { total: number; additions: number; deletions: number };
}
interface StatusJson {
  id: number;
  status: string;
  context: string;
  description: string;
  target_url: string;
  url: string;
  created_at: string;
  updated_at: string;
  creator?: { login: string };
}
interface CombinedJson {
  state: string;
  sha: string;
  total_count: number;
  statuses: StatusJson[] | null;
  repository?: { full_name: string; permissions: { push: boolean } };
  commit_url: string;
  url: string;
}

const byName = (a: { filename: string }, b: { filename: string }) => (a.filename < b.filename ? -1 : 1);

describeDb('commits and statuses', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  let local: string;
  const sha: Record<string, string> = {};
  let pub: string;
  let priv: string;
  let api: string;

  const remote = (name: string) => tokenRemote(s.url, owner, name);
  const createRepo = async (body: Record<string, unknown> = {}) => {
    const r = await s.client.post('/user/repos', { name: uniqueName('cm'), auto_init: false, ...body }, { token: owner.token });
    expect(r.status).toBe(201);
    for (const [u, permission] of [
      [writer, 'write'],
      [reader, 'read'],
    ] as const) {
      expect((await s.client.put(`/repos/${owner.name}/${r.body.name}/collaborators/${u.name}`, { permission }, { token: owner.token })).status).toBe(204);
    }
    return r.body.name as string;
  };

  beforeAll(async () => {
    s = await startServer();
    git = await createGitCli();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    writer = await s.createUser();
    reader = await s.createUser();
    stranger = await s.createUser();
    local = await git.dir('local');
    await git.ok(['init', '-q', '-b', 'main', local]);
    // c1: by the owner (matched by e-mail), with a binary file.
    sha.c1 = await git.commit(local, { 'a.txt': 'one\n', bin: 'x\0y' }, 'first\n\nbody line', { ...D1, GIT_AUTHOR_NAME: 'Owner', GIT_AUTHOR_EMAIL: owner.email });
    await git.ok(['rm', '-q', 'bin'], { cwd: local });
    sha.c2 = await git.commit(local, { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' }, 'second', D2);
    await git.ok(['tag', 'v1', sha.c1!], { cwd: local });
    await git.ok(['tag', '-a', '-m', 'version 2', 'v2', sha.c2!], { cwd: local, env: D2 });
    await git.ok(['tag', 'v1.2', sha.c2!], { cwd: local });
    await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: local });
    sha.c4 = await git.commit(local, { 'f.txt': 'feature\n' }, 'feature', D4);
    await git.ok(['checkout', '-q', 'main'], { cwd: local });
    sha.c3 = await git.commit(local, { 'c.txt': 'c\n' }, 'third', D3);
    pub = await createRepo();
    priv = await createRepo({ private: true });
    for (const name of [pub, priv]) await git.ok(['push', '-q', remote(name), 'main', 'feature/x', 'v1', 'v2', 'v1.2'], { cwd: local });
    api = `${s.url}/api/v1/repos/${owner.name}/${pub}`;
  });
  afterAll(async () => {
    await s?.close();
    await git?.close();
  });

  describe('repoGetAllCommits', () => {
    it('lists the default branch newest first, complete, with Gitea headers', async () => {
      const r = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits`);
      expect(r.status).toBe(200);
      expect(r.body.map((c) => c.sha)).toEqual([sha.c3, sha.c2, sha.c1]);
      expect(r.headers.get('x-total-count')).toBe('3');
      expect(r.headers.get('x-total')).toBe('3');
      expect(r.headers.get('x-page')).toBe('1');
      expect(r.headers.get('x-perpage')).toBe('30');
      expect(r.headers.get('x-pagecount')).toBe('1');
      expect(r.headers.get('x-hasmore')).toBe('false');
      expect(r.headers.get('link')).toBeNull();
      expect(r.headers.get('access-control-expose-headers')).toBe('X-Total-Count, Link, X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore');

      const ownerJson = (await s.client.get(`/users/${owner.name}`)).body;
      const c1 = r.body[2]!;
      expect({ ...c1, files: [...(c1.files ?? [])].sort(byName) }).toEqual({
        url: `${api}/git/commits/${sha.c1}`,
        sha: sha.c1,
        created: '2021-01-01T00:00:00Z',
        html_url: `${s.url}/${owner.name}/${pub}/commit/${sha.c1}`,
        commit: {
          url: `${api}/git/commits/${sha.c1}`,
          message: 'first\n\nbody line\n',
          author: { name: 'Owner', email: owner.email, date: '2021-01-01T00:00:00Z' },
          committer: { name: CLIENT_NAME, email: CLIENT_EMAIL, date: '2021-01-01T00:00:00Z' },
          // Gitea names the commit itself as the tree.
          tree: { url: `${api}/git/trees/${sha.c1}`, sha: sha.c1, created: '2021-01-01T00:00:00Z' },
          verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
        },
        author: ownerJson,
        parents: [],
        files: [
          { filename: 'a.txt', status: 'added' },
          { filename: 'bin', status: 'added' },
        ],
        stats: { total: 1, additions: 1, deletions: 0 },
      });
      const c2 = r.body[1]!;
      expect(c2.author).toBeUndefined();
      expect(c2.committer).toBeUndefined();
      expect(c2.parents).toEqual([{ url: `${api}/git/commits/${sha.c1}`, sha: sha.c1, created: '0001-01-01T00:00:00Z' }]);
      expect([...(c2.files ?? [])].sort(byName)).toEqual([
        { filename: 'a.txt', status: 'modified' },
        { filename: 'b.txt', status: 'added' },
        { filename: 'bin', status: 'removed' },
      ]);
      expect(c2.stats).toEqual({ total: 3, additions: 3, deletions: 0 });
      // The committer date keeps its offset.
      expect(r.body[0]!.created).toBe('2023-03-03T00:00:00+02:00');
      expect(r.body[0]!.commit.committer.date).toBe('2023-03-03T00:00:00+02:00');
    });

    it('pages with limit and page; X-HasMore and Link follow', async () => {
      const r = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?limit=1&page=2`);
      expect(r.status).toBe(200);
      expect(r.body.map((c) => c.sha)).toEqual([sha.c2]);
      expect(r.headers.get('x-total-count')).toBe('3');
      expect(r.headers.get('x-pagecount')).toBe('3');
      expect(r.headers.get('x-perpage')).toBe('1');
      expect(r.headers.get('x-hasmore')).toBe('true');
      const link = `${api}/commits`;
      expect(r.headers.get('link')).toBe(
        `<${link}?limit=1&page=3>; rel="next",<${link}?limit=1&page=3>; rel="last",<${link}?limit=1&page=1>; rel="first",<${link}?limit=1&page=1>; rel="prev"`,
      );
      const last = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?limit=1&page=3`);
      expect(last.body.map((c) => c.sha)).toEqual([sha.c1]);
      expect(last.headers.get('x-hasmore')).toBe('false');
      const beyond = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?limit=1&page=9`);
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual([]);
      expect(beyond.headers.get('x-total-count')).toBe('3');
      // At most 50 per page whatever the limit.
      const big = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?limit=500`);
      expect(big.headers.get('x-perpage')).toBe('50');
    });

    it('starts at sha (branch, tag, annotated tag, short sha) and leaves out not', async () => {
      const list = async (q: string) => {
        const r = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?${q}`);
        expect(r.status).toBe(200);
        return { shas: r.body.map((c) => c.sha), total: r.headers.get('x-total-count') };
      };
      expect(await list('sha=feature/x')).toEqual({ shas: [sha.c4, sha.c2, sha.c1], total: '3' });
      expect(await list('sha=v1')).toEqual({ shas: [sha.c1], total: '1' });
      expect(await list('sha=v2')).toEqual({ shas: [sha.c2, sha.c1], total: '2' });
      expect(await list(`sha=${sha.c2!.slice(0, 10)}`)).toEqual({ shas: [sha.c2, sha.c1], total: '2' });
      expect(await list('sha=feature/x&not=main')).toEqual({ shas: [sha.c4], total: '1' });
      expect(await list(`sha=main&not=${sha.c1}`)).toEqual({ shas: [sha.c3, sha.c2], total: '2' });
    });

    it('filters by path but reports whole commits; 404 FileCommitsCount for an untouched path', async () => {
      const r = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?path=b.txt`);
      expect(r.status).toBe(200);
      expect(r.body.map((c) => c.sha)).toEqual([sha.c2]);
      expect(r.headers.get('x-total-count')).toBe('1');
      expect(r.body[0]!.files).toHaveLength(3);
      const a = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?path=a.txt&limit=1`);
      expect(a.body.map((c) => c.sha)).toEqual([sha.c2]);
      expect(a.headers.get('x-total-count')).toBe('2');
      // Paths are literal: no glob or pathspec magic.
      for (const path of ['nope.txt', '*.txt', ':(glob)*']) {
        const none = await s.client.get(`/repos/${owner.name}/${pub}/commits?path=${encodeURIComponent(path)}`);
        expect(none.status).toBe(404);
        expect(none.body).toEqual(err('FileCommitsCount'));
      }
    });

    it('leaves out stats, files and verification when asked', async () => {
      const r = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?stat=false&files=false&verification=false&limit=1`);
      expect(r.status).toBe(200);
      const c = r.body[0]!;
      expect(c.sha).toBe(sha.c3);
      expect(c.files).toBeNull();
      expect('stats' in c).toBe(false);
      expect('verification' in c.commit).toBe(false);
      const onlyFiles = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?stat=false&limit=1`);
      expect(onlyFiles.body[0]!.files).toEqual([{ filename: 'c.txt', status: 'added' }]);
      expect('stats' in onlyFiles.body[0]!).toBe(false);
      const onlyStats = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?files=false&limit=1`);
      expect(onlyStats.body[0]!.files).toBeNull();
      expect(onlyStats.body[0]!.stats).toEqual({ total: 1, additions: 1, deletions: 0 });
    });

    it('answers 404 for an unknown sha or not, 409 for an empty repository', async () => {
      for (const q of ['sha=nope', 'sha=0000000000000000000000000000000000000000', 'not=nope', 'sha=a%0Ab']) {
        const r = await s.client.get(`/repos/${owner.name}/${pub}/commits?${q}`);
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
      const empty = await createRepo();
      const r = await s.client.get(`/repos/${owner.name}/${empty}/commits`);
      expect(r.status).toBe(409);
      expect(r.body).toEqual(err('Git Repository is empty.'));
    });

    it('follows the repository visibility', async () => {
      const path = `/repos/${owner.name}/${priv}/commits`;
      for (const token of [undefined, stranger.token]) {
        const r = await s.client.get(path, { token });
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
      const r = await s.client.get<CommitJson[]>(path, { token: reader.token });
      expect(r.status).toBe(200);
      expect(r.body.map((c) => c.sha)).toEqual([sha.c3, sha.c2, sha.c1]);
      const anon = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits`);
      expect(anon.status).toBe(200);
    });
  });

  describe('repoGetSingleCommit and repoGetSingleCommitByPath', () => {
    it('answers the same commit on both paths, by sha, branch or tag', async () => {
      const a = await s.client.get<CommitJson>(`/repos/${owner.name}/${pub}/git/commits/${sha.c2}`);
      expect(a.status).toBe(200);
      expect(a.body.sha).toBe(sha.c2);
      expect(a.body.commit.message).toBe('second\n');
      expect(a.body.stats).toEqual({ total: 3, additions: 3, deletions: 0 });
      const b = await s.client.get<CommitJson>(`/repos/${owner.name}/${pub}/commits/${sha.c2}`);
      expect(b.status).toBe(200);
      expect(b.body).toEqual(a.body);
      const list = await s.client.get<CommitJson[]>(`/repos/${owner.name}/${pub}/commits?sha=${sha.c2}&limit=1`);
      expect(list.body[0]).toEqual(a.body);
      expect((await s.client.get<CommitJson>(`/repos/${owner.name}/${pub}/git/commits/main`)).body.sha).toBe(sha.c3);
      expect((await s.client.get<CommitJson>(`/repos/${owner.name}/${pub}/commits/v2`)).body.sha).toBe(sha.c2);
      // A name with a dot is a commit name unless it ends in .diff or .patch.
      for (const p of ['git/commits', 'commits']) {
        const dotted = await s.client.get<CommitJson>(`/repos/${owner.name}/${pub}/${p}/v1.2`);
        expect(dotted.status).toBe(200);
        expect(dotted.headers.get('content-type')).toBe('application/json;charset=utf-8');
        expect(dotted.body).toEqual(a.body);
      }
      const bare = await s.client.get<CommitJson>(`/repos/${owner.name}/${pub}/commits/${sha.c1}?stat=false&files=false&verification=false`);
      expect(bare.body.files).toBeNull();
      expect('stats' in bare.body).toBe(false);
      expect(bare.body.author).toEqual((await s.client.get(`/users/${owner.name}`)).body);
    });

    it('answers 404 with the name for an unknown commit and 422 for an impossible name', async () => {
      for (const p of ['git/commits', 'commits']) {
        const r = await s.client.get(`/repos/${owner.name}/${pub}/${p}/nope`);
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err('nope'));
        const bad = await s.client.get(`/repos/${owner.name}/${pub}/${p}/a..b`);
        expect(bad.status).toBe(422);
        expect(bad.body).toEqual(err('no valid ref or sha: a..b'));
      }
      const priv404 = await s.client.get(`/repos/${owner.name}/${priv}/commits/${sha.c1}`, { token: stranger.token });
      expect(priv404.status).toBe(404);
      expect(priv404.body).toEqual(err("The target couldn't be found."));
    });
  });

  describe('repoDownloadCommitDiffOrPatch', () => {
    it('answers git diff / git show / git format-patch output as plain text', async () => {
      const d = await s.client.get<string>(`/repos/${owner.name}/${pub}/git/commits/${sha.c2}.diff`);
      expect(d.status).toBe(200);
      expect(d.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(d.text).toBe((await git.run(['diff', '-M', sha.c1!, sha.c2!], { cwd: local })).stdout);
      const root = await s.client.get<string>(`/repos/${owner.name}/${pub}/git/commits/${sha.c1}.diff`);
      expect(root.text).toBe((await git.run(['show', sha.c1!], { cwd: local })).stdout);
      const p = await s.client.get<string>(`/repos/${owner.name}/${pub}/git/commits/${sha.c2}.patch`);
      expect(p.status).toBe(200);
      expect(p.text).toBe((await git.run(['format-patch', '--no-signature', '--stdout', `${sha.c2}...${sha.c1}`], { cwd: local })).stdout);
      expect(p.text).toContain('Subject: [PATCH] second');
      const byBranch = await s.client.get<string>(`/repos/${owner.name}/${pub}/git/commits/main.patch`);
      expect(byBranch.text).toContain('Subject: [PATCH] third');
    });

    it('answers 404 for an unknown commit and for an invisible repository', async () => {
      const r = await s.client.get(`/repos/${owner.name}/${pub}/git/commits/nope.diff`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err('nope'));
      const hidden = await s.client.get(`/repos/${owner.name}/${priv}/git/commits/${sha.c1}.patch`);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err("The target couldn't be found."));
    });
  });

  describe('statuses', () => {
    let repo: string;
    const post = (ref: string, body: Record<string, unknown>, token?: string) =>
      s.client.post<StatusJson>(`/repos/${owner.name}/${repo}/statuses/${ref}`, body, { token: token ?? writer.token });

    beforeAll(async () => {
      repo = await createRepo();
      await git.ok(['push', '-q', remote(repo), 'main', 'feature/x', 'v1', 'v2'], { cwd: local });
    });

    it('repoCreateStatus records a status for the commit a sha, branch or tag names', async () => {
      const r = await post('main', { state: 'pending', context: 'ci', description: 'queued', target_url: 'https://ci.example.com/1' });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: 1,
        status: 'pending',
        context: 'ci',
        description: 'queued',
        target_url: 'https://ci.example.com/1',
        url: `${s.url}/api/v1/repos/${owner.name}/${repo}/statuses/${sha.c3}`,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        updated_at: r.body.created_at,
        creator: (await s.client.get(`/users/${writer.name}`)).body,
      });
      const second = await post(sha.c3!, { state: 'success', context: 'ci' }, owner.token);
      expect(second.status).toBe(201);
      expect(second.body.id).toBe(2);
      expect(second.body.creator?.login).toBe(owner.name);
      expect((await post(sha.c3!.slice(0, 8), { state: 'failure', context: 'lint' })).body.id).toBe(3);
      expect((await post('main', { state: 'warning', context: 'build' })).body.id).toBe(4);
      // Another commit numbers its statuses from 1; an annotated tag names its commit.
      const other = await post('v2', { state: 'error', context: 'ci' });
      expect(other.status).toBe(201);
      expect(other.body.id).toBe(1);
      expect(other.body.url).toBe(`${s.url}/api/v1/repos/${owner.name}/${repo}/statuses/${sha.c2}`);
    });

    it('repoCreateStatus: permissions, unknown commits and bad states', async () => {
      const reading = await post('main', { state: 'success' }, reader.token);
      expect(reading.status).toBe(403);
      expect(reading.body).toEqual(err('user should have a permission to write to a repo'));
      const anon = await s.client.post(`/repos/${owner.name}/${repo}/statuses/main`, { state: 'success' });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
      const strange = await post('main', { state: 'success' }, stranger.token);
      expect(strange.status).toBe(403);
      expect(strange.body).toEqual(err('user should have a permission to write to a repo'));
      const hidden = await s.client.post(`/repos/${owner.name}/${priv}/statuses/main`, { state: 'success' }, { token: stranger.token });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err("The target couldn't be found."));
      const unknown = await post('nope', { state: 'success' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(err('object does not exist [id: nope, rel_path: ]'));
      const bad = await post('main', { state: 'excellent' });
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({ url: `${s.url}/api/swagger` });
    });

    it('repoListStatuses lists every status, newest first, with sort, state and paging', async () => {
      const r = await s.client.get<StatusJson[]>(`/repos/${owner.name}/${repo}/statuses/${sha.c3}`);
      expect(r.status).toBe(200);
      expect(r.body.map((x) => [x.id, x.context, x.status])).toEqual([
        [4, 'build', 'warning'],
        [3, 'lint', 'failure'],
        [2, 'ci', 'success'],
        [1, 'ci', 'pending'],
      ]);
      expect(r.headers.get('x-total-count')).toBe('4');
      const byBranch = await s.client.get<StatusJson[]>(`/repos/${owner.name}/${repo}/statuses/main?sort=oldest&limit=3&page=1`);
      expect(byBranch.body.map((x) => x.id)).toEqual([1, 2, 3]);
      expect(byBranch.headers.get('x-total-count')).toBe('4');
      expect(byBranch.headers.get('link')).toContain('rel="next"');
      const pending = await s.client.get<StatusJson[]>(`/repos/${owner.name}/${repo}/statuses/${sha.c3}?state=pending`);
      expect(pending.body.map((x) => x.id)).toEqual([1]);
      expect(pending.headers.get('x-total-count')).toBe('1');
      // Gitea's highestindex is ascending, leastindex descending.
      const hi = await s.client.get<StatusJson[]>(`/repos/${owner.name}/${repo}/statuses/${sha.c3}?sort=highestindex`);
      expect(hi.body.map((x) => x.id)).toEqual([1, 2, 3, 4]);
      const none = await s.client.get<StatusJson[]>(`/repos/${owner.name}/${repo}/statuses/nope`);
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
      expect(none.headers.get('x-total-count')).toBe('0');
      // An unknown sort falls back to the default order, as in Gitea.
      const oddSort = await s.client.get<StatusJson[]>(`/repos/${owner.name}/${repo}/statuses/main?sort=sideways`);
      expect(oddSort.status).toBe(200);
      expect(oddSort.body.map((x) => x.id)).toEqual([4, 3, 2, 1]);
    });

    it('the combined status: the latest status per context and the worst state, on /status and /statuses', async () => {
      const r = await s.client.get<CombinedJson>(`/repos/${owner.name}/${repo}/commits/main/status`, { token: reader.token });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-total-count')).toBe('3');
      expect(r.body.state).toBe('failure');
      expect(r.body.sha).toBe(sha.c3);
      expect(r.body.total_count).toBe(3);
      expect(r.body.commit_url).toBe('');
      expect(r.body.url).toBe('');
      expect(r.body.statuses!.map((x) => [x.id, x.context, x.status])).toEqual([
        [4, 'build', 'warning'],
        [3, 'lint', 'failure'],
        [2, 'ci', 'success'],
      ]);
      expect(r.body.repository).toEqual((await s.client.get(`/repos/${owner.name}/${repo}`, { token: reader.token })).body);
      const same = await s.client.get<CombinedJson>(`/repos/${owner.name}/${repo}/commits/main/statuses`, { token: reader.token });
      expect(same.status).toBe(200);
      expect(same.body).toEqual(r.body);
      expect(same.headers.get('x-total-count')).toBe('3');
      const bySha = await s.client.get<CombinedJson>(`/repos/${owner.name}/${repo}/commits/${sha.c3}/status`, { token: reader.token });
      expect(bySha.body).toEqual(r.body);
      const paged = await s.client.get<CombinedJson>(`/repos/${owner.name}/${repo}/commits/main/status?limit=1&page=2`);
      expect(paged.body.statuses!.map((x) => x.id)).toEqual([3]);
      expect(paged.body.total_count).toBe(1);
      expect(paged.body.state).toBe('failure');
      expect(paged.headers.get('x-total-count')).toBe('3');

      // error is worse than failure.
      expect((await post('main', { state: 'error', context: 'deploy' })).status).toBe(201);
      const worse = await s.client.get<CombinedJson>(`/repos/${owner.name}/${repo}/commits/main/status`);
      expect(worse.body.state).toBe('error');
      expect(worse.body.total_count).toBe(4);
      const tag = await s.client.get<CombinedJson>(`/repos/${owner.name}/${repo}/commits/v2/statuses`);
      expect(tag.body.state).toBe('error');
      expect(tag.body.sha).toBe(sha.c2);
    });

    it('the combined status without statuses, or for an unknown ref, has zero values', async () => {
      for (const ref of ['feature', 'v1', 'nope']) {
        const r = await s.client.get<CombinedJson>(`/repos/${owner.name}/${repo}/commits/${ref}/status`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ state: '', sha: '', total_count: 0, statuses: null, commit_url: '', url: '' });
        expect(r.headers.get('x-total-count')).toBeNull();
      }
      const hidden = await s.client.get(`/repos/${owner.name}/${priv}/commits/main/status`);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err("The target couldn't be found."));
      const hiddenList = await s.client.get(`/repos/${owner.name}/${priv}/statuses/main`, { token: stranger.token });
      expect(hiddenList.status).toBe(404);
      expect(hiddenList.body).toEqual(err("The target couldn't be found."));
    });

    it('statuses go with their repository', async () => {
      const gone = await createRepo();
      await git.ok(['push', '-q', remote(gone), 'main'], { cwd: local });
      expect((await s.client.post(`/repos/${owner.name}/${gone}/statuses/main`, { state: 'success' }, { token: owner.token })).status).toBe(201);
      expect((await s.client.delete(`/repos/${owner.name}/${gone}`, { token: owner.token })).status).toBe(204);
      const again = await createRepo({ name: gone });
      expect(again).toBe(gone);
      await git.ok(['push', '-q', remote(gone), 'main'], { cwd: local });
      const r = await s.client.get<StatusJson[]>(`/repos/${owner.name}/${gone}/statuses/main`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
    });
  });
});
