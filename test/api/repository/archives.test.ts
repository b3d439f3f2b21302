// repoGetArchive, repoGetEditorConfig, repoGetLanguages against repositories filled with the stock git client.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { checkResponse } from '../../helpers/contract.js';
import { createGitCli, type GitCli, tokenRemote } from '../../helpers/gitcli.js';

const EDITORCONFIG = `root = true

; comment
[*.md]
charset = UTF-8
end_of_line = LF

[*.{ts,js}]
indent_style = space
indent_size = 2

[Makefile]
indent_style = tab

[{a,b}{1..3}.txt]
x = Y
[b2.txt]
x = later
`;

const run = (cmd: string, args: string[], cwd?: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(cmd, args, { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd ?? '/tmp' } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

describeDb('archives, editorconfig, languages', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  let local: string;
  let work: string;
  const sha: Record<string, string> = {};
  let pub: string;
  let pubId: number;
  let priv: string;
  let empty: string;

  const remote = (name: string) => tokenRemote(s.url, owner, name);

  /** Downloads raw bytes (the JSON client reads text) and checks the status against the contract. */
  const download = async (path: string, token?: string) => {
    const res = await fetch(`${s.url}/api/v1${path}`, { headers: token ? { Authorization: `token ${token}` } : {} });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type');
    const body = type?.includes('application/json') ? JSON.parse(bytes.toString('utf8')) : bytes;
    const problem = checkResponse('GET', path.split('?')[0]!, res.status, type, body);
    if (problem) throw new Error(`contract violation: ${problem.message}`);
    return { status: res.status, headers: res.headers, bytes, body };
  };
  const archiveDir = () => join(s.dir, 'repo-archive', String(pubId));
  const cached = () => (existsSync(archiveDir()) ? readdirSync(archiveDir()).sort() : []);

  beforeAll(async () => {
    // A one-byte bound: every build evicts all other archives, which the eviction test relies on.
    s = await startServer({ overrides: { repository: { ARCHIVE_CACHE_MAX_BYTES: '1' } } });
    git = await createGitCli();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    stranger = await s.createUser();
    local = await git.dir('local');
    work = await git.dir('work');
    await git.ok(['init', '-q', '-b', 'main', local]);
    sha.c1 = await git.commit(local, { 'README.md': '# hello\n' }, 'first');
    await git.ok(['tag', 'v1', sha.c1!], { cwd: local });
    await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: local });
    sha.f1 = await git.commit(local, { 'f.txt': 'feature\n' }, 'feature');
    await git.ok(['checkout', '-q', 'main'], { cwd: local });
    for (const d of ['src', 'lib', 'vendor', 'dist', '.hidden', 'docs']) await mkdir(join(local, d));
    sha.c2 = await git.commit(
      local,
      {
        '.editorconfig': EDITORCONFIG,
        'src/a.ts': 'const a = 1;\n', // 13 bytes
        'src/b.tsx': 'export {};\n', // 11 bytes
        'lib/c.js': 'module.exports = 1;\n', // 20 bytes
        'lib/c.min.js': 'x', // minified: left out
        'vendor/v.js': 'vendored();\n',
        'dist/out.js': 'built();\n',
        '.hidden/h.ts': 'hidden;\n',
        'docs/d.py': 'print(1)\n',
        Makefile: 'all:\n\ttrue\n', // 11 bytes
        'data.json': '{}\n',
      },
      'second',
    );
    const repo = async (body: Record<string, unknown>) => {
      const r = await s.client.post('/user/repos', { name: uniqueName('ar'), ...body }, { token: owner.token });
      expect(r.status).toBe(201);
      return r.body as { name: string; id: number };
    };
    const p = await repo({});
    pub = p.name;
    pubId = p.id;
    priv = (await repo({ private: true })).name;
    empty = (await repo({})).name;
    for (const name of [pub, priv]) await git.ok(['push', '-q', remote(name), 'main', 'feature/x', 'v1'], { cwd: local });
  });
  afterAll(async () => {
    await s?.close();
    await git?.close();
  });

  describe('repoGetArchive', () => {
    it('builds a zip once, streams it with download headers, and serves it again from the cache', async () => {
      expect(cached()).toEqual([]);
      const before = s.app.services.archives.buildCount();
      const r = await download(`/repos/${owner.name}/${pub}/archive/main.zip`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/zip');
      expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${pub}-main.zip"; filename*=UTF-8''${pub}-main.zip`);
      expect(r.headers.get('content-length')).toBe(String(r.bytes.length));
      expect(r.headers.get('last-modified')).toMatch(/GMT$/u);
      expect(s.app.services.archives.buildCount()).toBe(before + 1);
      const zip = join(work, 'main.zip');
      await writeFile(zip, r.bytes);
      const list = await run('unzip', ['-Z1', zip]);
      expect(list.code).toBe(0);
      expect(list.stdout.split('\n').filter(Boolean).sort()).toEqual(
        [`${pub}/`, `${pub}/.editorconfig`, `${pub}/.hidden/`, `${pub}/.hidden/h.ts`, `${pub}/Makefile`, `${pub}/README.md`, `${pub}/data.json`, `${pub}/dist/`, `${pub}/dist/out.js`, `${pub}/docs/`, `${pub}/docs/d.py`, `${pub}/lib/`, `${pub}/lib/c.js`, `${pub}/lib/c.min.js`, `${pub}/src/`, `${pub}/src/a.ts`, `${pub}/src/b.tsx`, `${pub}/vendor/`, `${pub}/vendor/v.js`].sort(),
      );
      const file = `${sha.c2}.${pub}.zip`;
      expect(cached()).toEqual([file]);
      const mtime = statSync(join(archiveDir(), file)).mtimeMs;

      // Second request: from the cache (no build, same file, same bytes), by commit id this time.
      const again = await download(`/repos/${owner.name}/${pub}/archive/${sha.c2}.zip`);
      expect(again.status).toBe(200);
      expect(again.bytes.equals(r.bytes)).toBe(true);
      expect(again.headers.get('content-disposition')).toBe(`attachment; filename="${pub}-${sha.c2}.zip"; filename*=UTF-8''${pub}-${sha.c2}.zip`);
      expect(s.app.services.archives.buildCount()).toBe(before + 1);
      expect(cached()).toEqual([file]);
      expect(statSync(join(archiveDir(), file)).mtimeMs).toBe(mtime);
    });

    it('builds a tar.gz once for concurrent identical requests', async () => {
      const before = s.app.services.archives.buildCount();
      const all = await Promise.all(Array.from({ length: 6 }, () => download(`/repos/${owner.name}/${pub}/archive/v1.tar.gz`)));
      expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(s.app.services.archives.buildCount()).toBe(before + 1);
      for (const r of all) expect(r.bytes.equals(all[0]!.bytes)).toBe(true);
      expect(all[0]!.headers.get('content-type')).toBe('application/gzip');
      expect(all[0]!.headers.get('content-disposition')).toBe(`attachment; filename="${pub}-v1.tar.gz"; filename*=UTF-8''${pub}-v1.tar.gz`);
      const tgz = join(work, 'v1.tar.gz');
      await writeFile(tgz, all[0]!.bytes);
      const list = await run('tar', ['tzf', tgz]);
      expect(list.code).toBe(0);
      expect(list.stdout.split('\n').filter(Boolean).sort()).toEqual([`${pub}/`, `${pub}/README.md`]);
      // We compress git's tar ourselves: it decompresses to exactly what `git archive --format=tar` writes.
      const tar = await run('git', ['--git-dir', join(local, '.git'), 'archive', '--format=tar', `--prefix=${pub}/`, sha.c1!]);
      expect(tar.code).toBe(0);
      expect(gunzipSync(all[0]!.bytes).toString('utf8')).toBe(tar.stdout);
      // The one-byte bound evicted the zip; no temporary file is left behind.
      expect(cached()).toEqual([`${sha.c1}.${pub}.tar.gz`]);
    });

    it('bundles the history of a branch with slashes in its name', async () => {
      const r = await download(`/repos/${owner.name}/${pub}/archive/feature/x.bundle`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/octet-stream');
      expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${pub}-feature-x.bundle"; filename*=UTF-8''${pub}-feature-x.bundle`);
      const file = join(work, 'x.bundle');
      await writeFile(file, r.bytes);
      const verifyIn = await git.dir('verify');
      await git.ok(['init', '-q', verifyIn]);
      const verify = await git.run(['bundle', 'verify', file], { cwd: verifyIn });
      expect(verify.code).toBe(0);
      expect(await git.ok(['bundle', 'list-heads', file], { cwd: verifyIn })).toBe(`${sha.f1} refs/heads/bundle\n${sha.f1} HEAD`);
      const clone = join(await git.dir('clone'), 'c');
      await git.ok(['clone', '-q', file, clone]);
      expect(await git.ok(['log', '--format=%H', 'HEAD'], { cwd: clone })).toBe(`${sha.f1}\n${sha.c1}`);
    });

    it('serves concurrent builds of different archives although each build evicts the others', async () => {
      const before = s.app.services.archives.buildCount();
      const names = ['main.zip', 'main.tar.gz', 'main.bundle', 'feature/x.zip', 'feature/x.tar.gz', 'v1.zip'];
      const all = await Promise.all(names.map((n) => download(`/repos/${owner.name}/${pub}/archive/${n}`)));
      expect(all.map((r) => r.status)).toEqual(names.map(() => 200));
      for (const r of all) expect(Number(r.headers.get('content-length'))).toBe(r.bytes.length);
      expect(s.app.services.archives.buildCount()).toBe(before + names.length);
      // Once nobody waits for them, the next build evicts them all; nothing temporary is left.
      expect((await download(`/repos/${owner.name}/${pub}/archive/v1.bundle`)).status).toBe(200);
      expect(cached()).toEqual([`${sha.c1}.${pub}.bundle`]);
    });

    it('refuses unknown formats with 400 and unknown refs with 404', async () => {
      const bad = await s.client.get(`/repos/${owner.name}/${pub}/archive/main.tgz`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(err('unknown format: main.tgz'));
      const tar = await s.client.get(`/repos/${owner.name}/${pub}/archive/main.tar`);
      expect(tar.status).toBe(400);
      expect(tar.body).toEqual(err('unknown format: main.tar'));
      const none = await s.client.get(`/repos/${owner.name}/${pub}/archive/nope.zip`);
      expect(none.status).toBe(404);
      expect(none.body).toEqual(err('unrecognized repository reference: nope'));
      const emptyRepo = await s.client.get(`/repos/${owner.name}/${empty}/archive/main.zip`);
      expect(emptyRepo.status).toBe(404);
      expect(emptyRepo.body).toEqual(err('unrecognized repository reference: main'));
      const suffixOnly = await s.client.get(`/repos/${owner.name}/${pub}/archive/.zip`);
      expect(suffixOnly.status).toBe(400);
      expect(suffixOnly.body).toEqual(err('unknown format: .zip'));
    });

    it('is public for public repositories and hidden for private ones', async () => {
      const anon = await download(`/repos/${owner.name}/${priv}/archive/main.zip`);
      expect(anon.status).toBe(404);
      expect(anon.body).toEqual(err("The target couldn't be found."));
      const other = await download(`/repos/${owner.name}/${priv}/archive/main.zip`, stranger.token);
      expect(other.status).toBe(404);
      const mine = await download(`/repos/${owner.name}/${priv}/archive/main.tar.gz`, owner.token);
      expect(mine.status).toBe(200);
      expect(mine.bytes.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).toBe(true);
    });

    it("resolves a name that is both a tag and a branch as git does (the tag), and a plain branch name", async () => {
      const same = 'both-names';
      expect((await s.client.post(`/repos/${owner.name}/${pub}/branches`, { new_branch_name: same, old_ref_name: sha.c2 }, { token: owner.token })).status).toBe(201);
      expect((await s.client.post(`/repos/${owner.name}/${pub}/tags`, { tag_name: same, target: sha.c1 }, { token: owner.token })).status).toBe(201);
      const heads = async (path: string) => {
        const r = await download(`/repos/${owner.name}/${pub}/archive/${path}.bundle`);
        expect(r.status).toBe(200);
        return r.bytes.toString('latin1').split('\n')[1]!.split(' ')[0];
      };
      expect(await heads(same)).toBe(sha.c1);
      expect(await heads('main')).toBe(sha.c2);
    });

    it('answers HEAD with the headers only', async () => {
      const res = await fetch(`${s.url}/api/v1/repos/${owner.name}/${pub}/archive/main.zip`, { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(100);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    });
  });

  describe('repoGetEditorConfig', () => {
    const ec = (repo: string, file: string, q = '') => s.client.get(`/repos/${owner.name}/${repo}/editorconfig/${file}${q}`);

    it('answers the properties of the matching sections, later ones winning', async () => {
      const ts = await ec(pub, 'a.ts');
      expect(ts.status).toBe(200);
      expect(ts.body).toEqual({ indent_style: 'space', indent_size: '2', tab_width: '2' });
      const md = await ec(pub, 'README.md');
      expect(md.status).toBe(200);
      expect(md.body).toEqual({ charset: 'utf-8', end_of_line: 'lf' });
      const make = await ec(pub, 'Makefile');
      expect(make.body).toEqual({ indent_style: 'tab', indent_size: 'tab' });
      const range = await ec(pub, 'a3.txt');
      expect(range.status).toBe(200);
      expect(range.body).toEqual({ x: 'Y' });
      const later = await ec(pub, 'b2.txt');
      expect(later.body).toEqual({ x: 'later' });
    });

    it('is 404 when no section applies, without .editorconfig, or for an unknown ref', async () => {
      for (const [repo, file, q] of [
        [pub, 'a4.txt', ''],
        [pub, 'c1.txt', ''],
        [pub, 'noext', ''],
        [pub, 'a.ts', '?ref=v1'],
        [pub, 'a.ts', '?ref=nope'],
        [empty, 'a.ts', ''],
      ] as const) {
        const r = await ec(repo, file, q);
        expect([file, q, r.status]).toEqual([file, q, 404]);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
      const atMain = await ec(pub, 'a.ts', '?ref=main');
      expect(atMain.status).toBe(200);
      expect(atMain.body).toEqual({ indent_style: 'space', indent_size: '2', tab_width: '2' });
    });

    it('is public for public repositories and hidden for private ones', async () => {
      const anon = await ec(priv, 'a.ts');
      expect(anon.status).toBe(404);
      expect(anon.body).toEqual(err("The target couldn't be found."));
      const mine = await s.client.get(`/repos/${owner.name}/${priv}/editorconfig/a.ts`, { token: owner.token });
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual({ indent_style: 'space', indent_size: '2', tab_width: '2' });
    });
  });

  describe('repoGetLanguages', () => {
    it('counts bytes by language, leaving out vendored, generated, hidden and documentation files', async () => {
      const r = await s.client.get(`/repos/${owner.name}/${pub}/languages`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ TypeScript: 13, TSX: 11, JavaScript: 20, Makefile: 11 });
      const again = await s.client.get(`/repos/${owner.name}/${pub}/languages`);
      expect(again.body).toEqual(r.body);
    });

    it('follows the default branch to a new commit', async () => {
      const name = uniqueName('lang');
      expect((await s.client.post('/user/repos', { name }, { token: owner.token })).status).toBe(201);
      await git.ok(['push', '-q', remote(name), 'v1:refs/heads/main'], { cwd: local });
      const first = await s.client.get(`/repos/${owner.name}/${name}/languages`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({});
      await git.ok(['push', '-q', remote(name), 'main:main'], { cwd: local });
      const second = await s.client.get(`/repos/${owner.name}/${name}/languages`);
      expect(second.body).toEqual({ TypeScript: 13, TSX: 11, JavaScript: 20, Makefile: 11 });
    });

    it('is empty for an empty repository and hidden for private ones', async () => {
      const e = await s.client.get(`/repos/${owner.name}/${empty}/languages`);
      expect(e.status).toBe(200);
      expect(e.body).toEqual({});
      const anon = await s.client.get(`/repos/${owner.name}/${priv}/languages`);
      expect(anon.status).toBe(404);
      expect(anon.body).toEqual(err("The target couldn't be found."));
      const mine = await s.client.get(`/repos/${owner.name}/${priv}/languages`, { token: owner.token });
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual({ TypeScript: 13, TSX: 11, JavaScript: 20, Makefile: 11 });
    });
  });
});
