// repoCompareDiff and repoGetNote against repositories filled with the stock git client.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { createGitCli, type GitCli, tokenRemote } from '../../helpers/gitcli.js';

interface CommitJson {
  sha: string;
  url: string;
  commit: { message: string; verification?: { verified: boolean; reason: string } };
  parents: { sha: string }[];
  files: { filename: string; status: string }[] | null;
  stats?: { total: number; additions: number; deletions: number };
  author?: { login: string };
}
interface CompareJson {
  total_commits: number;
  commits: CommitJson[];
}
interface NoteJson {
  message: string;
  commit: CommitJson;
}

const D = { GIT_AUTHOR_DATE: '2021-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2021-01-01T00:00:00Z' };

describeDb('compare and notes', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  let local: string;
  const sha: Record<string, string> = {};
  let pub: string;
  let priv: string;
  let empty: string;

  const remote = (name: string) => tokenRemote(s.url, owner, name);

  beforeAll(async () => {
    s = await startServer();
    git = await createGitCli();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    stranger = await s.createUser();
    local = await git.dir('local');
    await git.ok(['init', '-q', '-b', 'main', local]);
    sha.c1 = await git.commit(local, { 'a.txt': 'one\n' }, 'first', { ...D, GIT_AUTHOR_EMAIL: owner.email });
    await git.ok(['tag', 'v1', sha.c1!], { cwd: local });
    await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: local });
    sha.f1 = await git.commit(local, { 'f.txt': 'feature\n' }, 'feature one', D);
    sha.f2 = await git.commit(local, { 'f.txt': 'feature\nmore\n', 'g.txt': 'g\n' }, 'feature two', D);
    await git.ok(['checkout', '-q', 'main'], { cwd: local });
    sha.c2 = await git.commit(local, { 'a.txt': 'one\ntwo\n' }, 'second', D);
    await git.ok(['checkout', '-q', '--orphan', 'orphan'], { cwd: local });
    sha.o1 = await git.commit(local, { 'o.txt': 'o\n' }, 'orphan', D);
    await git.ok(['checkout', '-q', 'main'], { cwd: local });
    // Notes: c1 gets one note, then the note of c1 is left alone while c2's note is added in a later notes commit.
    await git.ok(['notes', 'add', '-m', 'hello note', sha.c1!], { cwd: local, env: D });
    sha.n1 = await git.ok(['rev-parse', 'refs/notes/commits'], { cwd: local });
    await git.ok(['notes', 'add', '-m', 'second note', sha.c2!], { cwd: local, env: D });
    sha.n2 = await git.ok(['rev-parse', 'refs/notes/commits'], { cwd: local });
    const repo = async (body: Record<string, unknown>) => {
      const r = await s.client.post('/user/repos', { name: uniqueName('cmp'), ...body }, { token: owner.token });
      expect(r.status).toBe(201);
      return r.body.name as string;
    };
    pub = await repo({});
    priv = await repo({ private: true });
    empty = await repo({});
    for (const name of [pub, priv]) await git.ok(['push', '-q', remote(name), 'main', 'feature/x', 'orphan', 'v1', 'refs/notes/commits'], { cwd: local });
  });
  afterAll(async () => {
    await s?.close();
    await git?.close();
  });

  describe('repoCompareDiff', () => {
    const cmp = (repo: string, basehead: string, token?: string) => s.client.get<CompareJson>(`/repos/${owner.name}/${repo}/compare/${basehead}`, { token });

    it('lists the commits of head that base does not have, newest first, complete', async () => {
      const r = await cmp(pub, 'main...feature/x');
      expect(r.status).toBe(200);
      expect(r.body.total_commits).toBe(2);
      expect(r.body.commits.map((c) => c.sha)).toEqual([sha.f2, sha.f1]);
      const [f2] = r.body.commits;
      expect(f2!.url).toBe(`${s.url}/api/v1/repos/${owner.name}/${pub}/git/commits/${sha.f2}`);
      expect(f2!.commit.message).toBe('feature two\n');
      expect(f2!.parents).toEqual([expect.objectContaining({ sha: sha.f1 })]);
      expect(f2!.files).toEqual([
        { filename: 'f.txt', status: 'modified' },
        { filename: 'g.txt', status: 'added' },
      ]);
      expect(f2!.stats).toEqual({ total: 2, additions: 2, deletions: 0 });
      expect(f2!.commit.verification).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' });
    });

    it('accepts base..head, a tag as base, and a single name against the default branch', async () => {
      const two = await cmp(pub, 'main..feature/x');
      expect(two.status).toBe(200);
      expect(two.body.commits.map((c) => c.sha)).toEqual([sha.f2, sha.f1]);
      const single = await cmp(pub, 'feature/x');
      expect(single.body).toEqual(two.body);
      const tag = await cmp(pub, 'v1...main');
      expect(tag.status).toBe(200);
      expect(tag.body.total_commits).toBe(1);
      expect(tag.body.commits.map((c) => c.sha)).toEqual([sha.c2]);
      const reverse = await cmp(pub, 'feature/x...main');
      expect(reverse.body.commits.map((c) => c.sha)).toEqual([sha.c2]);
    });

    it('is empty for equal refs and for unrelated histories', async () => {
      for (const bh of ['main...main', 'main...orphan']) {
        const r = await cmp(pub, bh);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ total_commits: 0, commits: [] });
      }
    });

    it('is 404 for an unknown base or head, a commit id, or an empty repository', async () => {
      const base = await cmp(pub, 'nope...main');
      expect(base.status).toBe(404);
      expect(base.body).toEqual(err('BaseNotExist'));
      const head = await cmp(pub, 'main...nope');
      expect(head.status).toBe(404);
      expect(head.body).toEqual(err("The target couldn't be found."));
      // Gitea 1.22 compares branches and tags only.
      const bySha = await cmp(pub, `main...${sha.f1}`);
      expect(bySha.status).toBe(404);
      expect(bySha.body).toEqual(err("The target couldn't be found."));
      const e = await cmp(empty, 'main...main');
      expect(e.status).toBe(404);
      expect(e.body).toEqual(err('BaseNotExist'));
    });

    it('is public for public repositories and hidden for private ones', async () => {
      const anon = await cmp(priv, 'main...feature/x');
      expect(anon.status).toBe(404);
      expect(anon.body).toEqual(err("The target couldn't be found."));
      const other = await cmp(priv, 'main...feature/x', stranger.token);
      expect(other.status).toBe(404);
      const mine = await cmp(priv, 'main...feature/x', owner.token);
      expect(mine.status).toBe(200);
      expect(mine.body.total_commits).toBe(2);
    });
  });

  describe('repoGetNote', () => {
    const note = (repo: string, name: string, q = '', token?: string) => s.client.get<NoteJson>(`/repos/${owner.name}/${repo}/git/notes/${name}${q}`, { token });

    it('answers the note and the notes commit that last changed it', async () => {
      const r = await note(pub, sha.c1!);
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('hello note\n');
      // Gitea's quirk: commit is the commit of refs/notes/commits that wrote this note, not the annotated commit.
      expect(r.body.commit.sha).toBe(sha.n1);
      expect(r.body.commit.files).toEqual([{ filename: sha.c1, status: 'added' }]);
      expect(r.body.commit.stats).toEqual({ total: 1, additions: 1, deletions: 0 });
      expect(r.body.commit.commit.verification).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' });
      const byTag = await note(pub, 'v1');
      expect(byTag.status).toBe(200);
      expect(byTag.body).toEqual(r.body);
      const second = await note(pub, 'main', '?verification=false&files=false');
      expect(second.status).toBe(200);
      expect(second.body.message).toBe('second note\n');
      expect(second.body.commit.sha).toBe(sha.n2);
      expect(second.body.commit.files).toBeNull();
      expect(second.body.commit.commit.verification).toBeUndefined();
    });

    it('is 404 without a note or commit, 422 for an invalid name', async () => {
      const none = await note(pub, sha.f1!);
      expect(none.status).toBe(404);
      expect(none.body).toEqual(err(sha.f1!));
      const unknown = await note(pub, 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(err("The target couldn't be found."));
      const bad = await note(pub, 'a..b');
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(err('no valid ref or sha: a..b'));
      const e = await note(empty, 'main');
      expect(e.status).toBe(404);
      expect(e.body).toEqual(err("The target couldn't be found."));
    });

    it('is public for public repositories and hidden for private ones', async () => {
      const anon = await note(priv, sha.c1!);
      expect(anon.status).toBe(404);
      expect(anon.body).toEqual(err("The target couldn't be found."));
      const mine = await note(priv, sha.c1!, '', owner.token);
      expect(mine.status).toBe(200);
      expect(mine.body.message).toBe('hello note\n');
    });
  });
});
