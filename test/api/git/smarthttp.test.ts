// git clone / fetch / push over smart HTTP with the stock git client against the running server.
import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { CLIENT_EMAIL, CLIENT_NAME, createGitCli, type GitCli } from '../../helpers/gitcli.js';

describeDb('git smart HTTP', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };

  beforeAll(async () => {
    s = await startServer();
    git = await createGitCli();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    stranger = await s.createUser();
  });
  afterAll(async () => {
    await git?.close();
    await s?.close();
  });

  /** The clone address of owner/repo, optionally with credentials in it. */
  const remote = (ownerName: string, repo: string, opts: { user?: string; password?: string; suffix?: boolean } = {}) => {
    const u = new URL(`${s.url}/${ownerName}/${repo}${opts.suffix === false ? '' : '.git'}`);
    if (opts.user !== undefined) u.username = encodeURIComponent(opts.user);
    if (opts.password !== undefined) u.password = encodeURIComponent(opts.password);
    return u.toString();
  };

  const createRepo = async (user: TestUser, body: Record<string, unknown>) => {
    const r = await s.client.post('/user/repos', body, { token: user.token });
    expect(r.status).toBe(201);
    return r.body as { id: number; name: string; empty: boolean; default_branch: string };
  };

  /** A raw request to the git endpoints (not under /api/v1, so no contract check). */
  const raw = async (path: string, opts: { method?: string; auth?: [string, string]; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.auth) headers.Authorization = `Basic ${Buffer.from(`${opts.auth[0]}:${opts.auth[1]}`).toString('base64')}`;
    const res = await fetch(`${s.url}${path}`, { method: opts.method ?? 'GET', headers, redirect: 'manual' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  const tip = async (ownerName: string, repo: string, branch: string) => {
    const r = await s.client.get(`/repos/${ownerName}/${repo}/branches/${branch}`, { token: s.admin.token });
    expect(r.status).toBe(200);
    return r.body.commit.id as string;
  };

  it('clones a public repository anonymously, with and without .git, over protocol v0 and v2', async () => {
    const name = uniqueName('pub');
    await createRepo(owner, { name, auto_init: true, description: 'hello' });
    const sha = await tip(owner.name, name, 'main');
    const README = `# ${name}\n\nhello\n`;
    for (const suffix of [true, false]) {
      for (const version of ['0', '2']) {
        const dir = join(await git.dir('clone'), 'c');
        const r = await git.run(['-c', `protocol.version=${version}`, 'clone', remote(owner.name, name, { suffix }), dir], { env: { GIT_TRACE_PACKET: '1' } });
        expect({ suffix, version, code: r.code }).toEqual({ suffix, version, code: 0 });
        // The trace shows which protocol the server answered with.
        if (version === '2') expect(r.stderr).toMatch(/git< version 2/);
        else {
          expect(r.stderr).not.toMatch(/git< version 2/);
          expect(r.stderr).toMatch(/git< # service=git-upload-pack/);
        }
        expect(await git.ok(['rev-parse', 'HEAD'], { cwd: dir })).toBe(sha);
        expect(await git.ok(['symbolic-ref', '--short', 'HEAD'], { cwd: dir })).toBe('main');
        expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe(README);
      }
    }
  });

  it('serves a repeated clone from the pack cache; a new commit makes a new pack', async () => {
    const name = uniqueName('cached');
    const repo = await createRepo(owner, { name, auto_init: true });
    const cacheDir = s.app.services.repos.packCacheDir(repo.id);
    const packs = async () => (await readdir(cacheDir).catch(() => [] as string[])).filter((n) => n.endsWith('.pack'));
    const cloneOnce = async () => {
      const dir = join(await git.dir('pc'), 'c');
      const r = await git.run(['clone', '-q', remote(owner.name, name), dir]);
      expect(r.code).toBe(0);
      return dir;
    };
    const first = await cloneOnce();
    const [pack] = await packs();
    expect(pack).toMatch(/^[0-9a-f]{64}\.pack$/);
    const before = (await stat(join(cacheDir, pack!))).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    const second = await cloneOnce();
    // The same wants give the same key: one pack, touched by the hit, and an identical clone.
    expect(await packs()).toEqual([pack]);
    expect((await stat(join(cacheDir, pack!))).mtimeMs).toBeGreaterThan(before);
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: second })).toBe(await git.ok(['rev-parse', 'HEAD'], { cwd: first }));
    await git.ok(['fsck', '--strict'], { cwd: second });
    // A push changes what a clone wants: a second pack, and the clone has the new commit.
    const sha = await git.commit(first, { 'new.txt': 'n\n' }, 'new commit');
    expect((await git.run(['push', '-q', remote(owner.name, name, { user: owner.name, password: owner.password }), 'main'], { cwd: first })).code).toBe(0);
    const third = await cloneOnce();
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: third })).toBe(sha);
    expect((await packs()).length).toBe(2);
    // Deleting the repository removes its cache.
    expect((await s.client.delete(`/repos/${owner.name}/${name}`, { token: owner.token })).status).toBe(204);
    expect(await packs()).toEqual([]);
  });

  it('advertises refs with the smart content type and no caching', async () => {
    const name = uniqueName('adv');
    await createRepo(owner, { name, auto_init: true });
    const sha = await tip(owner.name, name, 'main');
    const r = await raw(`/${owner.name}/${name}.git/info/refs?service=git-upload-pack`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(r.headers.get('cache-control')).toBe('no-cache, max-age=0, must-revalidate');
    expect(r.text.startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
    expect(r.text).toContain(`${sha} refs/heads/main`);
    const v2 = await raw(`/${owner.name}/${name}/info/refs?service=git-upload-pack`, { headers: { 'Git-Protocol': 'version=2' } });
    expect(v2.status).toBe(200);
    expect(v2.text.startsWith('000eversion 2\n')).toBe(true);
  });

  it('refuses an anonymous clone of a private repository exactly like a missing one', async () => {
    const name = uniqueName('priv');
    await createRepo(owner, { name, auto_init: true, private: true });
    const hidden = await raw(`/${owner.name}/${name}.git/info/refs?service=git-upload-pack`);
    const missing = await raw(`/${owner.name}/${uniqueName('none')}.git/info/refs?service=git-upload-pack`);
    const noOwner = await raw(`/${uniqueName('nobody')}/${name}.git/info/refs?service=git-upload-pack`);
    for (const r of [hidden, missing, noOwner]) {
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(r.text).toBe(hidden.text);
    }
    expect(hidden.text).toBe('authentication required\n');
    // An anonymous push attempt to the same is refused the same way.
    const push = await raw(`/${owner.name}/${name}.git/info/refs?service=git-receive-pack`);
    expect({ status: push.status, text: push.text }).toEqual({ status: 401, text: hidden.text });

    for (const repo of [name, uniqueName('none')]) {
      const r = await git.run(['clone', remote(owner.name, repo), join(await git.dir(), 'c')]);
      expect(r.code).toBe(128);
      expect(r.stderr).toMatch(/could not read Username for 'http:\/\/127\.0\.0\.1:\d+': terminal prompts disabled/);
    }
  });

  it('answers a signed-in stranger the same for a private repository and a missing one', async () => {
    const name = uniqueName('priv');
    await createRepo(owner, { name, auto_init: true, private: true });
    const auth: [string, string] = [stranger.name, stranger.password];
    const hidden = await raw(`/${owner.name}/${name}.git/info/refs?service=git-upload-pack`, { auth });
    const missing = await raw(`/${owner.name}/${uniqueName('none')}.git/info/refs?service=git-upload-pack`, { auth });
    expect(hidden.status).toBe(404);
    expect({ status: missing.status, text: missing.text }).toEqual({ status: hidden.status, text: hidden.text });
    expect(hidden.text).toBe("The target couldn't be found.\n");
    const r = await git.run(['clone', remote(owner.name, name, { user: stranger.name, password: stranger.password }), join(await git.dir(), 'c')]);
    expect(r.code).toBe(128);
    expect(r.stderr).toMatch(/repository '.*' not found/);
  });

  it('clones a private repository with the password or a token in the URL, and not with a wrong password', async () => {
    const name = uniqueName('priv');
    await createRepo(owner, { name, auto_init: true, private: true });
    const sha = await tip(owner.name, name, 'main');
    const withPassword = join(await git.dir(), 'c');
    expect((await git.run(['clone', remote(owner.name, name, { user: owner.name, password: owner.password }), withPassword])).code).toBe(0);
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: withPassword })).toBe(sha);

    const withToken = join(await git.dir(), 'c');
    expect((await git.run(['clone', remote(owner.name, name, { user: owner.name, password: owner.token }), withToken])).code).toBe(0);
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: withToken })).toBe(sha);

    const wrong = await git.run(['clone', remote(owner.name, name, { user: owner.name, password: 'not-the-password' }), join(await git.dir(), 'c')]);
    expect(wrong.code).toBe(128);
    expect(wrong.stderr).toMatch(/Authentication failed for/);
    const r = await raw(`/${owner.name}/${name}.git/info/refs?service=git-upload-pack`, { auth: [owner.name, 'not-the-password'] });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect(r.text).toBe(`user does not exist [uid: 0, name: ${owner.name}]\n`);
  });

  it('lets a read:repository token clone but not push', async () => {
    const name = uniqueName('ro');
    await createRepo(owner, { name, auto_init: true, private: true });
    const token = await s.createToken(owner.name, ['read:repository']);
    const dir = join(await git.dir(), 'c');
    expect((await git.run(['clone', remote(owner.name, name, { user: owner.name, password: token }), dir])).code).toBe(0);
    await git.commit(dir, { 'x.txt': 'x' }, 'add x');
    const push = await git.run(['push', 'origin', 'main'], { cwd: dir });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/403/);
    const r = await raw(`/${owner.name}/${name}.git/info/refs?service=git-receive-pack`, { auth: [owner.name, token] });
    expect(r.status).toBe(403);
    expect(r.text).toBe('token does not have at least one of required scope(s): [write:repository]\n');
    // Nothing changed on the server.
    expect(await tip(owner.name, name, 'main')).toBe(await git.ok(['rev-parse', 'HEAD~1'], { cwd: dir }));
  });

  it('refuses a token without repository scope', async () => {
    const name = uniqueName('noscope');
    await createRepo(owner, { name, auto_init: true, private: true });
    const token = await s.createToken(owner.name, ['read:user']);
    const r = await git.run(['clone', remote(owner.name, name, { user: owner.name, password: token }), join(await git.dir(), 'c')]);
    expect(r.code).toBe(128);
    expect(r.stderr).toMatch(/403/);
    const res = await raw(`/${owner.name}/${name}.git/info/refs?service=git-upload-pack`, { auth: [owner.name, token] });
    expect(res.status).toBe(403);
    expect(res.text).toBe('token does not have at least one of required scope(s): [read:repository]\n');
  });

  it('a push to an empty repository makes it non-empty with the pushed branch as default', async () => {
    const name = uniqueName('empty');
    const created = await createRepo(owner, { name, auto_init: false });
    expect(created).toMatchObject({ empty: true, default_branch: 'main' });
    const before = await s.client.get(`/repos/${owner.name}/${name}`, { token: owner.token });
    expect(before.body).toMatchObject({ empty: true, size: 0 });

    const local = await git.initWithCommit('trunk', { 'a.txt': 'alpha\n' }, 'first on trunk');
    const sha = await git.ok(['rev-parse', 'HEAD'], { cwd: local });
    const push = await git.run(['push', remote(owner.name, name, { user: owner.name, password: owner.password }), 'trunk'], { cwd: local });
    expect(push.code).toBe(0);

    const after = await s.client.get(`/repos/${owner.name}/${name}`, { token: owner.token });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ empty: false, default_branch: 'trunk' });
    expect(after.body.size).toBeGreaterThan(0);
    const branches = await s.client.get(`/repos/${owner.name}/${name}/branches`, { token: owner.token });
    expect(branches.status).toBe(200);
    expect(branches.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id])).toEqual([['trunk', sha]]);
    // The server's HEAD follows, so a fresh clone checks trunk out.
    const clone = join(await git.dir(), 'c');
    await git.ok(['clone', remote(owner.name, name), clone]);
    expect(await git.ok(['symbolic-ref', '--short', 'HEAD'], { cwd: clone })).toBe('trunk');
    // Background upkeep after the push writes a commit-graph (with changed-path filters) into the repository.
    await s.app.services.repos.settleMaintenance();
    const chain = await readFile(join(s.app.config.repository.root, `${created.id}.git`, 'objects/info/commit-graphs/commit-graph-chain'), 'utf8');
    expect(chain.trim()).toMatch(/^[0-9a-f]{40}$/);
  });

  it('keeps the configured default branch of an empty repository when it is pushed', async () => {
    const name = uniqueName('empty');
    await createRepo(owner, { name, auto_init: false, default_branch: 'develop' });
    const local = await git.initWithCommit('aaa', { 'a.txt': 'a' });
    await git.ok(['branch', 'develop'], { cwd: local });
    await git.ok(['branch', 'zzz'], { cwd: local });
    const push = await git.run(['push', remote(owner.name, name, { user: owner.name, password: owner.token }), 'aaa', 'develop', 'zzz'], { cwd: local });
    expect(push.code).toBe(0);
    const r = await s.client.get(`/repos/${owner.name}/${name}`, { token: owner.token });
    expect(r.body).toMatchObject({ empty: false, default_branch: 'develop' });
  });

  it('lets a write collaborator push and refuses a read collaborator and a stranger', async () => {
    const name = uniqueName('collab');
    await createRepo(owner, { name, auto_init: true });
    const writer = await s.createUser();
    const reader = await s.createUser();
    for (const [u, permission] of [[writer, 'write'], [reader, 'read']] as const) {
      const r = await s.client.put(`/repos/${owner.name}/${name}/collaborators/${u.name}`, { permission }, { token: owner.token });
      expect(r.status).toBe(204);
    }
    const dir = join(await git.dir(), 'c');
    await git.ok(['clone', remote(owner.name, name), dir]);
    const sha = await git.commit(dir, { 'w.txt': 'by writer' }, 'writer was here');
    const pushed = await git.run(['push', remote(owner.name, name, { user: writer.name, password: writer.password }), 'main'], { cwd: dir });
    expect(pushed.code).toBe(0);
    expect(await tip(owner.name, name, 'main')).toBe(sha);

    await git.commit(dir, { 'r.txt': 'by reader' }, 'reader tries');
    for (const u of [reader, stranger]) {
      const refused = await git.run(['push', remote(owner.name, name, { user: u.name, password: u.password }), 'main'], { cwd: dir });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/403/);
      const r = await raw(`/${owner.name}/${name}.git/info/refs?service=git-receive-pack`, { auth: [u.name, u.password] });
      expect(r.status).toBe(403);
      expect(r.text).toBe('User permission denied\n');
    }
    expect(await tip(owner.name, name, 'main')).toBe(sha);
  });

  it('refuses a push to an archived repository but still serves clones', async () => {
    const name = uniqueName('arch');
    await createRepo(owner, { name, auto_init: true });
    const sha = await tip(owner.name, name, 'main');
    const dir = join(await git.dir(), 'c');
    await git.ok(['clone', remote(owner.name, name), dir]);
    const edit = await s.client.patch(`/repos/${owner.name}/${name}`, { archived: true }, { token: owner.token });
    expect(edit.status).toBe(200);
    expect(edit.body.archived).toBe(true);
    await git.commit(dir, { 'late.txt': 'late' }, 'too late');
    const push = await git.run(['push', remote(owner.name, name, { user: owner.name, password: owner.password }), 'main'], { cwd: dir });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/403/);
    const r = await raw(`/${owner.name}/${name}.git/info/refs?service=git-receive-pack`, { auth: [owner.name, owner.password] });
    expect(r.status).toBe(403);
    expect(r.text).toBe('repo is archived\n');
    expect(await tip(owner.name, name, 'main')).toBe(sha);
    const again = join(await git.dir(), 'c');
    expect((await git.run(['clone', remote(owner.name, name), again])).code).toBe(0);
  });

  it('git fetch sees a commit pushed from another clone', async () => {
    const name = uniqueName('fetch');
    await createRepo(owner, { name, auto_init: true });
    const url = remote(owner.name, name, { user: owner.name, password: owner.password });
    const a = join(await git.dir(), 'a');
    const b = join(await git.dir(), 'b');
    await git.ok(['clone', url, a]);
    await git.ok(['clone', url, b]);
    const sha = await git.commit(b, { 'b.txt': 'from b' }, 'from b');
    await git.ok(['push', 'origin', 'main'], { cwd: b });
    for (const version of ['0', '2']) {
      const r = await git.run(['-c', `protocol.version=${version}`, 'fetch', 'origin'], { cwd: a });
      expect(r.code).toBe(0);
      expect(await git.ok(['rev-parse', 'origin/main'], { cwd: a })).toBe(sha);
      expect(await git.ok(['log', '-1', '--format=%s|%an|%ae', 'origin/main'], { cwd: a })).toBe(`from b|${CLIENT_NAME}|${CLIENT_EMAIL}`);
    }
  });

  it('a pushed branch with a slash in its name is served by repoGetBranch', async () => {
    const name = uniqueName('slash');
    await createRepo(owner, { name, auto_init: true });
    const dir = join(await git.dir(), 'c');
    await git.ok(['clone', remote(owner.name, name, { user: owner.name, password: owner.password }), dir]);
    await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: dir });
    const sha = await git.commit(dir, { 'f.txt': 'feature' }, 'feature work');
    expect((await git.run(['push', 'origin', 'feature/x'], { cwd: dir })).code).toBe(0);
    const r = await s.client.get(`/repos/${owner.name}/${name}/branches/feature/x`, { token: owner.token });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('feature/x');
    expect(r.body.commit.id).toBe(sha);
    expect(r.body.commit.message).toBe('feature work\n');
    expect(r.body.commit.author).toMatchObject({ name: CLIENT_NAME, email: CLIENT_EMAIL });
    // Deleting it by push works too.
    expect((await git.run(['push', 'origin', '--delete', 'feature/x'], { cwd: dir })).code).toBe(0);
    const gone = await s.client.get(`/repos/${owner.name}/${name}/branches/feature/x`, { token: owner.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(err("The target couldn't be found."));
  });

  it('refuses the dumb HTTP protocol', async () => {
    const name = uniqueName('dumb');
    await createRepo(owner, { name, auto_init: true });
    for (const path of [`/${owner.name}/${name}.git/info/refs`, `/${owner.name}/${name}/info/refs?service=git-dumb-pack`]) {
      const r = await raw(path);
      expect(r.status).toBe(403);
      expect(r.text).toBe('only the smart HTTP protocol is supported\n');
    }
    // A POST to info/refs or a GET of a service endpoint is no smart request either.
    const post = await raw(`/${owner.name}/${name}.git/info/refs?service=git-upload-pack`, { method: 'POST' });
    expect(post.status).toBe(403);
    const get = await raw(`/${owner.name}/${name}.git/git-upload-pack`);
    expect(get.status).toBe(403);
  });

  it('10 parallel pushes to 10 different repositories all succeed', async () => {
    const names = Array.from({ length: 10 }, () => uniqueName('par'));
    await Promise.all(names.map((name) => createRepo(owner, { name, auto_init: false })));
    const locals = await Promise.all(names.map((name, i) => git.initWithCommit('main', { 'n.txt': `${name} ${i}\n` }, `commit ${i}`)));
    const shas = await Promise.all(locals.map((d) => git.ok(['rev-parse', 'HEAD'], { cwd: d })));
    const results = await Promise.all(
      names.map((name, i) => git.run(['push', remote(owner.name, name, { user: owner.name, password: owner.token }), 'main'], { cwd: locals[i] })),
    );
    expect(results.map((r) => r.code)).toEqual(names.map(() => 0));
    for (const [i, name] of names.entries()) {
      const r = await s.client.get(`/repos/${owner.name}/${name}`, { token: owner.token });
      expect(r.body).toMatchObject({ empty: false, default_branch: 'main' });
      expect(await tip(owner.name, name, 'main')).toBe(shas[i]);
    }
  });
});
