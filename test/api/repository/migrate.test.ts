// repoMigrate: imports over http (from a second repository on the same in-process server, local networks allowed
// in that server's configuration) and over git:// (a `git daemon` on loopback), and the refusals of the outbound
// policy: a refused address creates no row and no directory and the listener behind it never sees a connection.
import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { connect, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { describeDb, startServer, testDb, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { createApp } from '../../../src/app.js';
import { createLogger } from '../../../src/log.js';
import { createGitCli, tokenRemote, type GitCli } from '../../helpers/gitcli.js';
import * as reposDb from '../../../src/db/repos.js';
import { DEFAULT_REPO_SETTINGS } from '../../../src/domain/repo.js';
import { startReceiver } from '../webhooks/receiver.js';
import { cloneRemote, pinnedResolve } from '../../../src/git/remote.js';

interface Repo {
  id: number;
  name: string;
  full_name: string;
  empty: boolean;
  mirror: boolean;
  private: boolean;
  description: string;
  default_branch: string;
  original_url: string;
  mirror_interval: string;
  permissions: { admin: boolean; push: boolean; pull: boolean };
  owner: { login: string };
}

/** `git daemon` ships separately on some systems; the git:// import is skipped without it. */
const hasGitDaemon = existsSync(join(spawnSync('git', ['--exec-path'], { encoding: 'utf8' }).stdout.trim(), 'git-daemon'));

/** A TCP listener that counts the connections it sees. */
async function countingListener(host = '127.0.0.1'): Promise<{ server: NetServer; port: number; count: () => number }> {
  let n = 0;
  const server = createNetServer((sock) => {
    n++;
    sock.destroy();
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, port: (server.address() as { port: number }).port, count: () => n };
}

const listen = (srv: HttpServer | NetServer, host = '127.0.0.1') =>
  new Promise<number>((r) => srv.listen(0, host, () => r((srv.address() as { port: number }).port)));
const closeServer = (srv: HttpServer | NetServer) => new Promise<void>((r) => srv.close(() => r()));

describeDb('repoMigrate', () => {
  let s: TestServer;
  let plain: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let migrator: TestUser;
  let pub: string;
  let priv: string;
  const listDir = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
  const repoDirs = (srv: TestServer) => listDir(srv.app.config.repository.root).filter((n) => n.endsWith('.git')).sort();
  const err = (srv: TestServer, message: string) => ({ message, url: `${srv.url}/api/swagger` });
  const migrate = (body: Record<string, unknown>, token = migrator.token, srv = s) => srv.client.post<Repo>('/repos/migrate', body, { token });

  beforeAll(async () => {
    // 127.0.0.2 stands for an internal host that stays refused even with local networks allowed.
    s = await startServer({ overrides: { migrations: { ALLOW_LOCALNETWORKS: 'true', BLOCKED_DOMAINS: '127.0.0.2' }, webhook: { ALLOWED_HOST_LIST: 'loopback' } } });
    plain = await startServer();
    git = await createGitCli();
    owner = await s.createUser();
    migrator = await s.createUser();
    pub = uniqueName('src');
    priv = uniqueName('prv');
    for (const [name, isPrivate] of [
      [pub, false],
      [priv, true],
    ] as const) {
      expect((await s.client.post('/user/repos', { name, private: isPrivate }, { token: owner.token })).status).toBe(201);
      const local = await git.initWithCommit('main', { 'README.md': `# ${name}\n` });
      await git.ok(['checkout', '-b', 'dev'], { cwd: local });
      await git.commit(local, { 'dev.txt': 'dev\n' }, 'dev work');
      await git.ok(['tag', '-a', 'v1.0', '-m', 'release'], { cwd: local });
      await git.ok(['push', tokenRemote(s.url, owner, name), 'main', 'dev', 'v1.0'], { cwd: local });
    }
  });
  afterAll(async () => {
    await s?.close();
    await plain?.close();
    await git?.close();
  });

  it('imports a public repository over http with its branches, tags and default branch', async () => {
    const addr = `${s.url}/${owner.name}/${pub}.git`;
    const name = uniqueName('mig');
    const r = await migrate({ clone_addr: addr, repo_name: name, description: 'imported', private: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name,
      full_name: `${migrator.name}/${name}`,
      empty: false,
      mirror: false,
      private: true,
      description: 'imported',
      default_branch: 'main',
      original_url: addr,
      mirror_interval: '',
      permissions: { admin: true, push: true, pull: true },
    });
    const branches = await s.client.get<{ name: string }[]>(`/repos/${migrator.name}/${name}/branches`, { token: migrator.token });
    expect(branches.body.map((b) => b.name).sort()).toEqual(['dev', 'main']);
    const tags = await s.client.get<{ name: string }[]>(`/repos/${migrator.name}/${name}/tags`, { token: migrator.token });
    expect(tags.body.map((t) => t.name)).toEqual(['v1.0']);
    // No remote is left configured in the new repository.
    const config = readFileSync(join(s.app.services.repos.repoPath(r.body.id), 'config'), 'utf8');
    expect(config).not.toMatch(/\[remote/);
  });

  it('imports a private repository with auth_username/auth_password and with auth_token; secrets are kept nowhere', async () => {
    const addr = `${s.url}/${owner.name}/${priv}.git`;
    const denied = await migrate({ clone_addr: addr, repo_name: uniqueName('nope') });
    expect(denied.status).toBe(422);
    expect((denied.body as unknown as { message: string }).message).toMatch(/^Authentication failed: /);

    const byPassword = uniqueName('pw');
    const r1 = await migrate({ clone_addr: addr, repo_name: byPassword, auth_username: owner.name, auth_password: owner.password });
    expect(r1.status).toBe(201);
    expect(r1.body.empty).toBe(false);
    expect(JSON.stringify(r1.body)).not.toContain(owner.password);
    expect(readFileSync(join(s.app.services.repos.repoPath(r1.body.id), 'config'), 'utf8')).not.toContain(owner.password);

    const byToken = uniqueName('tk');
    const r2 = await migrate({ clone_addr: addr, repo_name: byToken, auth_token: owner.token });
    expect(r2.status).toBe(201);
    expect(JSON.stringify(r2.body)).not.toContain(owner.token);
    expect(readFileSync(join(s.app.services.repos.repoPath(r2.body.id), 'config'), 'utf8')).not.toContain(owner.token);
    const readme = await s.client.get<{ content: string }>(`/repos/${migrator.name}/${byToken}/contents/README.md`, { token: migrator.token });
    expect(Buffer.from(readme.body.content, 'base64').toString()).toBe(`# ${priv}\n`);

    const wrong = await migrate({ clone_addr: addr, repo_name: uniqueName('bad'), auth_username: owner.name, auth_password: 'wrong-password' });
    expect(wrong.status).toBe(422);
    expect((wrong.body as unknown as { message: string }).message).toMatch(/^Authentication failed: /);
    expect((wrong.body as unknown as { message: string }).message).not.toContain('wrong-password');
  });

  it('refuses every address with the default [migrations] settings: 422, no row, no directory, no connection', async () => {
    const user = await plain.createUser();
    const before = repoDirs(plain);
    const l = await countingListener();
    try {
      for (const addr of [`http://127.0.0.1:${l.port}/x/y.git`, `git://127.0.0.1:${l.port}/y.git`, `https://localhost:${l.port}/y.git`, `http://[::1]:${l.port}/y.git`]) {
        const name = uniqueName('ref');
        const r = await migrate({ clone_addr: addr, repo_name: name }, user.token, plain);
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(plain, 'You can not import from disallowed hosts.'));
        expect((await plain.client.get(`/repos/${user.name}/${name}`, { token: user.token })).status).toBe(404);
      }
      expect(l.count()).toBe(0);
      expect(repoDirs(plain)).toEqual(before);
      expect(listDir(join(plain.app.config.repository.root, '.tmp'))).toEqual([]);
    } finally {
      await closeServer(l.server);
    }
  });

  it('refuses every spelling of loopback and git transport tricks with the default settings, without connecting', async () => {
    const user = await plain.createUser();
    const before = repoDirs(plain);
    const l = await countingListener();
    const l6 = await countingListener('::1');
    try {
      const p = l.port;
      const disallowed = [
        `http://0x7f.1:${p}/x.git`,
        `http://2130706433:${p}/x.git`,
        `http://017700000001:${p}/x.git`,
        `http://127.1:${p}/x.git`,
        `http://[::ffff:127.0.0.1]:${p}/x.git`,
        `http://[::ffff:7f00:1]:${p}/x.git`,
        `http://[0:0:0:0:0:ffff:7f00:1]:${p}/x.git`,
        `http://[::]:${p}/x.git`,
        `http://0.0.0.0:${p}/x.git`,
        `HTTP://LOCALHOST:${p}/x.git`,
        `http://localhost.:${p}/x.git`,
        `git://0x7f.1:${p}/x.git`,
        `git://2130706433:${p}/x.git`,
        `GIT://[::ffff:7f00:1]:${p}/x.git`,
        `git://localhost:${p}/x.git`,
        `http://[::1]:${l6.port}/x.git`,
        `git://[::1]:${l6.port}/x.git`,
      ];
      for (const addr of disallowed) {
        const name = uniqueName('spell');
        const r = await migrate({ clone_addr: addr, repo_name: name }, user.token, plain);
        expect([addr, r.status]).toEqual([addr, 422]);
        expect(r.body).toEqual(err(plain, 'You can not import from disallowed hosts.'));
        expect((await plain.client.get(`/repos/${user.name}/${name}`, { token: user.token })).status).toBe(404);
      }
      // Remote-helper and option syntax never reaches git as such.
      for (const addr of [`ext::sh -c touch% /tmp/anvil-pwned`, `fd::17`, `file::/etc`, `http::ext::sh`, `git::ext::sh`, `--upload-pack=touch /tmp/anvil-pwned`, `-uhttp://127.0.0.1:${p}/`]) {
        const r = await migrate({ clone_addr: addr, repo_name: uniqueName('tr') }, user.token, plain);
        expect([addr, r.status]).toEqual([addr, 422]);
        expect((r.body as unknown as { message: string }).message).toMatch(/^(You are not allowed to import local repositories\.|migration\/cloning from '.*' is not allowed: the provided url (is invalid|protocol is not allowed))$/);
      }
      expect(existsSync('/tmp/anvil-pwned')).toBe(false);
      expect(l.count()).toBe(0);
      expect(l6.count()).toBe(0);
      expect(repoDirs(plain)).toEqual(before);
    } finally {
      await closeServer(l.server);
      await closeServer(l6.server);
    }
  });

  it('with ALLOW_LOCALNETWORKS still refuses link-local (cloud metadata), CGNAT and tunnel addresses', async () => {
    for (const addr of ['http://169.254.169.254/latest/meta-data.git', 'http://[fe80::1]/x.git', 'http://[::ffff:169.254.169.254]/x.git', 'http://100.64.0.1/x.git', 'git://169.254.169.254/x.git', 'http://[64:ff9b::a9fe:a9fe]/x.git']) {
      const name = uniqueName('meta');
      const r = await migrate({ clone_addr: addr, repo_name: name });
      expect([addr, r.status]).toEqual([addr, 422]);
      expect(r.body).toEqual(err(s, 'You can not import from disallowed hosts.'));
      expect((await s.client.get(`/repos/${migrator.name}/${name}`, { token: migrator.token })).status).toBe(404);
    }
  });

  it('refuses local paths, credentials in the URL, other schemes and blocked hosts before connecting', async () => {
    const l = await countingListener();
    const l2 = await countingListener('127.0.0.2');
    try {
      for (const addr of ['file:///tmp/x.git', '/tmp/x.git', './x.git', 'x.git']) {
        const r = await migrate({ clone_addr: addr, repo_name: uniqueName('loc') });
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(s, 'You are not allowed to import local repositories.'));
      }
      const creds = await migrate({ clone_addr: `http://user:secret@127.0.0.1:${l.port}/x.git`, repo_name: uniqueName('cr') });
      expect(creds.status).toBe(422);
      expect(creds.body).toEqual(
        err(s, `migration/cloning from '127.0.0.1:${l.port}' is not allowed: the url must not contain credentials; use auth_username, auth_password or auth_token`),
      );
      const ssh = await migrate({ clone_addr: `ssh://127.0.0.1:${l.port}/x.git`, repo_name: uniqueName('ssh') });
      expect(ssh.status).toBe(422);
      expect(ssh.body).toEqual(err(s, `migration/cloning from '127.0.0.1:${l.port}' is not allowed: the provided url protocol is not allowed`));
      const blocked = await migrate({ clone_addr: `http://127.0.0.2:${l2.port}/x.git`, repo_name: uniqueName('blk') });
      expect(blocked.status).toBe(422);
      expect(blocked.body).toEqual(err(s, 'You can not import from disallowed hosts.'));
      expect(l.count()).toBe(0);
      expect(l2.count()).toBe(0);
    } finally {
      await closeServer(l.server);
      await closeServer(l2.server);
    }
  });

  it('follows a redirect to an allowed host and refuses one to a disallowed host without connecting to it', async () => {
    const l2 = await countingListener('127.0.0.2');
    let target = '';
    const redirector = createHttpServer((req, res) => {
      res.writeHead(302, { location: `${target}/info/refs?service=git-upload-pack` });
      res.end();
    });
    const port = await listen(redirector);
    try {
      target = `${s.url}/${owner.name}/${pub}.git`;
      const ok = await migrate({ clone_addr: `http://127.0.0.1:${port}/moved.git`, repo_name: uniqueName('redir') });
      expect(ok.status).toBe(201);
      expect(ok.body.empty).toBe(false);

      target = `http://127.0.0.2:${l2.port}/internal.git`;
      const name = uniqueName('redir');
      const refused = await migrate({ clone_addr: `http://127.0.0.1:${port}/moved.git`, repo_name: name });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(err(s, 'You can not import from disallowed hosts.'));
      expect(l2.count()).toBe(0);
      expect((await s.client.get(`/repos/${migrator.name}/${name}`, { token: migrator.token })).status).toBe(404);
    } finally {
      await closeServer(redirector);
      await closeServer(l2.server);
    }
  });

  (hasGitDaemon ? it : it.skip)('imports over git:// from a git daemon on loopback', async () => {
    const base = await git.dir('daemon');
    await git.ok(['clone', '--bare', tokenRemote(s.url, owner, pub), join(base, 'src.git')]);
    const probe = await countingListener();
    const port = probe.port;
    await closeServer(probe.server);
    let daemon: ChildProcess | undefined;
    try {
      daemon = spawn('git', ['daemon', '--reuseaddr', '--export-all', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${port}`, base], { stdio: 'ignore' });
      for (let i = 0; i < 50; i++) {
        const up = await new Promise<boolean>((r) => {
          const c = connect(port, '127.0.0.1', () => {
            c.destroy();
            r(true);
          });
          c.on('error', () => r(false));
        });
        if (up) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const name = uniqueName('gitd');
      const r = await migrate({ clone_addr: `git://127.0.0.1:${port}/src.git`, repo_name: name });
      expect(r.status).toBe(201);
      expect(r.body.original_url).toBe(`git://127.0.0.1:${port}/src.git`);
      const branches = await s.client.get<{ name: string }[]>(`/repos/${migrator.name}/${name}/branches`, { token: migrator.token });
      expect(branches.body.map((b) => b.name).sort()).toEqual(['dev', 'main']);
    } finally {
      daemon?.kill('SIGTERM');
    }
  });

  it('pins the host for git in every spelling: a trailing dot does not let curl resolve the name itself', async () => {
    const port = new URL(s.url).port;
    const work = await git.dir('pin');
    // `.invalid` never resolves: a clone only succeeds when curl uses the pinned address for the name git was given.
    const url = `http://anvil-pin.invalid.:${port}/${owner.name}/${pub}.git`;
    const pinned = pinnedResolve('anvil-pin.invalid', port, ['127.0.0.1']);
    expect(pinned).toEqual([`anvil-pin.invalid:${port}:127.0.0.1`, `anvil-pin.invalid.:${port}:127.0.0.1`]);
    expect(pinnedResolve('anvil-pin.invalid.', port, ['::1'])).toEqual([`anvil-pin.invalid:${port}:[::1]`, `anvil-pin.invalid.:${port}:[::1]`]);
    expect(pinnedResolve('127.0.0.1', port, ['127.0.0.1'])).toEqual([]);
    await cloneRemote({ url, resolve: pinned }, join(work, 'dot.git'));
    expect(existsSync(join(work, 'dot.git', 'HEAD'))).toBe(true);
    // An entry for the dotless spelling alone (what was handed to git before) leaves `name.` to curl's resolver.
    await expect(cloneRemote({ url, resolve: [pinned[0]!] }, join(work, 'unpinned.git'))).rejects.toThrow(/Could not resolve host/);
    expect(existsSync(join(work, 'unpinned.git'))).toBe(false);
    // End to end: a trailing dot is dropped before the probe, the check and git, and credentials still go along.
    const r = await migrate({ clone_addr: `http://localhost.:${port}/${owner.name}/${priv}.git`, repo_name: uniqueName('dot'), auth_token: owner.token });
    expect(r.status).toBe(201);
    expect(r.body.empty).toBe(false);
    expect(r.body.original_url).toBe(`http://localhost.:${port}/${owner.name}/${priv}.git`);
  });

  it('never echoes credentials of an address it cannot parse', async () => {
    for (const addr of ['http://user:s3cr/et@[::1/x.git', 'http://user:s3cret@exa mple.com/x.git']) {
      const r = await migrate({ clone_addr: addr, repo_name: uniqueName('cred') });
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).not.toContain('s3cr');
      expect((r.body as unknown as { message: string }).message).toMatch(/^migration\/cloning from 'http:\/\/[^@']*' is not allowed: the provided url is invalid$/);
    }
    const opaque = await migrate({ clone_addr: 'foo:user:s3cret@example.com', repo_name: uniqueName('cred') });
    expect(opaque.status).toBe(422);
    expect(opaque.body).toEqual(err(s, "migration/cloning from 'foo:example.com' is not allowed: the provided url protocol is not allowed"));
  });

  it('fires `repository created` once the import is done (and nothing for a failed one)', async () => {
    const rx = await startReceiver();
    const user = await s.createUser();
    try {
      const hook = await s.client.post('/user/hooks', { type: 'gitea', active: true, events: ['repository'], config: { url: rx.url, content_type: 'json' } }, { token: user.token });
      expect(hook.status).toBe(201);
      expect((await migrate({ clone_addr: `${s.url}/${owner.name}/missing.git`, repo_name: uniqueName('x') }, user.token)).status).toBe(422);
      const name = uniqueName('wh');
      expect((await migrate({ clone_addr: `${s.url}/${owner.name}/${pub}.git`, repo_name: name }, user.token)).status).toBe(201);
      const [created] = await rx.waitFor(1);
      expect(created!.headers['x-gitea-event']).toBe('repository');
      expect(created!.json).toMatchObject({ action: 'created', repository: { full_name: `${user.name}/${name}`, empty: false }, sender: { login: user.name } });
      expect(rx.deliveries.length).toBe(1);
    } finally {
      await rx.close();
    }
  });

  it('a failed clone leaves no row and no directory, and the name is free again', async () => {
    const name = uniqueName('fail');
    const before = repoDirs(s);
    const r = await migrate({ clone_addr: `${s.url}/${owner.name}/does-not-exist.git`, repo_name: name });
    expect(r.status).toBe(422);
    expect((r.body as unknown as { message: string }).message).toMatch(/^(Migration|Authentication) failed: /);
    expect((await s.client.get(`/repos/${migrator.name}/${name}`, { token: migrator.token })).status).toBe(404);
    expect(repoDirs(s)).toEqual(before);
    expect(listDir(join(s.app.config.repository.root, '.tmp'))).toEqual([]);
    const again = await migrate({ clone_addr: `${s.url}/${owner.name}/${pub}.git`, repo_name: name });
    expect(again.status).toBe(201);
  });

  it('shows the repository while the clone runs', async () => {
    // A proxy that holds git's pack request for a moment: meanwhile the repository exists, empty, status 1.
    const upstream = new URL(s.url);
    const proxy = createHttpServer((req, res) => {
      const forward = () => {
        const p = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        req.pipe(p);
      };
      if (req.method === 'POST') setTimeout(forward, 800);
      else forward();
    });
    const port = await listen(proxy);
    try {
      const name = uniqueName('slow');
      const pending = migrate({ clone_addr: `http://127.0.0.1:${port}/${owner.name}/${pub}.git`, repo_name: name });
      let seen: { status: number; body: Repo } | undefined;
      for (let i = 0; i < 40 && !seen; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const g = await s.client.get<Repo>(`/repos/${migrator.name}/${name}`, { token: migrator.token });
        if (g.status === 200) seen = g;
      }
      expect(seen?.body.empty).toBe(true);
      const row = await reposDb.getRepoById(s.app.database.db, seen!.body.id);
      expect(row?.status).toBe(1);
      // Reads answer like for an empty repository; git access waits for the end.
      const branches = await s.client.get(`/repos/${migrator.name}/${name}/branches`, { token: migrator.token });
      expect(branches.status).toBe(200);
      expect(branches.body).toEqual([]);
      const contents = await s.client.get(`/repos/${migrator.name}/${name}/contents`, { token: migrator.token });
      expect(contents.status).toBe(200);
      const clone = await git.run(['ls-remote', tokenRemote(s.url, migrator, name)]);
      expect(clone.code).not.toBe(0);
      const done = await pending;
      expect(done.status).toBe(201);
      expect((await reposDb.getRepoById(s.app.database.db, done.body.id))?.status).toBe(0);
    } finally {
      await closeServer(proxy);
    }
  });

  it('keeps credentials out of every git command line while the clone runs', async () => {
    const upstream = new URL(s.url);
    let waiting = 0;
    const proxy = createHttpServer((req, res) => {
      const forward = () => {
        const p = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        req.pipe(p);
      };
      if (req.method === 'POST') {
        waiting++;
        setTimeout(forward, 600);
      } else forward();
    });
    const port = await listen(proxy);
    try {
      const pending = migrate({ clone_addr: `http://127.0.0.1:${port}/${owner.name}/${priv}.git`, repo_name: uniqueName('argv'), auth_username: owner.name, auth_password: owner.password });
      for (let i = 0; i < 100 && waiting === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(waiting).toBeGreaterThan(0);
      const secrets = [owner.password, Buffer.from(`${owner.name}:${owner.password}`).toString('base64')];
      const lines: string[] = [];
      for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
        let cmd = '';
        try {
          cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        } catch {
          continue;
        }
        if (/\bgit\b|git-remote-http/.test(cmd) && cmd.includes(`127.0.0.1:${port}`)) lines.push(cmd);
      }
      // The clone is running (git and its http helper name the address) and no argument holds a secret.
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) for (const secret of secrets) expect(line).not.toContain(secret);
      const done = await pending;
      expect(done.status).toBe(201);
    } finally {
      await closeServer(proxy);
    }
  });

  it('removes migrations a dead process left behind, but not running ones', async () => {
    const db = s.app.database.db;
    const user = await s.app.services.users.resolveAny(migrator.name);
    const insert = (name: string, updatedUnix: number) =>
      reposDb.insertRepo(
        db,
        user.id,
        { name, description: '', defaultBranch: 'main', objectFormatName: 'sha1', trustModel: 'default', isPrivate: false, isTemplate: false, isEmpty: true, status: 1, numCommits: 0, settings: { ...DEFAULT_REPO_SETTINGS } },
        updatedUnix,
      );
    const now = Math.floor(Date.now() / 1000);
    const staleName = uniqueName('stale');
    const liveName = uniqueName('live');
    const staleId = await insert(staleName, now - 3600);
    await insert(liveName, now);
    expect(await s.app.services.migrations.sweepInterrupted()).toBe(1);
    expect(await reposDb.getRepoById(db, staleId)).toBeUndefined();
    expect(existsSync(s.app.services.repos.repoPath(staleId))).toBe(false);
    expect((await s.client.get(`/repos/${migrator.name}/${liveName}`, { token: migrator.token })).status).toBe(200);
  });

  (testDb() === 'sqlite' ? it : it.skip)('after a restart on SQLite nothing stays "being migrated"', async () => {
    const db = s.app.database.db;
    const user = await s.app.services.users.resolveAny(migrator.name);
    const name = uniqueName('crash');
    const id = await reposDb.insertRepo(
      db,
      user.id,
      { name, description: '', defaultBranch: 'main', objectFormatName: 'sha1', trustModel: 'default', isPrivate: false, isTemplate: false, isEmpty: true, status: 1, numCommits: 0, settings: { ...DEFAULT_REPO_SETTINGS } },
      Math.floor(Date.now() / 1000),
    );
    mkdirSync(s.app.services.repos.repoPath(id), { recursive: true });
    // A second start on the same configuration (what a restart after a crash sees).
    const again = await createApp({ config: s.app.config, log: createLogger('none') });
    try {
      await again.services.migrations.poke();
      expect(await reposDb.getRepoById(db, id)).toBeUndefined();
      expect(existsSync(s.app.services.repos.repoPath(id))).toBe(false);
    } finally {
      await again.close();
    }
  });

  it('concurrent migrations of one name: exactly one 201, the rest 409, one directory, case-insensitively', async () => {
    const addr = `${s.url}/${owner.name}/${pub}.git`;
    const name = uniqueName('race');
    const before = repoDirs(s);
    const results = await Promise.all([name, name.toUpperCase(), name, name.toLowerCase(), name].map((n) => migrate({ clone_addr: addr, repo_name: n })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual(err(s, 'The repository with the same name already exists.'));
    const winner = results.find((r) => r.status === 201)!;
    expect(repoDirs(s)).toEqual([...before, `${winner.body.id}.git`].sort());
    expect(listDir(join(s.app.config.repository.root, '.tmp'))).toEqual([]);
  });

  it('checks name, owner, interval and duplicates before anything is created', async () => {
    const addr = `${s.url}/${owner.name}/${pub}.git`;
    const taken = uniqueName('dup');
    expect((await migrate({ clone_addr: addr, repo_name: taken })).status).toBe(201);
    const dup = await migrate({ clone_addr: addr, repo_name: taken });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual(err(s, 'The repository with the same name already exists.'));
    const other = await migrate({ clone_addr: addr, repo_name: uniqueName('o'), repo_owner: owner.name });
    expect(other.status).toBe(403);
    expect(other.body).toEqual(err(s, 'Given user is not an organization.'));
    const ghost = await migrate({ clone_addr: addr, repo_name: uniqueName('g'), repo_owner: 'no-such-user-x' });
    expect(ghost.status).toBe(422);
    const asAdmin = await migrate({ clone_addr: addr, repo_name: uniqueName('adm'), repo_owner: owner.name }, s.admin.token);
    expect(asAdmin.status).toBe(201);
    expect(asAdmin.body.owner.login).toBe(owner.name);
    const badName = await migrate({ clone_addr: addr, repo_name: 'bad name' });
    expect(badName.status).toBe(422);
    const interval = await migrate({ clone_addr: addr, repo_name: uniqueName('iv'), mirror: true, mirror_interval: 'abc' });
    expect(interval.status).toBe(422);
    expect(interval.body).toEqual(err(s, 'time: invalid duration "abc"'));
    const short = await migrate({ clone_addr: addr, repo_name: uniqueName('iv'), mirror: true, mirror_interval: '5m' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual(err(s, 'invalid mirror interval: 5m0s is below minimum interval: 10m0s'));
    const anon = await s.client.post('/repos/migrate', { clone_addr: addr, repo_name: uniqueName('an') });
    expect(anon.status).toBe(401);
    const missing = await s.client.post('/repos/migrate', { repo_name: uniqueName('m') }, { token: migrator.token });
    expect(missing.status).toBe(422);
  });
});
