// repoListTags, repoGetTag, repoCreateTag, repoDeleteTag, repoListAllGitRefs, repoListGitRefs, GetTree, GetBlob,
// GetAnnotatedTag against repositories filled with the stock git client.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { CLIENT_EMAIL, CLIENT_NAME, createGitCli, type GitCli, tokenRemote } from '../../helpers/gitcli.js';

const D1 = { GIT_AUTHOR_DATE: '2021-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2021-01-01T00:00:00Z' };
const D2 = { GIT_AUTHOR_DATE: '2022-02-02T00:00:00Z', GIT_COMMITTER_DATE: '2022-02-02T00:00:00Z' };
const D3 = { GIT_AUTHOR_DATE: '2023-03-03T00:00:00Z', GIT_COMMITTER_DATE: '2023-03-03T00:00:00+02:00' };

interface TagJson {
  name: string;
  id: string;
  message: string;
  commit: { sha: string; url: string; created: string };
  zipball_url: string;
  tarball_url: string;
}
interface RefJson {
  ref: string;
  url: string;
  object: { sha: string; type: string; url: string };
}
interface TreeJson {
  sha: string;
  url: string;
  tree: { path: string; mode: string; type: string; size: number; sha: string; url: string }[];
  truncated: boolean;
  page: number;
  total_count: number;
}

describeDb('tags and git data', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  let local: string;
  const sha: Record<string, string> = {};
  let repo: string;
  let priv: string;
  let api: (path: string) => string;

  const remote = (name: string) => tokenRemote(s.url, owner, name);
  const createRepo = async (body: Record<string, unknown>) => {
    const r = await s.client.post('/user/repos', { name: uniqueName('tg'), ...body }, { token: owner.token });
    expect(r.status).toBe(201);
    for (const [u, permission] of [
      [writer, 'write'],
      [reader, 'read'],
    ] as const) {
      expect((await s.client.put(`/repos/${owner.name}/${r.body.name}/collaborators/${u.name}`, { permission }, { token: owner.token })).status).toBe(204);
    }
    return r.body.name as string;
  };
  /** A repository holding main, feature/x and tags v1 (lightweight), v2 and rel/v3 (annotated). */
  const filledRepo = async (extra: Record<string, unknown> = {}) => {
    const name = await createRepo({ auto_init: false, ...extra });
    await git.ok(['push', remote(name), 'main', 'feature/x', 'v1', 'v2', 'rel/v3'], { cwd: local });
    return name;
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
    sha.c1 = await git.commit(local, { 'README.md': '# tags\n' }, 'first commit\n\nwith a body', D1);
    await git.ok(['tag', 'v1'], { cwd: local });
    await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: local });
    sha.c2 = await git.commit(local, { 'x.txt': 'x\n' }, 'feature work', D2);
    await git.ok(['tag', '-a', 'v2', '-m', 'release two\n\nnotes'], { cwd: local, env: D2 });
    await git.ok(['checkout', '-q', 'main'], { cwd: local });
    await git.ok(['merge', '-q', '--ff-only', 'feature/x'], { cwd: local });
    sha.c3 = await git.commit(local, { 'big.bin': 'b'.repeat(3000) }, 'third', D3);
    await git.ok(['tag', '-a', 'rel/v3', '-m', 'release three'], { cwd: local, env: D3 });
    sha.v2 = await git.ok(['rev-parse', 'v2'], { cwd: local });
    sha.v3 = await git.ok(['rev-parse', 'rel/v3'], { cwd: local });
    repo = await filledRepo();
    priv = await filledRepo({ private: true });
    api = (path) => `${s.url}/api/v1/repos/${owner.name}/${repo}${path}`;
  });
  afterAll(async () => {
    await git?.close();
    await s?.close();
  });

  describe('repoListTags', () => {
    it('lists annotated tags newest first, then lightweight ones, with X-Total-Count', async () => {
      const r = await s.client.get<TagJson[]>(`/repos/${owner.name}/${repo}/tags`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-total-count')).toBe('3');
      expect(r.body).toEqual([
        {
          name: 'rel/v3',
          id: sha.v3,
          message: 'release three',
          commit: { sha: sha.c3, url: api(`/git/commits/${sha.v3}`), created: expect.stringMatching(/^\d{4}-.*(Z|[+-]\d\d:\d\d)$/) },
          zipball_url: `${s.url}/${owner.name}/${repo}/archive/rel/v3.zip`,
          tarball_url: `${s.url}/${owner.name}/${repo}/archive/rel/v3.tar.gz`,
        },
        {
          name: 'v2',
          id: sha.v2,
          message: 'release two\n\nnotes',
          commit: { sha: sha.c2, url: api(`/git/commits/${sha.v2}`), created: '2022-02-02T00:00:00Z' },
          zipball_url: `${s.url}/${owner.name}/${repo}/archive/v2.zip`,
          tarball_url: `${s.url}/${owner.name}/${repo}/archive/v2.tar.gz`,
        },
        {
          name: 'v1',
          id: sha.c1,
          message: 'first commit\n\nwith a body',
          commit: { sha: sha.c1, url: api(`/git/commits/${sha.c1}`), created: '2021-01-01T00:00:00Z' },
          zipball_url: `${s.url}/${owner.name}/${repo}/archive/v1.zip`,
          tarball_url: `${s.url}/${owner.name}/${repo}/archive/v1.tar.gz`,
        },
      ]);
    });

    it('pages', async () => {
      const r = await s.client.get<TagJson[]>(`/repos/${owner.name}/${repo}/tags?page=2&limit=2`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-total-count')).toBe('3');
      expect(r.body.map((t) => t.name)).toEqual(['v1']);
    });

    it('answers an empty list for an empty repository', async () => {
      const empty = await createRepo({});
      const r = await s.client.get<TagJson[]>(`/repos/${owner.name}/${empty}/tags`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(r.headers.get('x-total-count')).toBe('0');
    });

    it('hides a private repository from anonymous callers and strangers, not from a reader', async () => {
      expect(await s.client.get(`/repos/${owner.name}/${priv}/tags`)).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
      expect(await s.client.get(`/repos/${owner.name}/${priv}/tags`, { token: stranger.token })).toMatchObject({ status: 404 });
      const r = await s.client.get<TagJson[]>(`/repos/${owner.name}/${priv}/tags`, { token: reader.token });
      expect(r.status).toBe(200);
      expect(r.body).toHaveLength(3);
    });
  });

  describe('repoGetTag', () => {
    it('gets a tag whose name has a slash', async () => {
      const r = await s.client.get<TagJson>(`/repos/${owner.name}/${repo}/tags/rel/v3`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: 'rel/v3', id: sha.v3, message: 'release three', commit: { sha: sha.c3 } });
    });

    it('gets a lightweight tag with the commit as its id', async () => {
      const r = await s.client.get<TagJson>(`/repos/${owner.name}/${repo}/tags/v1`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: 'v1', id: sha.c1, commit: { sha: sha.c1 } });
    });

    it('answers 404 with the tag name as message for an unknown tag (Gitea ctx.NotFound(name))', async () => {
      const r = await s.client.get(`/repos/${owner.name}/${repo}/tags/rel`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err('rel'));
    });
  });

  describe('repoCreateTag', () => {
    let target: string;
    beforeAll(async () => {
      target = await filledRepo();
    });
    const path = () => `/repos/${owner.name}/${target}/tags`;

    it('creates a lightweight tag on the default branch without a message (created keeps the recorded offset)', async () => {
      const r = await s.client.post<TagJson>(path(), { tag_name: 'light' }, { token: writer.token });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        name: 'light',
        id: sha.c3,
        message: 'third',
        commit: { sha: sha.c3, url: `${s.url}/api/v1/repos/${owner.name}/${target}/git/commits/${sha.c3}`, created: '2023-03-03T00:00:00+02:00' },
        zipball_url: `${s.url}/${owner.name}/${target}/archive/light.zip`,
        tarball_url: `${s.url}/${owner.name}/${target}/archive/light.tar.gz`,
      });
      expect(await git.ok(['ls-remote', remote(target), 'refs/tags/light'])).toBe(`${sha.c3}\trefs/tags/light`);
    });

    it('creates an annotated tag tagged by the caller at a branch, readable with git', async () => {
      const r = await s.client.post<TagJson>(path(), { tag_name: 'ann/one', target: 'feature/x', message: 'Annotated  \n\n\nbody\n' }, { token: owner.token });
      expect(r.status).toBe(201);
      expect(r.body.name).toBe('ann/one');
      expect(r.body.message).toBe('Annotated\n\nbody');
      expect(r.body.commit.sha).toBe(sha.c2);
      expect(r.body.id).not.toBe(sha.c2);
      const d = await git.dir('clone');
      await git.ok(['clone', '-q', '--bare', remote(target), d]);
      expect(await git.ok(['cat-file', '-t', 'ann/one'], { cwd: d })).toBe('tag');
      expect(await git.ok(['rev-parse', 'ann/one'], { cwd: d })).toBe(r.body.id);
      expect(await git.ok(['for-each-ref', '--format=%(taggername) %(taggeremail) %(*objectname)', 'refs/tags/ann/one'], { cwd: d })).toBe(
        `${owner.name} <${owner.email}> ${sha.c2}`,
      );
      const g = await s.client.get<{ tag: string; sha: string; message: string; tagger: { name: string; email: string; date: string } }>(
        `/repos/${owner.name}/${target}/git/tags/${r.body.id}`,
      );
      expect(g.status).toBe(200);
      expect(g.body).toMatchObject({ tag: 'ann/one', sha: r.body.id, message: 'Annotated\n\nbody\n', tagger: { name: owner.name, email: owner.email } });
    });

    it('tags a commit sha and another tag', async () => {
      const a = await s.client.post<TagJson>(path(), { tag_name: 'by-sha', target: sha.c1!.slice(0, 10) }, { token: writer.token });
      expect(a.status).toBe(201);
      expect(a.body.commit.sha).toBe(sha.c1);
      const b = await s.client.post<TagJson>(path(), { tag_name: 'by-tag', target: 'v2' }, { token: writer.token });
      expect(b.status).toBe(201);
      expect(b.body.commit.sha).toBe(sha.c2);
    });

    it('answers 409 for an existing tag, 404 for an unknown target, 422 for a bad name', async () => {
      expect(await s.client.post(path(), { tag_name: 'v1' }, { token: writer.token })).toMatchObject({ status: 409, body: err('tag already exists [name: v1]') });
      expect(await s.client.post(path(), { tag_name: 'x', target: 'nope' }, { token: writer.token })).toMatchObject({
        status: 404,
        body: err('target not found: object does not exist [id: nope, rel_path: ]'),
      });
      expect(await s.client.post(path(), { tag_name: 'bad..name' }, { token: writer.token })).toMatchObject({
        status: 422,
        body: err('release tag name is not valid [tag_name: bad..name]'),
      });
      const missing = await s.client.post(path(), {}, { token: writer.token });
      expect(missing.status).toBe(422);
    });

    it('needs write access, a token, and an unarchived repository', async () => {
      expect(await s.client.post(path(), { tag_name: 'r1' }, { token: reader.token })).toMatchObject({
        status: 403,
        body: err('user should have a permission to write to a repo'),
      });
      expect((await s.client.post(path(), { tag_name: 'r1' })).status).toBe(401);
      const archived = await filledRepo();
      expect((await s.client.patch(`/repos/${owner.name}/${archived}`, { archived: true }, { token: owner.token })).status).toBe(200);
      const r = await s.client.post(`/repos/${owner.name}/${archived}/tags`, { tag_name: 'z' }, { token: owner.token });
      expect(r.status).toBe(423);
    });

    it('answers 404 on an empty repository', async () => {
      const empty = await createRepo({});
      const r = await s.client.post(`/repos/${owner.name}/${empty}/tags`, { tag_name: 'a' }, { token: owner.token });
      expect(r).toMatchObject({ status: 404, body: err('target not found: object does not exist [id: main, rel_path: ]') });
    });
  });

  describe('repoDeleteTag', () => {
    it('deletes a tag (slashes allowed), then answers 404', async () => {
      const target = await filledRepo();
      const r = await s.client.delete(`/repos/${owner.name}/${target}/tags/rel/v3`, { token: writer.token });
      expect(r.status).toBe(204);
      expect(await git.ok(['ls-remote', '--tags', remote(target)])).not.toContain('rel/v3');
      expect(await s.client.delete(`/repos/${owner.name}/${target}/tags/rel/v3`, { token: writer.token })).toMatchObject({
        status: 404,
        body: err("The target couldn't be found."),
      });
      expect(await s.client.delete(`/repos/${owner.name}/${target}/tags/v1`, { token: reader.token })).toMatchObject({ status: 403 });
      // A public repository: strangers see it but may not write.
      expect(await s.client.delete(`/repos/${owner.name}/${target}/tags/v1`, { token: stranger.token })).toMatchObject({ status: 403 });
      expect(await s.client.delete(`/repos/${owner.name}/${priv}/tags/v1`, { token: stranger.token })).toMatchObject({ status: 404 });
      expect((await s.client.delete(`/repos/${owner.name}/${target}/tags/v1`)).status).toBe(401);
    });
  });

  describe('git refs', () => {
    it('lists every ref sorted by name', async () => {
      const r = await s.client.get<RefJson[]>(`/repos/${owner.name}/${repo}/git/refs`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual([
        { ref: 'refs/heads/feature/x', url: api('/git/refs/heads/feature/x'), object: { sha: sha.c2, type: 'commit', url: api(`/git/commits/${sha.c2}`) } },
        { ref: 'refs/heads/main', url: api('/git/refs/heads/main'), object: { sha: sha.c3, type: 'commit', url: api(`/git/commits/${sha.c3}`) } },
        { ref: 'refs/tags/rel/v3', url: api('/git/refs/tags/rel/v3'), object: { sha: sha.v3, type: 'tag', url: api(`/git/tags/${sha.v3}`) } },
        { ref: 'refs/tags/v1', url: api('/git/refs/tags/v1'), object: { sha: sha.c1, type: 'commit', url: api(`/git/commits/${sha.c1}`) } },
        { ref: 'refs/tags/v2', url: api('/git/refs/tags/v2'), object: { sha: sha.v2, type: 'tag', url: api(`/git/tags/${sha.v2}`) } },
      ]);
    });

    it('filters by plain prefix; an exact single match is the object itself', async () => {
      const list = await s.client.get<RefJson[]>(`/repos/${owner.name}/${repo}/git/refs/tags/v`);
      expect(list.status).toBe(200);
      expect(list.body.map((x) => x.ref)).toEqual(['refs/tags/v1', 'refs/tags/v2']);
      const prefix = await s.client.get<RefJson[]>(`/repos/${owner.name}/${repo}/git/refs/heads/ma`);
      expect(prefix.status).toBe(200);
      expect(prefix.body).toEqual([expect.objectContaining({ ref: 'refs/heads/main' })]);
      const exact = await s.client.get<RefJson>(`/repos/${owner.name}/${repo}/git/refs/heads/feature/x`);
      expect(exact.status).toBe(200);
      expect(exact.body).toEqual({ ref: 'refs/heads/feature/x', url: api('/git/refs/heads/feature/x'), object: { sha: sha.c2, type: 'commit', url: api(`/git/commits/${sha.c2}`) } });
    });

    it('answers 404 when nothing matches, also for an empty repository', async () => {
      expect(await s.client.get(`/repos/${owner.name}/${repo}/git/refs/heads/zzz`)).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
      const empty = await createRepo({});
      expect(await s.client.get(`/repos/${owner.name}/${empty}/git/refs`)).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
    });

    it('hides private repositories', async () => {
      expect((await s.client.get(`/repos/${owner.name}/${priv}/git/refs`)).status).toBe(404);
      expect((await s.client.get(`/repos/${owner.name}/${priv}/git/refs`, { token: reader.token })).status).toBe(200);
    });
  });

  describe('GetTree', () => {
    it('lists a commit tree by sha, branch name or tag, resolved to the tree id', async () => {
      const treeSha = await git.ok(['rev-parse', `${sha.c3}^{tree}`], { cwd: local });
      const r = await s.client.get<TreeJson>(`/repos/${owner.name}/${repo}/git/trees/${sha.c3}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-total-count')).toBe('3');
      const blob = (p: string) => git.ok(['rev-parse', `${sha.c3}:${p}`], { cwd: local });
      expect(r.body).toEqual({
        sha: treeSha,
        url: api(`/git/trees/${treeSha}`),
        tree: [
          { path: 'README.md', mode: '100644', type: 'blob', size: 7, sha: await blob('README.md'), url: api(`/git/blobs/${await blob('README.md')}`) },
          { path: 'big.bin', mode: '100644', type: 'blob', size: 3000, sha: await blob('big.bin'), url: api(`/git/blobs/${await blob('big.bin')}`) },
          { path: 'x.txt', mode: '100644', type: 'blob', size: 2, sha: await blob('x.txt'), url: api(`/git/blobs/${await blob('x.txt')}`) },
        ],
        truncated: false,
        page: 1,
        total_count: 3,
      });
      for (const name of ['main', 'rel/v3', treeSha]) {
        const b = await s.client.get<TreeJson>(`/repos/${owner.name}/${repo}/git/trees/${encodeURIComponent(name)}`);
        expect(b.status).toBe(200);
        expect(b.body.sha).toBe(treeSha);
      }
    });

    it('lists recursively with subtrees and pages with per_page', async () => {
      const deep = await createRepo({ auto_init: false });
      const d = await git.dir('deep');
      await git.ok(['init', '-q', '-b', 'main', d]);
      const { mkdir } = await import('node:fs/promises');
      await mkdir(`${d}/dir/sub`, { recursive: true });
      await git.commit(d, { 'a.txt': 'a', 'dir/b.txt': 'bb', 'dir/sub/c.txt': 'ccc' }, 'deep');
      await git.ok(['push', '-q', remote(deep), 'main'], { cwd: d });
      const all = await s.client.get<TreeJson>(`/repos/${owner.name}/${deep}/git/trees/main?recursive=true`);
      expect(all.status).toBe(200);
      expect(all.body.tree.map((e) => [e.path, e.type, e.mode, e.size])).toEqual([
        ['a.txt', 'blob', '100644', 1],
        ['dir', 'tree', '040000', 0],
        ['dir/b.txt', 'blob', '100644', 2],
        ['dir/sub', 'tree', '040000', 0],
        ['dir/sub/c.txt', 'blob', '100644', 3],
      ]);
      expect(all.body.tree[1]!.url).toBe(`${s.url}/api/v1/repos/${owner.name}/${deep}/git/trees/${all.body.tree[1]!.sha}`);
      const top = await s.client.get<TreeJson>(`/repos/${owner.name}/${deep}/git/trees/main`);
      expect(top.body.tree.map((e) => [e.path, e.type, e.mode])).toEqual([
        ['a.txt', 'blob', '100644'],
        ['dir', 'tree', '040000'],
      ]);
      const p1 = await s.client.get<TreeJson>(`/repos/${owner.name}/${deep}/git/trees/main?recursive=true&per_page=2&page=1`);
      expect(p1.body).toMatchObject({ page: 1, total_count: 5, truncated: true });
      expect(p1.body.tree.map((e) => e.path)).toEqual(['a.txt', 'dir']);
      const p3 = await s.client.get<TreeJson>(`/repos/${owner.name}/${deep}/git/trees/main?recursive=true&per_page=2&page=3`);
      expect(p3.body).toMatchObject({ page: 3, total_count: 5, truncated: false });
      expect(p3.body.tree.map((e) => e.path)).toEqual(['dir/sub/c.txt']);
      const p9 = await s.client.get<TreeJson>(`/repos/${owner.name}/${deep}/git/trees/main?recursive=true&per_page=2&page=9`);
      expect(p9.body).toMatchObject({ page: 9, total_count: 5, truncated: false, tree: [] });
    });

    it('answers 400 for an unknown sha', async () => {
      const r = await s.client.get(`/repos/${owner.name}/${repo}/git/trees/nope`);
      expect(r).toMatchObject({ status: 400, body: err('sha not found [nope]') });
      const opt = await s.client.get(`/repos/${owner.name}/${repo}/git/trees/--output=x`);
      expect(opt).toMatchObject({ status: 400, body: err('sha not found [--output=x]') });
    });
  });

  describe('GetBlob', () => {
    it('gives the content in base64', async () => {
      const b = await git.ok(['rev-parse', `${sha.c3}:README.md`], { cwd: local });
      const r = await s.client.get(`/repos/${owner.name}/${repo}/git/blobs/${b}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ sha: b, url: api(`/git/blobs/${b}`), size: 7, encoding: 'base64', content: Buffer.from('# tags\n').toString('base64') });
    });

    it('answers 400 for an unknown, abbreviated or non-blob id', async () => {
      const zero = '0'.repeat(40);
      expect(await s.client.get(`/repos/${owner.name}/${repo}/git/blobs/${zero}`)).toMatchObject({ status: 400, body: err(`object does not exist [id: ${zero}, rel_path: ]`) });
      expect(await s.client.get(`/repos/${owner.name}/${repo}/git/blobs/abc123`)).toMatchObject({ status: 400, body: err('length 6 has no matched object format: abc123') });
      expect(await s.client.get(`/repos/${owner.name}/${repo}/git/blobs/${sha.c1}`)).toMatchObject({ status: 400, body: err(`object does not exist [id: ${sha.c1}, rel_path: ]`) });
    });

    it('hides private repositories', async () => {
      const b = await git.ok(['rev-parse', `${sha.c3}:README.md`], { cwd: local });
      expect((await s.client.get(`/repos/${owner.name}/${priv}/git/blobs/${b}`, { token: stranger.token })).status).toBe(404);
      expect((await s.client.get(`/repos/${owner.name}/${priv}/git/blobs/${b}`, { token: reader.token })).status).toBe(200);
    });
  });

  describe('GetAnnotatedTag', () => {
    it('gives the tag object with the commit it tags', async () => {
      const r = await s.client.get(`/repos/${owner.name}/${repo}/git/tags/${sha.v2}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        tag: 'v2',
        sha: sha.v2,
        object: { sha: sha.c2, type: 'commit', url: api(`/git/commits/${sha.c2}`) },
        message: 'release two\n\nnotes\n',
        url: api(`/git/tags/${sha.v2}`),
        tagger: { name: CLIENT_NAME, email: CLIENT_EMAIL, date: '2022-02-02T00:00:00Z' },
        verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
      });
    });

    it('answers 400 for a lightweight tag (a commit id) and malformed ids', async () => {
      expect(await s.client.get(`/repos/${owner.name}/${repo}/git/tags/${sha.c1}`)).toMatchObject({ status: 400, body: err(`object does not exist [id: ${sha.c1}, rel_path: ]`) });
      expect(await s.client.get(`/repos/${owner.name}/${repo}/git/tags/v2`)).toMatchObject({ status: 400, body: err('length 2 has no matched object format: v2') });
    });
  });
});
