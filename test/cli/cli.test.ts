// The command line: runCli() in-process for the admin and doctor commands, and the built binary
// (dist/src/cli/bin.js) spawned for real, including `web` with its environment override, JSON logs and SIGTERM.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp, type App } from '../../src/app.js';
import { runCli } from '../../src/cli/index.js';
import { loadConfig } from '../../src/config/index.js';
import { EXPECTED_SCHEMA_VERSION } from '../../src/db/index.js';
import { createLogger } from '../../src/log.js';
import { ApiClient } from '../helpers/client.js';
import { createPgDatabase, describeDb, testDb, uniqueName } from '../helpers/server.js';

// Spawned processes and in-process servers on PostgreSQL take seconds; jest's default is 5 s.
jest.setTimeout(30_000);

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'dist/src/cli/bin.js');
const TOKEN = /^[0-9a-f]{40}$/;

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** A temp directory with an app.ini on this project's database (a fresh PostgreSQL database on the postgres project). */
interface Site {
  readonly dir: string;
  readonly file: string;
  readonly port: number;
  /** The [database] lines for this project's database ('' on SQLite). */
  readonly dbSection: string;
  /** Rewrites app.ini: the base settings, then `extra` (more sections, or the same sections again). */
  write(extra?: string, opts?: { rootUrl?: boolean; port?: boolean }): void;
  cleanup(): Promise<void>;
}

async function makeSite(): Promise<Site> {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-cli-'));
  const file = join(dir, 'app.ini');
  const port = await freePort();
  let dbSection = '';
  let drop: (() => Promise<void>) | undefined;
  if (testDb() === 'postgres') {
    const pg = await createPgDatabase();
    drop = pg.drop;
    const u = new URL(process.env.ANVIL_TEST_PG_URL!);
    dbSection = [
      '[database]',
      'DB_TYPE = postgres',
      `HOST = ${u.hostname}:${u.port || '5432'}`,
      `NAME = ${pg.name}`,
      `USER = ${decodeURIComponent(u.username || 'postgres')}`,
      ...(u.password ? [`PASSWD = ${decodeURIComponent(u.password)}`] : []),
      '',
    ].join('\n');
  }
  const site: Site = {
    dir,
    file,
    port,
    dbSection,
    write(extra = '', o = {}) {
      const server = ['[server]', `APP_DATA_PATH = ${dir}`, 'HTTP_ADDR = 127.0.0.1'];
      if (o.port !== false) server.push(`HTTP_PORT = ${port}`);
      if (o.rootUrl !== false) server.push(`ROOT_URL = http://127.0.0.1:${port}/`);
      writeFileSync(file, `; written by test/cli/cli.test.ts\n${server.join('\n')}\n\n${dbSection}\n${extra}\n`);
    },
    async cleanup() {
      if (drop) await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  site.write();
  return site;
}

interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** runCli in-process with captured output and a controlled environment. */
async function cli(argv: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { env, cwd: tmpdir(), out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** An in-process server on a site's configuration (the CLI's database is the server's database). */
async function serve(site: Site): Promise<{ app: App; client: ApiClient; url: string }> {
  const { config } = loadConfig({ file: site.file, env: {} });
  const app = await createApp({ config, log: createLogger('none') });
  await app.listen(site.port, '127.0.0.1');
  const url = `http://127.0.0.1:${site.port}`;
  return { app, client: new ApiClient(url), url };
}

describeDb('anvil CLI in-process', () => {
  let site: Site;
  beforeAll(async () => {
    site = await makeSite();
  });
  afterAll(async () => site?.cleanup());

  describe('admin user create and generate-access-token', () => {
    it('creates users whose generated tokens work against a server on the same configuration', async () => {
      const plain = uniqueName('cli');
      const boss = uniqueName('boss');
      const c1 = await cli(['admin', 'user', 'create', '--config', site.file, '--username', plain, '--password', 'password-1', '--email', `${plain}@example.com`]);
      expect(c1).toEqual({ code: 0, out: `New user '${plain}' has been successfully created!`, err: '' });
      const c2 = await cli(['admin', 'user', 'create', '--config', site.file, '--username', boss, '--password', 'password-2', '--email', `${boss}@example.com`, '--admin']);
      expect(c2).toEqual({ code: 0, out: `New user '${boss}' has been successfully created!`, err: '' });

      const t1 = await cli(['admin', 'user', 'generate-access-token', '--config', site.file, '--username', plain, '--token-name', 'ci', '--scopes', 'all', '--raw']);
      expect(t1.code).toBe(0);
      expect(t1.err).toBe('');
      expect(t1.out).toMatch(TOKEN);
      const t2 = await cli(['admin', 'user', 'generate-access-token', '--config', site.file, '--username', boss, '--token-name', 'ci', '--scopes', 'all']);
      expect(t2.code).toBe(0);
      expect(t2.err).toBe('');
      const m = /^Access token was successfully created: ([0-9a-f]{40})$/.exec(t2.out);
      expect(m).not.toBeNull();

      const s = await serve(site);
      try {
        const me = await s.client.get('/user', { token: t1.out });
        expect(me.status).toBe(200);
        expect(me.body).toMatchObject({ login: plain, email: `${plain}@example.com`, is_admin: false });
        const bossMe = await s.client.get('/user', { token: m![1] });
        expect(bossMe.status).toBe(200);
        expect(bossMe.body).toMatchObject({ login: boss, is_admin: true });
        // The password given on the command line signs in; the admin flag opens the admin API.
        const viaPassword = await s.client.get('/admin/users', { basic: [boss, 'password-2'] });
        expect(viaPassword.status).toBe(200);
        expect(viaPassword.body.map((u: { login: string }) => u.login)).toEqual(expect.arrayContaining([plain, boss]));
        const tokens = await s.client.get(`/users/${plain}/tokens`, { basic: [plain, 'password-1'] });
        expect(tokens.status).toBe(200);
        expect(tokens.body).toEqual([expect.objectContaining({ name: 'ci', scopes: ['all'], token_last_eight: t1.out.slice(-8) })]);
      } finally {
        await s.app.close();
      }
    });

    it('--must-change-password=true gates the account; =false and the default leave it usable', async () => {
      const gated = uniqueName('mcp');
      const free = uniqueName('mcp');
      const base = ['admin', 'user', 'create', '--config', site.file, '--password', 'password-1'];
      expect((await cli([...base, '--username', gated, '--email', `${gated}@example.com`, '--must-change-password=true'])).code).toBe(0);
      expect((await cli([...base, '--username', free, '--email', `${free}@example.com`, '--must-change-password=false'])).code).toBe(0);
      const token = async (u: string) => (await cli(['admin', 'user', 'generate-access-token', '--config', site.file, '--username', u, '--token-name', 't', '--raw'])).out;
      const gatedToken = await token(gated);
      const freeToken = await token(free);
      expect(gatedToken).toMatch(TOKEN);
      expect(freeToken).toMatch(TOKEN);

      const s = await serve(site);
      try {
        const denied = await s.client.get('/user', { token: gatedToken });
        expect(denied.status).toBe(403);
        expect(denied.body).toEqual({ message: `You must change your password. Change it at: http://127.0.0.1:${site.port}//user/change_password` });
        const ok = await s.client.get('/user', { token: freeToken });
        expect(ok.status).toBe(200);
        expect(ok.body.login).toBe(free);
      } finally {
        await s.app.close();
      }
    });

    it('fails with a message for a taken name (any case), a short password, a bad e-mail and a bad flag value', async () => {
      const name = uniqueName('dup');
      const create = (username: string, password: string, email: string, ...more: string[]) =>
        cli(['admin', 'user', 'create', '--config', site.file, '--username', username, '--password', password, '--email', email, ...more]);
      expect((await create(name, 'password-1', `${name}@example.com`)).code).toBe(0);

      expect(await create(name.toUpperCase(), 'password-1', `other-${name}@example.com`)).toEqual({
        code: 1,
        out: '',
        err: `error: user already exists [name: ${name.toUpperCase()}]`,
      });
      expect(await create(`${name}x`, 'password-1', `${name}@example.com`)).toEqual({ code: 1, out: '', err: `error: e-mail already in use [email: ${name}@example.com]` });
      expect(await create(`${name}y`, 'short', `${name}y@example.com`)).toEqual({
        code: 1,
        out: '',
        err: 'error: password is too short: at least 8 characters are required ([security] MIN_PASSWORD_LENGTH)',
      });
      const badEmail = await create(`${name}z`, 'password-1', 'not-an-email');
      expect(badEmail.code).toBe(1);
      expect(badEmail.out).toBe('');
      expect(badEmail.err).toMatch(/^error: e-mail .*\[email: not-an-email\]$/);
      expect(await create(`${name}w`, 'password-1', `${name}w@example.com`, '--must-change-password=maybe')).toEqual({
        code: 1,
        out: '',
        err: 'error: --must-change-password must be true or false, got "maybe"',
      });
      expect(await create('bad name!', 'password-1', `${name}v@example.com`)).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/^error: .*bad name!/) });

      const missing = await cli(['admin', 'user', 'create', '--config', site.file, '--username', `${name}q`, '--password', 'password-1']);
      expect(missing.code).not.toBe(0);
      expect(missing.err).toContain("required option '--email <email>' not specified");

      // None of the failures left a user behind.
      const s = await serve(site);
      try {
        for (const n of [`${name}x`, `${name}y`, `${name}z`, `${name}w`]) {
          const r = await s.client.get(`/users/${n}`);
          expect(r.status).toBe(404);
          expect(r.body).toEqual({ message: "The target couldn't be found.", url: `http://127.0.0.1:${site.port}/api/swagger` });
        }
      } finally {
        await s.app.close();
      }
    });

    it('generate-access-token: scopes are honoured; unknown user, reused name and bad scopes fail', async () => {
      const name = uniqueName('tok');
      expect((await cli(['admin', 'user', 'create', '--config', site.file, '--username', name, '--password', 'password-1', '--email', `${name}@example.com`])).code).toBe(0);
      const gen = (...more: string[]) => cli(['admin', 'user', 'generate-access-token', '--config', site.file, '--username', name, ...more]);

      const readOnly = await gen('--token-name', 'ro', '--scopes', 'read:user', '--raw');
      expect(readOnly.code).toBe(0);
      expect(readOnly.out).toMatch(TOKEN);
      expect(await gen('--token-name', 'ro', '--scopes', 'all')).toEqual({ code: 1, out: '', err: 'error: access token name has been used already' });
      expect(await gen('--token-name', 'bad', '--scopes', 'read:everything')).toEqual({
        code: 1,
        out: '',
        err: 'error: invalid access token scope provided: invalid access token scope: read:everything',
      });
      expect(await cli(['admin', 'user', 'generate-access-token', '--config', site.file, '--username', 'nobody-here', '--token-name', 'x', '--raw'])).toEqual({
        code: 1,
        out: '',
        err: 'error: user does not exist [name: nobody-here]',
      });

      const s = await serve(site);
      try {
        const me = await s.client.get('/user', { token: readOnly.out });
        expect(me.status).toBe(200);
        expect(me.body.login).toBe(name);
        const write = await s.client.patch('/user/settings', { full_name: 'x' }, { token: readOnly.out });
        expect(write.status).toBe(403);
        expect(write.body).toEqual({ message: expect.stringContaining('required=[write:user]'), url: `http://127.0.0.1:${site.port}/api/swagger` });
      } finally {
        await s.app.close();
      }
    });
  });

  describe('doctor', () => {
    it('reports the configuration, the schema version and the repository root as ok', async () => {
      const fresh = await makeSite();
      try {
        const first = await cli(['doctor', '--config', fresh.file]);
        expect(first.code).toBe(0);
        expect(first.err).toBe('');
        const dbType = testDb() === 'postgres' ? 'postgres' : 'sqlite3';
        const lines = first.out.split('\n');
        expect(lines[0]).toBe(`configuration: ok (database ${dbType}, repositories in ${join(fresh.dir, 'repositories')})`);
        // A fresh database is migrated by doctor, which says so.
        expect(lines[1]).toMatch(new RegExp(`^database: ok \\(schema ${EXPECTED_SCHEMA_VERSION}, applied .*${EXPECTED_SCHEMA_VERSION}\\)$`));
        expect(lines).toContain(`repository root: ok (${join(fresh.dir, 'repositories')})`);
        expect(lines[lines.length - 1]).toBe('no problems found');
        expect(existsSync(join(fresh.dir, 'repositories'))).toBe(true);

        const second = await cli(['doctor', '--config', fresh.file]);
        expect(second.code).toBe(0);
        expect(second.out.split('\n')[1]).toBe(`database: ok (schema ${EXPECTED_SCHEMA_VERSION})`);
      } finally {
        await fresh.cleanup();
      }
    });

    it('reports a repository row whose directory is missing, and a directory no row owns', async () => {
      const fresh = await makeSite();
      try {
        const owner = uniqueName('doc');
        expect((await cli(['admin', 'user', 'create', '--config', fresh.file, '--username', owner, '--password', 'password-1', '--email', `${owner}@example.com`])).code).toBe(0);
        const s = await serve(fresh);
        let repoId: number;
        try {
          const basic = { basic: [owner, 'password-1'] as [string, string] };
          const created = await s.client.post('/user/repos', { name: 'kept' }, basic);
          expect(created.status).toBe(201);
          const lost = await s.client.post('/user/repos', { name: 'lost' }, basic);
          expect(lost.status).toBe(201);
          repoId = lost.body.id;
        } finally {
          await s.app.close();
        }
        const ok = await cli(['doctor', '--config', fresh.file]);
        expect(ok.code).toBe(0);
        expect(ok.out.split('\n')).toContain('repositories: 2 checked');
        const root = join(fresh.dir, 'repositories');
        rmSync(join(root, `${repoId}.git`), { recursive: true, force: true });
        mkdirSync(join(root, '999999.git'));
        const bad = await cli(['doctor', '--config', fresh.file]);
        expect(bad.code).toBe(1);
        expect(bad.err).toBe(`problem: repository ${owner}/lost (id ${repoId}) has no directory ${join(root, `${repoId}.git`)}`);
        expect(bad.out.split('\n')).toContain(`note: ${join(root, '999999.git')} belongs to no repository`);
      } finally {
        await fresh.cleanup();
      }
    });

    it('an unknown section or key is a warning, not a failure (file and environment)', async () => {
      site.write('[server]\nNOT_A_GITEA_KEY = 1\n[made_up]\nX = 1\n');
      try {
        const r = await cli(['doctor', '--config', site.file], { ANVIL__SERVER__ALSO_UNKNOWN: 'y' });
        expect(r.code).toBe(0);
        expect(r.out.split('\n').pop()).toBe('no problems found');
        expect(r.err.split('\n').sort()).toEqual(
          [
            `warning: ${site.file}: unknown setting [server] NOT_A_GITEA_KEY is ignored`,
            `warning: ${site.file}: unknown section [made_up] is ignored`,
            'warning: environment ANVIL__SERVER__ALSO_UNKNOWN: unknown setting [server] ALSO_UNKNOWN is ignored',
          ].sort(),
        );
      } finally {
        site.write();
      }
    });

    it('an unreadable or invalid configuration fails with an error naming the file or key', async () => {
      const missing = join(site.dir, 'nope.ini');
      const r1 = await cli(['doctor', '--config', missing]);
      expect(r1.code).toBe(1);
      expect(r1.out).toBe('');
      expect(r1.err).toMatch(new RegExp(`^error: cannot read configuration file ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ENOENT`));

      const r2 = await cli(['doctor', '--config', site.dir]);
      expect(r2.code).toBe(1);
      expect(r2.err).toMatch(/^error: cannot read configuration file .*EISDIR/);

      const bad = join(site.dir, 'bad.ini');
      const cases: [string, string][] = [
        ['[database]\nDB_TYPE = mysql\n', 'error: [database] DB_TYPE: "mysql" is not one of sqlite3, postgres'],
        ['[server]\nHTTP_PORT = eighty\n', 'error: [server] HTTP_PORT: "eighty" is not an integer'],
        ['[server]\nHTTP_PORT = 70000\n', 'error: [server] HTTP_PORT: 70000 is not a port number'],
        ['[server]\nROOT_URL = ftp://example.com/\n', 'error: [server] ROOT_URL: "ftp://example.com/" is not an http(s) URL'],
        ['[service]\nREQUIRE_SIGNIN_VIEW = sometimes\n', 'error: [service] REQUIRE_SIGNIN_VIEW: "sometimes" is not a boolean (true or false)'],
        ['[server]\nthis line has no equals sign\n', `error: ${bad}: line 2: expected KEY = value, got "this line has no equals sign"`],
      ];
      for (const [text, message] of cases) {
        writeFileSync(bad, text);
        expect(await cli(['doctor', '--config', bad])).toEqual({ code: 1, out: '', err: message });
      }

      // The environment is validated the same way and names the key.
      expect(await cli(['doctor', '--config', site.file], { ANVIL__DATABASE__DB_TYPE: 'mysql' })).toEqual({
        code: 1,
        out: '',
        err: 'error: [database] DB_TYPE: "mysql" is not one of sqlite3, postgres',
      });
    });

    it('reports an unusable database or repository root as a problem and exits non-zero', async () => {
      const broken = await makeSite();
      try {
        // SQLite: PATH is a directory; PostgreSQL: a database that does not exist.
        const dbLines = testDb() === 'postgres' ? broken.dbSection.replace(/^NAME = .*$/m, 'NAME = anvil_does_not_exist') : `[database]\nPATH = ${broken.dir}\n`;
        const notADir = join(broken.dir, 'a-file');
        writeFileSync(notADir, 'x');
        writeFileSync(
          broken.file,
          `[server]\nAPP_DATA_PATH = ${broken.dir}\nHTTP_PORT = ${broken.port}\n${dbLines}\n[repository]\nROOT = ${notADir}\n`,
        );
        const r = await cli(['doctor', '--config', broken.file]);
        expect(r.code).toBe(1);
        expect(r.out.split('\n')[0]).toMatch(/^configuration: ok/);
        expect(r.out).not.toContain('no problems found');
        const problems = r.err.split('\n');
        expect(problems).toHaveLength(2);
        expect(problems[0]).toMatch(testDb() === 'postgres' ? /^problem: database: .*anvil_does_not_exist.*does not exist/ : /^problem: database: .+/);
        expect(problems[1]).toBe(`problem: repository root ${notADir}: not a directory`);
      } finally {
        await broken.cleanup();
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The built binary, spawned for real.

/** Newest modification time of the files under `dir` (recursively), in ms. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(cmd, args, { cwd: ROOT, env: opts.env ?? process.env, timeout: opts.timeout ?? 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      res({ code, stdout, stderr });
    });
  });
}

/** Collects a child's stdout lines and lets a test wait for one. */
class LineWatcher {
  readonly lines: string[] = [];
  private waiters: { pred: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  private partial = '';
  constructor(stream: NodeJS.ReadableStream) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (this.partial + chunk).split('\n');
      this.partial = parts.pop()!;
      for (const line of parts) {
        this.lines.push(line);
        this.waiters = this.waiters.filter((w) => (w.pred(line) ? (w.resolve(line), false) : true));
      }
    });
  }
  wait(pred: (l: string) => boolean, ms = 15_000): Promise<string> {
    const seen = this.lines.find(pred);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((res, rej) => {
      const t = setTimeout(() => rej(new Error(`timed out waiting for a log line; got:\n${this.lines.join('\n')}`)), ms);
      this.waiters.push({ pred, resolve: (l) => (clearTimeout(t), res(l)) });
    });
  }
}

const parseJson = (l: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(l);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

describeDb('anvil binary (dist/src/cli/bin.js)', () => {
  let site: Site;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    // Build when the binary is missing or older than the sources, so the spawned code is the code under test.
    // Both jest projects may get here at once: one builds, the other waits (a lock directory, broken when stale).
    const lock = join(tmpdir(), `anvil-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.lock`);
    const deadline = Date.now() + 240_000;
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        if (Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    try {
      const binTime = existsSync(BIN) ? statSync(BIN).mtimeMs : 0;
      if (binTime < Math.max(newestMtime(join(ROOT, 'src')), newestMtime(join(ROOT, 'generated')))) {
        const b = await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { timeout: 240_000 });
        if (!existsSync(BIN)) throw new Error(`build failed (${b.code}):\n${b.stdout}\n${b.stderr}`);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    site = await makeSite();
  }, 300_000);
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await site?.cleanup();
  });

  it('admin user create and generate-access-token: exit codes, stdout and stderr', async () => {
    const name = uniqueName('bin');
    const created = await run('node', [BIN, 'admin', 'user', 'create', '--config', site.file, '--username', name, '--password', 'password-1', '--email', `${name}@example.com`, '--admin']);
    expect(created).toEqual({ code: 0, stdout: `New user '${name}' has been successfully created!\n`, stderr: '' });
    const again = await run('node', [BIN, 'admin', 'user', 'create', '--config', site.file, '--username', name, '--password', 'password-1', '--email', `x${name}@example.com`]);
    expect(again).toEqual({ code: 1, stdout: '', stderr: `error: user already exists [name: ${name}]\n` });
    const token = await run('node', [BIN, 'admin', 'user', 'generate-access-token', '--config', site.file, '--username', name, '--token-name', 'bin', '--scopes', 'all', '--raw']);
    expect(token.code).toBe(0);
    expect(token.stderr).toBe('');
    expect(token.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    const doctor = await run('node', [BIN, 'doctor', '--config', join(site.dir, 'missing.ini')]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toBe('');
    expect(doctor.stderr).toMatch(/^error: cannot read configuration file .*missing\.ini: ENOENT/);
   }, 60_000);

  it('web: ANVIL__SERVER__HTTP_PORT wins, logs are JSON lines, SIGTERM finishes the request in flight and exits 0', async () => {
    const name = uniqueName('web');
    expect((await cli(['admin', 'user', 'create', '--config', site.file, '--username', name, '--password', 'password-1', '--email', `${name}@example.com`, '--admin'])).code).toBe(0);
    const token = (await cli(['admin', 'user', 'generate-access-token', '--config', site.file, '--username', name, '--token-name', 'web', '--raw'])).out;
    expect(token).toMatch(TOKEN);

    // The file says one port; the environment overrides it. ROOT_URL is left to its default, derived from the port.
    site.write('[log]\nLEVEL = info\n[server]\nSOMETHING_UNKNOWN = 1\n', { rootUrl: false });
    const envPort = await freePort();
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ANVIL__SERVER__HTTP_PORT: String(envPort) };
    child = spawn('node', [BIN, 'web', '--config', site.file], { cwd: site.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = child;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => proc.once('exit', (code, signal) => res({ code, signal })));
    const out = new LineWatcher(proc.stdout!);
    let stderr = '';
    proc.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));

    await out.wait((l) => parseJson(l)?.msg === 'listening');
    const base = `http://127.0.0.1:${envPort}`;
    const health = await fetch(`${base}/api/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'pass' });
    // Nothing listens on the port of the file.
    await expect(fetch(`http://127.0.0.1:${site.port}/api/healthz`)).rejects.toThrow();

    const client = new ApiClient(base);
    const me = await client.get('/user', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ login: name, is_admin: true });
    const anon = await client.get('/user');
    expect(anon.status).toBe(401);
    // Default ROOT_URL = http://localhost:<HTTP_PORT>/, with the overridden port.
    expect(anon.body).toEqual({ message: 'token is required', url: `http://localhost:${envPort}/api/swagger` });

    // A request in flight: headers and half of the body now, the rest after SIGTERM has been received.
    const newUser = uniqueName('late');
    const body = JSON.stringify({ username: newUser, email: `${newUser}@example.com`, password: 'password-1', must_change_password: false });
    const agent = new Agent({ keepAlive: true });
    const req = httpRequest(`${base}/api/v1/admin/users`, {
      method: 'POST',
      agent,
      headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    const response = new Promise<{ status: number; text: string }>((res, rej) => {
      req.on('response', (r) => {
        let text = '';
        r.setEncoding('utf8').on('data', (c: string) => (text += c));
        r.on('end', () => res({ status: r.statusCode ?? 0, text }));
      });
      req.on('error', rej);
    });
    req.flushHeaders();
    req.write(body.slice(0, 20));
    await new Promise((r) => setTimeout(r, 100));
    proc.kill('SIGTERM');
    await out.wait((l) => parseJson(l)?.msg === 'shutting down, finishing requests in flight');
    await new Promise((r) => setTimeout(r, 200));
    expect(proc.exitCode).toBeNull(); // still serving the request in flight
    req.end(body.slice(20));
    const res = await response;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text)).toMatchObject({ login: newUser, email: `${newUser}@example.com` });

    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([exited, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 10_000)))]);
    clearTimeout(timer);
    agent.destroy();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(stderr).toBe('');

    // Every stdout line is one JSON object; each request is logged with its id, method, path, status and duration.
    const records = out.lines.filter((l) => l !== '').map((l) => ({ line: l, json: parseJson(l) }));
    expect(records.filter((r) => r.json === undefined)).toEqual([]);
    const json = records.map((r) => r.json!);
    expect(json.find((j) => j.level === 'warn' && String(j.msg).includes('SOMETHING_UNKNOWN'))).toBeDefined();
    const requests = json.filter((j) => j.msg === 'request');
    for (const r of requests) {
      expect(r).toEqual(expect.objectContaining({ requestId: expect.any(String), method: expect.any(String), path: expect.any(String), status: expect.any(Number), durationMs: expect.any(Number) }));
    }
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'GET', path: '/api/v1/user', status: 200 }),
        expect.objectContaining({ method: 'GET', path: '/api/v1/user', status: 401 }),
        expect.objectContaining({ method: 'POST', path: '/api/v1/admin/users', status: 201 }),
      ]),
    );
    expect(new Set(requests.map((r) => r.requestId)).size).toBe(requests.length);
  }, 60_000);
});
