// repoGetContentsList, repoGetContents, repoCreateFile, repoUpdateFile, repoDeleteFile, repoChangeFiles,
// repoGetRawFile, repoGetRawFileOrLFS against repositories filled with the stock git client and through the API.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { createGitCli, type GitCli, tokenRemote } from '../../helpers/gitcli.js';

const D1 = { GIT_AUTHOR_DATE: '2021-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2021-01-01T00:00:00Z' };
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n';
const HTML = '<!DOCTYPE html><html><body><script>alert(1)</script></body></html>\n';
const README = '# Hello\n\nSome text.\n';
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

interface Entry {
  name: string;
  path: string;
  sha: string;
  last_commit_sha: string;
  type: string;
  size: number;
  encoding: string | null;
  content: string | null;
  target: string | null;
  url: string;
  html_url: string | null;
  git_url: string | null;
  download_url: string | null;
  submodule_git_url: string | null;
  _links: { self: string; git: string | null; html: string | null };
}
interface FileCommit {
  sha: string;
  url: string;
  html_url: string;
  created: string;
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  tree: { sha: string; url: string };
  parents: { sha: string; url: string }[];
}

describeDb('contents and raw files', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let local: string;
  let pub: string;
  let priv: string;
  const sha: Record<string, string> = {};
  const err = (message: string) => ({ message, url: `${s.url}/api/swagger` });
  const as = (u: TestUser | null) => (u ? { token: u.token } : {});
  const remote = (name: string) => tokenRemote(s.url, owner, name);
  const createRepo = async (body: Record<string, unknown> = {}) => {
    const r = await s.client.post('/user/repos', { name: uniqueName('ct'), auto_init: false, ...body }, { token: owner.token });
    expect(r.status).toBe(201);
    for (const [u, permission] of [
      [writer, 'write'],
      [reader, 'read'],
    ] as const) {
      expect((await s.client.put(`/repos/${owner.name}/${r.body.name}/collaborators/${u.name}`, { permission }, { token: owner.token })).status).toBe(204);
    }
    return r.body.name as string;
  };
  const rev = (spec: string) => git.ok(['rev-parse', spec], { cwd: local });
  /** A repository filled by pushing `local`. */
  const pushedRepo = async (body: Record<string, unknown> = {}) => {
    const name = await createRepo(body);
    await git.ok(['push', '-q', remote(name), 'main', 'feature/x', 'v1', 'v2'], { cwd: local });
    return name;
  };
  const raw = (path: string, init: RequestInit = {}) => fetch(`${s.url}/api/v1/repos/${path}`, init);

  beforeAll(async () => {
    s = await startServer();
    git = await createGitCli();
    owner = await s.createUser();
    writer = await s.createUser();
    reader = await s.createUser();
    stranger = await s.createUser();
    local = await git.dir('local');
    await git.ok(['init', '-q', '-b', 'main', local]);
    await git.ok(['config', 'core.symlinks', 'true'], { cwd: local });
    const { mkdir, writeFile, symlink, chmod } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await mkdir(join(local, 'docs/sub'), { recursive: true });
    await writeFile(join(local, 'docs/guide.md'), 'guide\n');
    await writeFile(join(local, 'docs/sub/deep.txt'), 'deep\n');
    await writeFile(join(local, 'run.sh'), '#!/bin/sh\necho hi\n');
    await chmod(join(local, 'run.sh'), 0o755);
    await symlink('README.md', join(local, 'link'));
    await writeFile(join(local, 'logo.png'), PNG);
    await writeFile(join(local, 'page.html'), HTML);
    await writeFile(join(local, 'pic.svg'), SVG);
    await writeFile(join(local, 'my file.txt'), 'spaces\n');
    await writeFile(join(local, '.gitmodules'), '[submodule "mod"]\n\tpath = mod\n\turl = https://example.com/mod.git\n');
    await git.ok(['add', '-A'], { cwd: local });
    sha.c1 = await git.commit(local, { 'README.md': README }, 'first', D1);
    await git.ok(['update-index', '--add', '--cacheinfo', `160000,${sha.c1},mod`], { cwd: local });
    sha.c2 = await git.commit(local, { 'c.txt': '0123456789' }, 'second', D1);
    await git.ok(['tag', 'v1', sha.c1], { cwd: local });
    await git.ok(['tag', '-a', '-m', 'version 2', 'v2', sha.c2], { cwd: local, env: D1 });
    await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: local });
    sha.c3 = await git.commit(local, { 'f.txt': 'feature\n' }, 'feature', D1);
    await git.ok(['checkout', '-q', 'main'], { cwd: local });
    pub = await pushedRepo();
    priv = await pushedRepo({ private: true });
  });
  afterAll(async () => {
    await s?.close();
    await git?.close();
  });

  const expectedFile = (repo: string, path: string, ref: string, refKind: string, refName: string, commit: string, blob: string, content: string | null, size: number): Entry => {
    const api = `${s.url}/api/v1/repos/${owner.name}/${repo}`;
    const self = `${api}/contents/${path}?ref=${ref}`;
    const html = `${s.url}/${owner.name}/${repo}/src/${refKind}/${refName}/${path}`;
    const gitUrl = `${api}/git/blobs/${blob}`;
    return {
      name: path.split('/').pop()!,
      path,
      sha: blob,
      last_commit_sha: commit,
      type: 'file',
      size,
      encoding: content === null ? null : 'base64',
      content,
      target: null,
      url: self,
      html_url: html,
      git_url: gitUrl,
      download_url: `${s.url}/${owner.name}/${repo}/raw/${refKind}/${refName}/${path}`,
      submodule_git_url: null,
      _links: { self, git: gitUrl, html },
    };
  };

  describe('repoGetContents / repoGetContentsList', () => {
    it('returns a file with its base64 content and every link', async () => {
      const r = await s.client.get(`/repos/${owner.name}/${pub}/contents/README.md`);
      expect(r.status).toBe(200);
      // last_commit_sha is the last commit that changed the path (c1), not the ref's commit (c2), as in Gitea.
      expect(r.body).toEqual(expectedFile(pub, 'README.md', 'main', 'branch', 'main', sha.c1!, await rev('main:README.md'), b64(README), README.length));
    });

    it('lists the root directory in tree order, without content, with link targets and submodule URLs', async () => {
      const r = await s.client.get<Entry[]>(`/repos/${owner.name}/${pub}/contents`);
      expect(r.status).toBe(200);
      expect(r.body.map((e) => [e.name, e.type])).toEqual([
        ['.gitmodules', 'file'],
        ['README.md', 'file'],
        ['c.txt', 'file'],
        ['docs', 'dir'],
        ['link', 'symlink'],
        ['logo.png', 'file'],
        ['mod', 'submodule'],
        ['my file.txt', 'file'],
        ['page.html', 'file'],
        ['pic.svg', 'file'],
        ['run.sh', 'file'],
      ]);
      const byName = Object.fromEntries(r.body.map((e) => [e.name, e]));
      expect(byName['README.md']).toEqual(expectedFile(pub, 'README.md', 'main', 'branch', 'main', sha.c1!, await rev('main:README.md'), null, README.length));
      expect(byName['c.txt']!.last_commit_sha).toBe(sha.c2);
      expect(byName['c.txt']!.size).toBe(10);
      const api = `${s.url}/api/v1/repos/${owner.name}/${pub}`;
      expect(byName.docs).toEqual({
        name: 'docs',
        path: 'docs',
        sha: await rev('main:docs'),
        last_commit_sha: sha.c1,
        type: 'dir',
        size: 0,
        encoding: null,
        content: null,
        target: null,
        url: `${api}/contents/docs?ref=main`,
        html_url: `${s.url}/${owner.name}/${pub}/src/branch/main/docs`,
        git_url: `${api}/git/trees/${await rev('main:docs')}`,
        download_url: `${s.url}/${owner.name}/${pub}/raw/branch/main/docs`,
        submodule_git_url: null,
        _links: { self: `${api}/contents/docs?ref=main`, git: `${api}/git/trees/${await rev('main:docs')}`, html: `${s.url}/${owner.name}/${pub}/src/branch/main/docs` },
      });
      expect(byName.link).toMatchObject({ type: 'symlink', target: 'README.md', size: 9, content: null, encoding: null });
      expect(byName.mod).toEqual({
        name: 'mod',
        path: 'mod',
        sha: sha.c1,
        last_commit_sha: sha.c2,
        type: 'submodule',
        size: 0,
        encoding: null,
        content: null,
        target: null,
        url: `${api}/contents/mod?ref=main`,
        html_url: null,
        git_url: null,
        download_url: null,
        submodule_git_url: 'https://example.com/mod.git',
        _links: { self: `${api}/contents/mod?ref=main`, git: null, html: null },
      });
      expect(byName['my file.txt']!.url).toBe(`${api}/contents/my%20file.txt?ref=main`);
    });

    it('answers a directory path with an array and reads nested paths', async () => {
      const dir = await s.client.get<Entry[]>(`/repos/${owner.name}/${pub}/contents/docs`);
      expect(dir.status).toBe(200);
      expect(dir.body.map((e) => [e.path, e.type, e.content])).toEqual([
        ['docs/guide.md', 'file', null],
        ['docs/sub', 'dir', null],
      ]);
      const deep = await s.client.get(`/repos/${owner.name}/${pub}/contents/docs/sub/deep.txt`);
      expect(deep.status).toBe(200);
      expect(deep.body).toEqual(expectedFile(pub, 'docs/sub/deep.txt', 'main', 'branch', 'main', sha.c1!, await rev('main:docs/sub/deep.txt'), b64('deep\n'), 5));
      const slash = await s.client.get(`/repos/${owner.name}/${pub}/contents/docs/`);
      expect(slash.status).toBe(200);
      expect(slash.body).toHaveLength(2);
      // A submodule by its own path is one entry (its commit is not in this repository), as in Gitea.
      const mod = await s.client.get(`/repos/${owner.name}/${pub}/contents/mod`);
      expect(mod.status).toBe(200);
      expect(mod.body).toMatchObject({ name: 'mod', type: 'submodule', sha: sha.c1, size: 0, content: null, submodule_git_url: 'https://example.com/mod.git', last_commit_sha: sha.c2 });
      const spaced = await s.client.get(`/repos/${owner.name}/${pub}/contents/my%20file.txt`);
      expect(spaced.status).toBe(200);
      expect(spaced.body).toMatchObject({ path: 'my file.txt', content: b64('spaces\n') });
    });

    it("never answers from another repository's objects: a private commit id named on one's own repository is 404", async () => {
      // The owner reads the private repository first, so its commit, trees and blobs are in the server's caches.
      expect((await s.client.get(`/repos/${owner.name}/${priv}/contents/README.md?ref=${sha.c2}`, { token: owner.token })).status).toBe(200);
      const own = await s.client.post('/user/repos', { name: uniqueName('mine'), auto_init: true }, { token: stranger.token });
      expect(own.status).toBe(201);
      // Gitea answers every GetBlob failure with 400.
      const blob = await rev('main:README.md');
      for (const [path, status] of [[`contents/README.md?ref=${sha.c2}`, 404], [`contents?ref=${sha.c2}`, 404], [`raw/README.md?ref=${sha.c2}`, 404], [`git/blobs/${blob}`, 400]] as const) {
        const r = await s.client.get(`/repos/${stranger.name}/${own.body.name}/${path}`, { token: stranger.token });
        expect([path, r.status]).toEqual([path, status]);
      }
    });

    it('reads at a branch with a slash, a tag (annotated too) and a short or full commit id', async () => {
      const f = await s.client.get(`/repos/${owner.name}/${pub}/contents/f.txt?ref=feature/x`);
      expect(f.status).toBe(200);
      expect(f.body).toEqual(expectedFile(pub, 'f.txt', 'feature%2Fx', 'branch', 'feature/x', sha.c3!, await rev('feature/x:f.txt'), b64('feature\n'), 8));
      const v1 = await s.client.get<Entry[]>(`/repos/${owner.name}/${pub}/contents?ref=v1`);
      expect(v1.status).toBe(200);
      expect(v1.body.some((e) => e.name === 'c.txt')).toBe(false);
      expect(v1.body[0]!.last_commit_sha).toBe(sha.c1);
      expect(v1.body[0]!.html_url).toBe(`${s.url}/${owner.name}/${pub}/src/tag/v1/.gitmodules`);
      const v2 = await s.client.get(`/repos/${owner.name}/${pub}/contents/c.txt?ref=v2`);
      expect(v2.status).toBe(200);
      expect(v2.body).toMatchObject({ last_commit_sha: sha.c2, content: b64('0123456789') });
      const short = await s.client.get(`/repos/${owner.name}/${pub}/contents/README.md?ref=${sha.c1!.slice(0, 8)}`);
      expect(short.status).toBe(200);
      expect(short.body).toEqual(
        expectedFile(pub, 'README.md', sha.c1!.slice(0, 8), 'commit', sha.c1!, sha.c1!, await rev(`${sha.c1}:README.md`), b64(README), README.length),
      );
    });

    it('answers 404 for a missing path, an unknown ref and a refused path', async () => {
      const missing = await s.client.get(`/repos/${owner.name}/${pub}/contents/nope.txt`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ ...err('GetContentsOrList'), errors: ['object does not exist [id: , rel_path: nope.txt]'] });
      const under = await s.client.get(`/repos/${owner.name}/${pub}/contents/README.md/x`);
      expect(under.status).toBe(404);
      const ref = await s.client.get(`/repos/${owner.name}/${pub}/contents/README.md?ref=nope`);
      expect(ref.status).toBe(404);
      expect(ref.body).toEqual({ ...err('GetContentsOrList'), errors: ['object does not exist [id: nope, rel_path: ]'] });
      const opt = await s.client.get(`/repos/${owner.name}/${pub}/contents?ref=--output=x`);
      expect(opt.status).toBe(404);
      const gitDir = await s.client.get(`/repos/${owner.name}/${pub}/contents/.git/config`);
      expect(gitDir.status).toBe(404);
    });

    it('gives an empty list for an empty repository', async () => {
      const name = await createRepo();
      for (const path of ['contents', 'contents/README.md']) {
        const r = await s.client.get(`/repos/${owner.name}/${name}/${path}`, as(owner));
        expect(r.status).toBe(200);
        expect(r.body).toEqual([]);
      }
    });

    it('hides private repositories from anonymous callers and strangers only', async () => {
      for (const u of [null, stranger]) {
        const r = await s.client.get(`/repos/${owner.name}/${priv}/contents/README.md`, as(u));
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
      const ok = await s.client.get(`/repos/${owner.name}/${priv}/contents`, as(reader));
      expect(ok.status).toBe(200);
      expect(ok.body).toHaveLength(11);
    });
  });

  describe('repoGetRawFile / repoGetRawFileOrLFS', () => {
    it('serves a text file with its blob id as ETag and safe headers, HEAD without a body', async () => {
      for (const kind of ['raw', 'media']) {
        const r = await raw(`${owner.name}/${pub}/${kind}/README.md`);
        expect(r.status).toBe(200);
        expect(await r.text()).toBe(README);
        expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(r.headers.get('etag')).toBe(`"${await rev('main:README.md')}"`);
        expect(r.headers.get('x-content-type-options')).toBe('nosniff');
        expect(r.headers.get('content-disposition')).toBe(`inline; filename="README.md"; filename*=UTF-8''README.md`);
        expect(r.headers.get('x-gitea-object-type')).toBe('file');
        expect(r.headers.get('cache-control')).toBe('private, max-age=300');
        expect(r.headers.get('content-security-policy')).toBeNull();
      }
      const head = await raw(`${owner.name}/${pub}/raw/README.md`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(README.length));
      expect(await head.text()).toBe('');
    });

    it('never serves active content with an executable type', async () => {
      const html = await raw(`${owner.name}/${pub}/raw/page.html`);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await html.text()).toBe(HTML);
      const svg = await raw(`${owner.name}/${pub}/raw/pic.svg`);
      expect(svg.status).toBe(200);
      expect(svg.headers.get('content-type')).toBe('image/svg+xml');
      expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
      const png = await raw(`${owner.name}/${pub}/raw/logo.png`);
      expect(png.status).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await png.arrayBuffer()).equals(PNG)).toBe(true);
      const link = await raw(`${owner.name}/${pub}/raw/link`);
      expect(link.status).toBe(200);
      expect(link.headers.get('x-gitea-object-type')).toBe('symlink');
      expect(await link.text()).toBe('README.md');
      const spaced = await raw(`${owner.name}/${pub}/raw/my%20file.txt`);
      expect(spaced.headers.get('content-disposition')).toBe(`inline; filename="my file.txt"; filename*=UTF-8''my%20file.txt`);
    });

    it('takes the ref from ?ref= or from the leading path segments', async () => {
      const cases: [string, string][] = [
        ['raw/feature/x/f.txt', 'feature\n'],
        ['raw/f.txt?ref=feature/x', 'feature\n'],
        ['raw/v2/c.txt', '0123456789'],
        [`raw/${sha.c2}/c.txt`, '0123456789'],
        [`raw/c.txt?ref=${sha.c2!.slice(0, 10)}`, '0123456789'],
        ['raw/main/docs/sub/deep.txt', 'deep\n'],
        ['raw/docs/sub/deep.txt', 'deep\n'],
      ];
      for (const [path, body] of cases) {
        const r = await raw(`${owner.name}/${pub}/${path}`);
        expect([path, r.status, await r.text()]).toEqual([path, 200, body]);
      }
    });

    it('answers 404 for directories, submodules, missing files and refs, empty and invisible repositories', async () => {
      const empty = await createRepo();
      const paths = [
        `${owner.name}/${pub}/raw/docs`,
        `${owner.name}/${pub}/raw/mod`,
        `${owner.name}/${pub}/raw/nope.txt`,
        `${owner.name}/${pub}/raw/v1/c.txt`,
        `${owner.name}/${pub}/raw/README.md?ref=nope`,
        `${owner.name}/${empty}/raw/README.md`,
        `${owner.name}/${priv}/raw/README.md`,
      ];
      for (const path of paths) {
        const r = await s.client.get(`/repos/${path}`);
        expect([path, r.status, r.body]).toEqual([path, 404, err("The target couldn't be found.")]);
      }
      const ok = await raw(`${owner.name}/${priv}/raw/README.md`, { headers: { Authorization: `token ${reader.token}` } });
      expect(ok.status).toBe(200);
    });

    it('answers If-None-Match with 304 and single ranges with 206, 416 or 400', async () => {
      const etag = `"${await rev('main:c.txt')}"`;
      const nm = await raw(`${owner.name}/${pub}/raw/c.txt`, { headers: { 'If-None-Match': `"x", W/${etag}` } });
      expect(nm.status).toBe(304);
      expect(nm.headers.get('etag')).toBe(etag);
      expect(await nm.text()).toBe('');
      const other = await raw(`${owner.name}/${pub}/raw/c.txt`, { headers: { 'If-None-Match': '"abc"' } });
      expect(other.status).toBe(200);

      const part = await raw(`${owner.name}/${pub}/raw/c.txt`, { headers: { Range: 'bytes=2-5' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
      expect(part.headers.get('content-length')).toBe('4');
      expect(await part.text()).toBe('2345');
      const open = await raw(`${owner.name}/${pub}/raw/c.txt`, { headers: { Range: 'bytes=7-' } });
      expect([open.status, open.headers.get('content-range'), await open.text()]).toEqual([206, 'bytes 7-9/10', '789']);
      const clamped = await raw(`${owner.name}/${pub}/raw/c.txt`, { headers: { Range: 'bytes=8-100' } });
      expect([clamped.status, clamped.headers.get('content-range'), await clamped.text()]).toEqual([206, 'bytes 8-9/10', '89']);

      const beyond = await s.client.get(`/repos/${owner.name}/${pub}/raw/c.txt`, { headers: { Range: 'bytes=10-' } });
      expect(beyond.status).toBe(416);
      expect(beyond.body).toEqual(err('invalid start range'));
      expect(beyond.headers.get('content-range')).toBe('bytes */10');
      const suffix = await s.client.get(`/repos/${owner.name}/${pub}/raw/c.txt`, { headers: { Range: 'bytes=-3' } });
      expect(suffix.status).toBe(416);
      const backwards = await s.client.get(`/repos/${owner.name}/${pub}/raw/c.txt`, { headers: { Range: 'bytes=5-2' } });
      expect(backwards.status).toBe(400);
      expect(backwards.body).toEqual(err('invalid end range'));
      const other2 = await raw(`${owner.name}/${pub}/raw/c.txt`, { headers: { Range: 'items=0-1' } });
      expect([other2.status, await other2.text()]).toEqual([200, '0123456789']);
    });
  });

  describe('repoCreateFile / repoUpdateFile / repoDeleteFile / repoChangeFiles', () => {
    let repo: string;
    const path = (p: string) => `/repos/${owner.name}/${repo}/contents/${p}`;
    beforeAll(async () => {
      repo = await createRepo();
      expect((await s.client.post(`/repos/${owner.name}/${repo}/contents/README.md`, { content: b64(README) }, as(owner))).status).toBe(201);
    });

    it('creates a file on the default branch as the caller and reads it back', async () => {
      const before = await s.client.get(`/repos/${owner.name}/${repo}/branches/main`);
      const r = await s.client.post(path('dir/new.txt'), { content: b64('new\n') }, as(writer));
      expect(r.status).toBe(201);
      const commit = r.body.commit as FileCommit;
      const api = `${s.url}/api/v1/repos/${owner.name}/${repo}`;
      expect(r.body.content).toMatchObject({ path: 'dir/new.txt', type: 'file', content: b64('new\n'), size: 4, last_commit_sha: commit.sha });
      expect(commit).toEqual({
        sha: commit.sha,
        url: `${api}/git/commits/${commit.sha}`,
        html_url: `${s.url}/${owner.name}/${repo}/commit/${commit.sha}`,
        created: commit.committer.date,
        message: 'Add dir/new.txt\n',
        author: { name: writer.name, email: writer.email, date: commit.author.date },
        committer: { name: writer.name, email: writer.email, date: commit.author.date },
        tree: { sha: commit.tree.sha, url: `${api}/git/trees/${commit.tree.sha}`, created: commit.committer.date },
        parents: [{ sha: before.body.commit.id, url: `${api}/git/commits/${before.body.commit.id}`, created: expect.any(String) }],
      });
      expect(commit.author.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(r.body.verification).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' });
      const get = await s.client.get(path('dir/new.txt'));
      expect(get.status).toBe(200);
      expect(get.body.sha).toBe(r.body.content.sha);
      const repoJson = await s.client.get(`/repos/${owner.name}/${repo}`);
      expect(repoJson.body.empty).toBe(false);
    });

    it('records the given message, identities, dates and sign-off, on a new branch', async () => {
      const r = await s.client.post(
        path('other.txt'),
        {
          content: b64('o'),
          message: '  custom message  ',
          new_branch: 'topic/one',
          author: { name: 'Ann Author', email: 'ann@example.com' },
          committer: { name: 'Cid Committer', email: 'cid@example.com' },
          dates: { author: '2020-05-06T07:08:09+02:00', committer: '2021-01-02T03:04:05Z' },
          signoff: true,
        },
        as(writer),
      );
      expect(r.status).toBe(201);
      expect(r.body.commit).toMatchObject({
        message: 'custom message\n\nSigned-off-by: Cid Committer <cid@example.com>\n',
        author: { name: 'Ann Author', email: 'ann@example.com', date: '2020-05-06T05:08:09Z' },
        committer: { name: 'Cid Committer', email: 'cid@example.com', date: '2021-01-02T03:04:05Z' },
      });
      expect(r.body.content.html_url).toBe(`${s.url}/${owner.name}/${repo}/src/branch/topic/one/other.txt`);
      const main = await s.client.get(path('other.txt'));
      expect(main.status).toBe(404);
      const topic = await s.client.get(`${path('other.txt')}?ref=topic/one`);
      expect(topic.status).toBe(200);
      // Only an author: used for both.
      const a = await s.client.post(path('only-author.txt'), { content: b64('a'), author: { name: 'Solo', email: 'solo@example.com' } }, as(writer));
      expect(a.status).toBe(201);
      expect(a.body.commit.committer).toMatchObject({ name: 'Solo', email: 'solo@example.com' });
    });

    it('refuses existing files, bad paths, bad content, unknown or taken branches', async () => {
      const cases: [string, Record<string, unknown>, number, Record<string, unknown>][] = [
        ['README.md', { content: b64('x') }, 422, err('repository file already exists [path: README.md]')],
        ['dir', { content: b64('x') }, 422, err('a directory exists where you’re trying to create a file [path: dir]')],
        ['README.md/x', { content: b64('x') }, 422, err('a file exists where you’re trying to create a subdirectory [path: README.md]')],
        ['.git/config', { content: b64('x') }, 422, err('path contains a malformed path component [path: .git/config]')],
        ['x.txt', { content: 'not base64!' }, 422, err('illegal base64 data at input byte 3')],
        ['x.txt', { content: b64('x'), branch: 'nope' }, 404, err('branch does not exist [name: nope]')],
        ['x.txt', { content: b64('x'), new_branch: 'topic/one' }, 422, err('branch already exists [name: topic/one]')],
        ['x.txt', { content: b64('x'), new_branch: 'bad..name' }, 422, err('[NewBranchName]: GitRefName')],
        ['x.txt', {}, 422, err('[content]: Required')],
      ];
      for (const [p, body, status, expected] of cases) {
        const r = await s.client.post(path(p), body, as(writer));
        expect([p, r.status, r.body]).toEqual([p, status, expected]);
      }
    });

    it('checks permissions: anonymous 401, reader 403, stranger on a private repository 404, archived 423', async () => {
      const anon = await s.client.post(path('p.txt'), { content: b64('x') });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
      const rd = await s.client.post(path('p.txt'), { content: b64('x') }, as(reader));
      expect(rd.status).toBe(403);
      expect(rd.body).toEqual(err('user should have a permission to write to this branch'));
      const hidden = await s.client.put(`/repos/${owner.name}/${priv}/contents/README.md`, { content: b64('x'), sha: 'x' }, as(stranger));
      expect(hidden.status).toBe(404);
      const readonly = await s.createToken(writer.name, ['read:repository']);
      const scoped = await s.client.post(path('p.txt'), { content: b64('x') }, { token: readonly });
      expect(scoped.status).toBe(403);
      const archived = await createRepo({ auto_init: true });
      const ed = await s.client.patch(`/repos/${owner.name}/${archived}`, { archived: true }, as(owner));
      expect(ed.status).toBe(200);
      const locked = await s.client.post(`/repos/${owner.name}/${archived}/contents/p.txt`, { content: b64('x') }, as(writer));
      expect(locked.status).toBe(423);
      expect(locked.body.message).toMatch(/^<Repository \d+:.+> is archived$/);
    });

    it('updates a file only with its current sha, keeps the executable bit and moves it with from_path', async () => {
      const cur = await s.client.get(path('README.md'));
      const wrong = await s.client.put(path('README.md'), { content: b64('v2'), sha: '0'.repeat(40) }, as(writer));
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual(err(`sha does not match [given: ${'0'.repeat(40)}, expected: ${cur.body.sha}]`));
      const ok = await s.client.put(path('README.md'), { content: b64('v2'), sha: cur.body.sha }, as(writer));
      expect(ok.status).toBe(200);
      expect(ok.body.content).toMatchObject({ path: 'README.md', content: b64('v2'), size: 2 });
      expect(ok.body.commit.message).toBe('Update README.md\n');
      const stale = await s.client.put(path('README.md'), { content: b64('v3'), sha: cur.body.sha }, as(writer));
      expect(stale.status).toBe(422);
      const missing = await s.client.put(path('nope.txt'), { content: b64('v'), sha: cur.body.sha }, as(writer));
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(err('repository file does not exist [path: nope.txt]'));
      const noSha = await s.client.put(path('README.md'), { content: b64('v') }, as(writer));
      expect(noSha.status).toBe(422);
      expect(noSha.body).toEqual(err('[sha]: Required'));

      const moved = await s.client.put(path('docs/readme.txt'), { content: b64('moved'), sha: ok.body.content.sha, from_path: 'README.md' }, as(writer));
      expect(moved.status).toBe(200);
      expect((await s.client.get(path('README.md'))).status).toBe(404);
      expect((await s.client.get(path('docs/readme.txt'))).body.content).toBe(b64('moved'));

      // The executable bit survives an update (checked with the stock client after a fetch).
      const pushed = await pushedRepo();
      const script = await s.client.get(`/repos/${owner.name}/${pushed}/contents/run.sh`);
      const upd = await s.client.put(`/repos/${owner.name}/${pushed}/contents/run.sh`, { content: b64('#!/bin/sh\n'), sha: script.body.sha }, as(writer));
      expect(upd.status).toBe(200);
      await git.ok(['fetch', '-q', remote(pushed), 'main'], { cwd: local });
      expect(await git.ok(['ls-tree', 'FETCH_HEAD', 'run.sh'], { cwd: local })).toBe(`100755 blob ${upd.body.content.sha}\trun.sh`);

      const empty = await createRepo();
      const onEmpty = await s.client.put(`/repos/${owner.name}/${empty}/contents/a.txt`, { content: b64('x'), sha: 'abc' }, as(owner));
      expect(onEmpty.status).toBe(422);
      expect(onEmpty.body).toEqual(err('repo is empty'));
    });

    it('deletes a file with its sha (400 on a mismatch, 404 when missing)', async () => {
      const made = await s.client.post(path('gone.txt'), { content: b64('bye') }, as(writer));
      expect(made.status).toBe(201);
      const wrong = await s.client.delete(path('gone.txt'), { ...as(writer), body: { sha: '1'.repeat(40) } });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual(err(`sha does not match [given: ${'1'.repeat(40)}, expected: ${made.body.content.sha}]`));
      const missing = await s.client.delete(path('never.txt'), { ...as(writer), body: { sha: made.body.content.sha } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(err('repository file does not exist [path: never.txt]'));
      const rd = await s.client.delete(path('gone.txt'), { ...as(reader), body: { sha: made.body.content.sha } });
      expect(rd.status).toBe(403);
      const ok = await s.client.delete(path('gone.txt'), { ...as(writer), body: { sha: made.body.content.sha, message: 'remove it' } });
      expect(ok.status).toBe(200);
      expect(ok.body.content).toBeNull();
      expect(ok.body.commit.message).toBe('remove it\n');
      expect(ok.body.verification).toMatchObject({ verified: false });
      expect((await s.client.get(path('gone.txt'))).status).toBe(404);
    });

    it('changes several files in one commit', async () => {
      const a = await s.client.post(path('m/a.txt'), { content: b64('a') }, as(writer));
      const b = await s.client.post(path('m/b.txt'), { content: b64('b') }, as(writer));
      const r = await s.client.post(
        `/repos/${owner.name}/${repo}/contents`,
        {
          files: [
            { operation: 'create', path: 'm/c.txt', content: b64('c') },
            { operation: 'update', path: 'm/a.txt', content: b64('A'), sha: a.body.content.sha },
            { operation: 'delete', path: 'm/b.txt', sha: b.body.content.sha },
          ],
        },
        as(writer),
      );
      expect(r.status).toBe(201);
      expect(r.body.files).toHaveLength(3);
      expect(r.body.files[0]).toMatchObject({ path: 'm/c.txt', content: b64('c') });
      expect(r.body.files[1]).toMatchObject({ path: 'm/a.txt', content: b64('A') });
      expect(r.body.files[2]).toBeNull();
      expect(r.body.commit.message).toBe('Add m/c.txt\nUpdate m/a.txt\nDelete m/b.txt\n');
      expect(r.body.commit.parents).toEqual([expect.objectContaining({ sha: b.body.commit.sha })]);
      const list = await s.client.get<Entry[]>(`/repos/${owner.name}/${repo}/contents/m`);
      expect(list.body.map((e) => e.name)).toEqual(['a.txt', 'c.txt']);

      const bad: [Record<string, unknown>, number, Record<string, unknown>][] = [
        [{ operation: 'create', path: 'a/../b', content: '' }, 422, err('path contains a malformed path component [path: a/../b]')],
        [{ operation: 'create', path: '/etc/x', content: '' }, 422, err('path contains a malformed path component [path: /etc/x]')],
        [{ operation: 'update', path: 'm/a.txt', content: '' }, 422, err('a SHA or commit ID must be proved when updating a file')],
        [{ operation: 'rename', path: 'm/a.txt' }, 422, err('[files.0.operation]: must be one of create, update, delete')],
      ];
      for (const [op, status, body] of bad) {
        const res = await s.client.post(`/repos/${owner.name}/${repo}/contents`, { files: [op] }, as(writer));
        expect([op, res.status, res.body]).toEqual([op, status, body]);
      }
    });

    it('never loses a concurrent update: each racing commit lands or gets 409', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => s.client.post(path(`race/${i}.txt`), { content: b64(String(i)) }, as(writer))),
      );
      const created = results.map((r, i) => [i, r.status] as const).filter(([, st]) => st === 201);
      for (const r of results) {
        expect([201, 409]).toContain(r.status);
        if (r.status === 409) expect(r.body.message).toMatch(/changed by another request meanwhile; reload and retry$/);
      }
      expect(created.length).toBeGreaterThan(0);
      const list = await s.client.get<Entry[]>(`/repos/${owner.name}/${repo}/contents/race`);
      expect(list.body.map((e) => e.name).sort()).toEqual(created.map(([i]) => `${i}.txt`).sort());
    });

    it('creates the first branch of an empty repository and updates the repository row', async () => {
      const empty = await createRepo();
      const r = await s.client.post(`/repos/${owner.name}/${empty}/contents/first.txt`, { content: b64('1') }, as(writer));
      expect(r.status).toBe(201);
      expect(r.body.commit.parents).toEqual([]);
      const repoJson = await s.client.get(`/repos/${owner.name}/${empty}`, as(owner));
      expect(repoJson.body).toMatchObject({ empty: false, default_branch: 'main' });
      expect(repoJson.body.size).toBeGreaterThan(0);
      const branches = await s.client.get(`/repos/${owner.name}/${empty}/branches`, as(owner));
      expect(branches.body.map((b: { name: string }) => b.name)).toEqual(['main']);

      const other = await createRepo();
      const nb = await s.client.post(`/repos/${owner.name}/${other}/contents/x.txt`, { content: b64('1'), new_branch: 'trunk' }, as(owner));
      expect(nb.status).toBe(201);
      const otherJson = await s.client.get(`/repos/${owner.name}/${other}`, as(owner));
      expect(otherJson.body).toMatchObject({ empty: false, default_branch: 'trunk' });
      const del = await s.client.delete(`/repos/${owner.name}/${await createRepo()}/contents/x.txt`, { ...as(owner), body: { sha: 'abcd' } });
      expect(del.status).toBe(404);
      expect(del.body).toEqual(err('branch does not exist [name: main]'));
    });
  });
});
