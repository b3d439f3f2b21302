// Pull mirrors: repoMigrate with mirror=true, repoMirrorSync, the periodic scheduler, mirror_interval edits, and
// the read-only rule (pushes and API edits refused).
import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { createGitCli, tokenRemote, type GitCli } from '../../helpers/gitcli.js';

interface Repo {
  id: number;
  mirror: boolean;
  empty: boolean;
  mirror_interval: string;
  mirror_updated: string;
}
interface Branch {
  name: string;
  commit: { id: string };
}

const ZERO = '0001-01-01T00:00:00Z';

describeDb('pull mirrors', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let mirrorOwner: TestUser;
  let reader: TestUser;
  let src: string;
  let local: string;
  let mirror: string;
  const err = (message: string) => ({ message, url: `${s.url}/api/swagger` });
  const tip = async (name: string, branch = 'main') =>
    (await s.client.get<Branch>(`/repos/${mirrorOwner.name}/${name}/branches/${branch}`, { token: mirrorOwner.token })).body.commit?.id;
  const waitFor = async (cond: () => Promise<boolean>) => {
    for (let i = 0; i < 100; i++) {
      if (await cond()) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  beforeAll(async () => {
    s = await startServer({ overrides: { migrations: { ALLOW_LOCALNETWORKS: 'true' } } });
    git = await createGitCli();
    owner = await s.createUser();
    mirrorOwner = await s.createUser();
    reader = await s.createUser();
    src = uniqueName('src');
    expect((await s.client.post('/user/repos', { name: src, private: true }, { token: owner.token })).status).toBe(201);
    local = await git.initWithCommit('main', { 'README.md': '# source\n' });
    await git.ok(['branch', 'dev'], { cwd: local });
    await git.ok(['push', tokenRemote(s.url, owner, src), 'main', 'dev'], { cwd: local });
    mirror = uniqueName('mir');
    const r = await s.client.post<Repo>(
      '/repos/migrate',
      { clone_addr: `${s.url}/${owner.name}/${src}.git`, repo_name: mirror, mirror: true, private: true, mirror_interval: '10m', auth_username: owner.name, auth_password: owner.password },
      { token: mirrorOwner.token },
    );
    expect(r.status).toBe(201);
    expect(r.body.mirror).toBe(true);
    expect(r.body.mirror_interval).toBe('10m0s');
    expect(r.body.mirror_updated).not.toBe(ZERO);
    expect(JSON.stringify(r.body)).not.toContain(owner.password);
    // Stored apart from the address and encrypted.
    const row = await s.app.database.db.selectFrom('mirror').selectAll().where('repo_id', '=', r.body.id).executeTakeFirstOrThrow();
    expect(row.remote_address).toBe(`${s.url}/${owner.name}/${src}.git`);
    expect(row.auth_username).toBe(owner.name);
    expect(row.auth_password).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(owner.password);
  });
  afterAll(async () => {
    await s?.close();
    await git?.close();
  });

  it('mirror-sync fetches new commits with the stored credentials', async () => {
    const sha = await git.commit(local, { 'new.txt': 'new\n' }, 'new commit');
    await git.ok(['push', tokenRemote(s.url, owner, src), 'main'], { cwd: local });
    expect(await tip(mirror)).not.toBe(sha);
    const r = await s.client.post(`/repos/${mirrorOwner.name}/${mirror}/mirror-sync`, undefined, { token: mirrorOwner.token });
    expect(r.status).toBe(200);
    expect(await waitFor(async () => (await tip(mirror)) === sha)).toBe(true);
    const f = await s.client.get<{ content: string }>(`/repos/${mirrorOwner.name}/${mirror}/contents/new.txt`, { token: mirrorOwner.token });
    expect(Buffer.from(f.body.content, 'base64').toString()).toBe('new\n');
  });

  it('prunes branches deleted on the remote', async () => {
    expect((await s.client.get(`/repos/${mirrorOwner.name}/${mirror}/branches/dev`, { token: mirrorOwner.token })).status).toBe(200);
    await git.ok(['push', tokenRemote(s.url, owner, src), ':dev'], { cwd: local });
    expect((await s.client.post(`/repos/${mirrorOwner.name}/${mirror}/mirror-sync`, undefined, { token: mirrorOwner.token })).status).toBe(200);
    expect(await waitFor(async () => (await s.client.get(`/repos/${mirrorOwner.name}/${mirror}/branches/dev`, { token: mirrorOwner.token })).status === 404)).toBe(true);
  });

  it('with enable_prune=false branches deleted on the remote stay', async () => {
    const path = `/repos/${mirrorOwner.name}/${mirror}`;
    expect((await s.client.patch(path, { enable_prune: false }, { token: mirrorOwner.token })).status).toBe(200);
    const sync = async () => {
      expect((await s.client.post(`${path}/mirror-sync`, undefined, { token: mirrorOwner.token })).status).toBe(200);
      await s.app.services.migrations.poke();
    };
    await git.ok(['push', tokenRemote(s.url, owner, src), 'main:keep'], { cwd: local });
    await sync();
    expect((await s.client.get(`${path}/branches/keep`, { token: mirrorOwner.token })).status).toBe(200);
    await git.ok(['push', tokenRemote(s.url, owner, src), ':keep'], { cwd: local });
    await sync();
    expect((await s.client.get(`${path}/branches/keep`, { token: mirrorOwner.token })).status).toBe(200);
    expect((await s.client.patch(path, { enable_prune: true }, { token: mirrorOwner.token })).status).toBe(200);
    await sync();
    expect((await s.client.get(`${path}/branches/keep`, { token: mirrorOwner.token })).status).toBe(404);
  });

  it('the scheduler syncs mirrors whose interval has passed', async () => {
    const sha = await git.commit(local, { 'periodic.txt': 'p\n' }, 'periodic');
    await git.ok(['push', tokenRemote(s.url, owner, src), 'main'], { cwd: local });
    const repo = await s.client.get<Repo>(`/repos/${mirrorOwner.name}/${mirror}`, { token: mirrorOwner.token });
    // Nothing is due yet; then the clock of the next sync is moved into the past.
    await s.app.services.migrations.runDue();
    expect(await tip(mirror)).not.toBe(sha);
    await s.app.database.db.updateTable('mirror').set({ next_update_unix: 1 }).where('repo_id', '=', repo.body.id).execute();
    expect(await s.app.services.migrations.runDue()).toBeGreaterThanOrEqual(1);
    expect(await tip(mirror)).toBe(sha);
    const row = await s.app.database.db.selectFrom('mirror').selectAll().where('repo_id', '=', repo.body.id).executeTakeFirstOrThrow();
    expect(Number(row.next_update_unix)).toBeGreaterThan(Math.floor(Date.now() / 1000) + 500);
  });

  it('a sync racing with the deletion of the mirror leaves no directory behind', async () => {
    // A proxy in front of the source that can hold git's pack request while the mirror is deleted.
    const upstream = new URL(s.url);
    let hold: Promise<void> | undefined;
    let held: () => void = () => {};
    const proxy = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        // The protocol v2 `fetch` command: the answer's first bytes go through at once (git starts receiving the
        // pack into the repository), the rest waits until the mirror has been deleted.
        const gate = hold && body.includes('command=fetch') ? hold : undefined;
        const p = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          if (!gate) return void up.pipe(res);
          up.once('data', (first: Buffer) => {
            up.pause();
            res.write(first.subarray(0, Math.min(first.length, 200)));
            const rest = first.subarray(Math.min(first.length, 200));
            setTimeout(held, 200);
            void gate.then(() => {
              res.write(rest);
              up.pipe(res);
              up.resume();
            });
          });
        });
        p.end(body);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const port = (proxy.address() as { port: number }).port;
      const name = uniqueName('race');
      const m = await s.client.post<Repo>(
        '/repos/migrate',
        { clone_addr: `http://127.0.0.1:${port}/${owner.name}/${src}.git`, repo_name: name, mirror: true, private: true, auth_username: owner.name, auth_password: owner.password },
        { token: mirrorOwner.token },
      );
      expect(m.status).toBe(201);
      const dir = s.app.services.repos.repoPath(m.body.id);
      expect(existsSync(dir)).toBe(true);
      await git.commit(local, { 'race.txt': `${name}\n` }, 'race');
      await git.ok(['push', tokenRemote(s.url, owner, src), 'main'], { cwd: local });
      let release: () => void = () => {};
      hold = new Promise<void>((r) => (release = r));
      const seen = new Promise<void>((r) => (held = r));
      expect((await s.client.post(`/repos/${mirrorOwner.name}/${name}/mirror-sync`, undefined, { token: mirrorOwner.token })).status).toBe(200);
      await seen;
      // git is inside the fetch (the pack is on its way) when the mirror is deleted.
      expect((await s.client.delete(`/repos/${mirrorOwner.name}/${name}`, { token: mirrorOwner.token })).status).toBe(204);
      expect(existsSync(dir)).toBe(false);
      release();
      await s.app.services.migrations.poke();
      expect(existsSync(dir)).toBe(false);
      expect((await s.client.get(`/repos/${mirrorOwner.name}/${name}`, { token: mirrorOwner.token })).status).toBe(404);
    } finally {
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it('is read-only: pushes, file edits, diffs and branch creation are refused', async () => {
    const clone = await git.dir('mclone');
    await git.ok(['clone', tokenRemote(s.url, mirrorOwner, mirror), clone]);
    await git.commit(clone, { 'x.txt': 'x\n' }, 'local change');
    const push = await git.run(['push', 'origin', 'HEAD:main'], { cwd: clone });
    expect(push.code).not.toBe(0);
    const put = await s.client.post(`/repos/${mirrorOwner.name}/${mirror}/contents/y.txt`, { content: Buffer.from('y').toString('base64') }, { token: mirrorOwner.token });
    expect(put.status).toBe(403);
    expect(put.body).toEqual(err('Git Repository is a mirror.'));
    const patch = await s.client.post(`/repos/${mirrorOwner.name}/${mirror}/diffpatch`, { sha: 'x', content: 'diff' }, { token: mirrorOwner.token });
    expect(patch.status).toBe(403);
    expect(patch.body).toEqual(err('Git Repository is a mirror.'));
    const branch = await s.client.post(`/repos/${mirrorOwner.name}/${mirror}/branches`, { new_branch_name: 'b' }, { token: mirrorOwner.token });
    expect(branch.status).toBe(403);
  });

  it('mirror-sync: 400 on a repository that is not a mirror, 403 without write access, 404 when invisible', async () => {
    const r = await s.client.post(`/repos/${owner.name}/${src}/mirror-sync`, undefined, { token: owner.token });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(err('Repository is not a mirror'));
    const hidden = await s.client.post(`/repos/${mirrorOwner.name}/${mirror}/mirror-sync`, undefined, { token: reader.token });
    expect(hidden.status).toBe(404);
    const pub = uniqueName('pubmir');
    const made = await s.client.post<Repo>(
      '/repos/migrate',
      { clone_addr: `${s.url}/${owner.name}/${src}.git`, repo_name: pub, mirror: true, mirror_interval: '0', auth_token: owner.token },
      { token: mirrorOwner.token },
    );
    expect(made.status).toBe(201);
    expect(made.body.mirror_interval).toBe('0s');
    const ro = await s.client.post(`/repos/${mirrorOwner.name}/${pub}/mirror-sync`, undefined, { token: reader.token });
    expect(ro.status).toBe(403);
    expect(ro.body).toEqual(err('user should have a permission to write to a repo'));
    const anon = await s.client.post(`/repos/${mirrorOwner.name}/${pub}/mirror-sync`);
    expect(anon.status).toBe(401);
  });

  it('mirror_interval can be edited on mirrors (Go durations, minimum 10m) and is ignored elsewhere', async () => {
    const path = `/repos/${mirrorOwner.name}/${mirror}`;
    const ok = await s.client.patch<Repo>(path, { mirror_interval: '1h30m' }, { token: mirrorOwner.token });
    expect(ok.status).toBe(200);
    expect(ok.body.mirror_interval).toBe('1h30m0s');
    const bad = await s.client.patch(path, { mirror_interval: 'abc' }, { token: mirrorOwner.token });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(err('time: invalid duration "abc"'));
    const short = await s.client.patch(path, { mirror_interval: '9m59s' }, { token: mirrorOwner.token });
    expect(short.status).toBe(422);
    expect(short.body).toEqual(err('invalid mirror interval: 9m59s is below minimum interval: 10m0s'));
    const archive = await s.client.patch(path, { archived: true }, { token: mirrorOwner.token });
    expect(archive.status).toBe(422);
    const plain = await s.client.patch<Repo>(`/repos/${owner.name}/${src}`, { mirror_interval: '1h' }, { token: owner.token });
    expect(plain.status).toBe(200);
    expect(plain.body.mirror_interval).toBe('');
  });
});
