import { Command, CommanderError } from 'commander';
import { existsSync, mkdirSync, accessSync, statSync, readdirSync, constants } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../app.js';
import { loadConfig, ConfigError, type Config } from '../config/index.js';
import { openDatabase, EXPECTED_SCHEMA_VERSION } from '../db/index.js';
import { createLogger, type Logger } from '../log.js';
import { createServices } from '../services/index.js';
import { CatFilePool } from '../git/catfile.js';
import { AppError } from '../domain/errors.js';
import { getUserByName } from '../db/users.js';
import { listRepoLocations } from '../db/repos.js';
import { ANVIL_VERSION } from '../version.js';

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  out(line: string): void;
  err(line: string): void;
}

function load(file: string | undefined, io: CliIo, log?: Logger): Config {
  const { config, warnings } = loadConfig({ file, env: io.env, cwd: io.cwd });
  for (const w of warnings) {
    if (log) log.warn(w);
    else io.err(`warning: ${w}`);
  }
  return config;
}

/** Runs one CLI invocation; resolves with the exit code (the web command resolves only at shutdown). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = new Command();
  program.name('anvil').description('Self-hosted git service with a Gitea-compatible API').version(ANVIL_VERSION);
  program.exitOverride();
  program.configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  let exitCode = 0;

  program
    .command('web')
    .description('start the web server')
    .option('-c, --config <file>', 'app.ini configuration file')
    .option('-p, --port <port>', 'port to listen on (overrides [server] HTTP_PORT)')
    .action(async (opts: { config?: string; port?: string }) => {
      const { config: base, warnings } = loadConfig({
        file: opts.config,
        env: io.env,
        cwd: io.cwd,
        overrides: opts.port ? { server: { HTTP_PORT: opts.port } } : undefined,
      });
      const log = createLogger(base.log.level);
      for (const w of warnings) log.warn(w);
      mkdirSync(base.repository.root, { recursive: true });
      const app = await createApp({ config: base, log });
      const port = await app.listen();
      log.info('listening', { addr: base.server.httpAddr, port, rootUrl: base.server.rootUrl, database: app.database.dialect });
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          log.info('shutting down, finishing requests in flight', { signal });
          app.close().then(resolve, (e: unknown) => {
            log.error('shutdown failed', { err: String(e) });
            resolve();
          });
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
    });

  const admin = program.command('admin').description('administration commands');
  const user = admin.command('user').description('manage users');
  user
    .command('create')
    .description('create a user')
    .option('-c, --config <file>', 'app.ini configuration file')
    .requiredOption('--username <name>', 'user name')
    .requiredOption('--password <password>', 'password')
    .requiredOption('--email <email>', 'e-mail address')
    .option('--admin', 'make the user a site administrator', false)
    .option('--must-change-password [bool]', 'require a password change at first sign-in (default false here)', 'false')
    .action(async (opts: { config?: string; username: string; password: string; email: string; admin: boolean; mustChangePassword: string | boolean }) => {
      const mcp = opts.mustChangePassword === true || String(opts.mustChangePassword).toLowerCase() === 'true';
      if (!['true', 'false'].includes(String(opts.mustChangePassword).toLowerCase())) {
        throw new CliFailure(`--must-change-password must be true or false, got "${String(opts.mustChangePassword)}"`);
      }
      await withServices(load(opts.config, io), async (services, cfg) => {
        const u = await services.users
          .createUser({
            username: opts.username,
            password: opts.password,
            email: opts.email,
            admin: opts.admin,
            mustChangePassword: mcp,
          })
          .catch((e: unknown) => {
            // The API keeps Gitea's terse 'PasswordIsRequired' (clients match on it); an operator deserves the rule.
            if (e instanceof AppError && e.message === 'PasswordIsRequired') {
              throw new CliFailure(`password is too short: at least ${cfg.security.minPasswordLength} characters are required ([security] MIN_PASSWORD_LENGTH)`);
            }
            throw e;
          });
        io.out(`New user '${u.name}' has been successfully created!`);
      });
    });
  user
    .command('generate-access-token')
    .description('create a personal access token')
    .option('-c, --config <file>', 'app.ini configuration file')
    .requiredOption('-u, --username <name>', 'user name')
    .option('-t, --token-name <name>', 'token name', 'gitea-admin')
    .option('--scopes <scopes>', 'comma-separated scopes', 'all')
    .option('--raw', 'print only the token', false)
    .action(async (opts: { config?: string; username: string; tokenName: string; scopes: string; raw: boolean }) => {
      await withServices(load(opts.config, io), async (services, cfg) => {
        const db = await openDatabase(cfg.database);
        const owner = await getUserByName(db.db, opts.username).finally(() => db.close());
        if (!owner) throw new CliFailure(`user does not exist [name: ${opts.username}]`);
        const t = await services.tokens.create(owner, opts.tokenName, opts.scopes.split(','));
        io.out(opts.raw ? t.token : `Access token was successfully created: ${t.token}`);
      });
    });

  program
    .command('doctor')
    .description('check the configuration, database schema and repository root')
    .option('-c, --config <file>', 'app.ini configuration file')
    .action(async (opts: { config?: string }) => {
      const problems: string[] = [];
      const cfg = load(opts.config, io);
      io.out(`configuration: ok (database ${cfg.database.type}, repositories in ${cfg.repository.root})`);
      // Opening can itself fail (an SQLite PATH that is a directory): that is a problem to report, not a crash.
      let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
      try {
        db = await openDatabase(cfg.database);
        await db.ping();
        const applied = await db.migrate();
        const version = await db.schemaVersion();
        io.out(`database: ok (schema ${version}${applied.length ? `, applied ${applied.join(', ')}` : ''})`);
        if (version !== EXPECTED_SCHEMA_VERSION) problems.push(`database schema is ${version}, expected ${EXPECTED_SCHEMA_VERSION}`);
        // A crash between a create's row insert and its final rename (or a directory removed by hand) leaves a
        // row without a repository on disk; the other way round, a directory nobody owns.
        const locations = await listRepoLocations(db.db);
        const known = new Set<string>();
        for (const r of locations) {
          const dir = join(cfg.repository.root, `${r.id}.git`);
          known.add(`${r.id}.git`);
          if (!existsSync(dir)) problems.push(`repository ${r.ownerName}/${r.name} (id ${r.id}) has no directory ${dir}`);
        }
        const orphans = existsSync(cfg.repository.root) ? readdirSync(cfg.repository.root).filter((n) => /^\d+\.git$/.test(n) && !known.has(n)) : [];
        for (const n of orphans) io.out(`note: ${join(cfg.repository.root, n)} belongs to no repository`);
        io.out(`repositories: ${locations.length} checked`);
      } catch (e) {
        problems.push(`database: ${(e as Error).message}`);
      } finally {
        await db?.close().catch(() => {});
      }
      try {
        if (!existsSync(cfg.repository.root)) mkdirSync(cfg.repository.root, { recursive: true });
        if (!statSync(cfg.repository.root).isDirectory()) throw new Error('not a directory');
        accessSync(cfg.repository.root, constants.W_OK);
        io.out(`repository root: ok (${cfg.repository.root})`);
      } catch (e) {
        problems.push(`repository root ${cfg.repository.root}: ${(e as Error).message}`);
      }
      if (!cfg.security.secretKey) io.out('note: [security] SECRET_KEY is empty');
      for (const p of problems) io.err(`problem: ${p}`);
      if (problems.length) exitCode = 1;
      else io.out('no problems found');
    });

  try {
    await program.parseAsync(['node', 'anvil', ...argv]);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : e.exitCode || 2;
    if (e instanceof CliFailure || e instanceof ConfigError || e instanceof AppError) {
      io.err(`error: ${e.message}`);
      return 1;
    }
    io.err(`error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  return exitCode;
}

class CliFailure extends Error {}

async function withServices<T>(config: Config, fn: (s: ReturnType<typeof createServices>, cfg: Config) => Promise<T>): Promise<T> {
  const db = await openDatabase(config.database);
  try {
    await db.migrate();
    const log = createLogger('warn', () => {});
    const catFile = new CatFilePool({ maxReaders: 2 });
    try {
      return await fn(createServices({ db: db.db, dialect: db.dialect, config, log, clock: Date.now, catFile }), config);
    } finally {
      await catFile.closeAll();
    }
  } finally {
    await db.close();
  }
}
