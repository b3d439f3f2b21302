import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log.js';
import { ApiClient } from './client.js';

export type TestDb = 'sqlite' | 'postgres';

/** The database this jest project runs on (set by test/setup/*.ts). */
export const testDb = (): TestDb => (process.env.ANVIL_TEST_DB === 'postgres' ? 'postgres' : 'sqlite');
export const postgresAvailable = (): boolean => process.env.ANVIL_TEST_PG_AVAILABLE === '1';
/** `describe` for suites that need a database: on the PostgreSQL project without PostgreSQL they are skipped. */
export const describeDb: jest.Describe = (testDb() === 'postgres' && !postgresAvailable() ? describe.skip : describe) as jest.Describe;

export interface TestUser {
  readonly id: number;
  readonly name: string;
  readonly password: string;
  readonly email: string;
  /** A token with scope "all". */
  readonly token: string;
}

export interface TestServer {
  readonly app: App;
  readonly url: string;
  readonly client: ApiClient;
  readonly dir: string;
  /** The site administrator created at start. */
  readonly admin: TestUser;
  /** Creates a user through the services (not the API) with an all-scope token. */
  createUser(opts?: { name?: string; admin?: boolean; visibility?: 'public' | 'limited' | 'private'; restricted?: boolean; scopes?: string[] }): Promise<TestUser>;
  /** Creates a token for an existing user. */
  createToken(userName: string, scopes: string[], name?: string): Promise<string>;
  close(): Promise<void>;
}

let seq = 0;
export const uniqueName = (prefix = 'u'): string => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}${randomBytes(2).toString('hex')}`;

/** A fresh PostgreSQL database on the test server (ANVIL_TEST_PG_URL); `drop()` removes it. */
export async function createPgDatabase(): Promise<{ name: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: process.env.ANVIL_TEST_PG_URL });
  await admin.connect();
  const name = `anvil_t_${randomBytes(6).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    name,
    async drop() {
      const c = new pg.Client({ connectionString: process.env.ANVIL_TEST_PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** An in-process server on a temp directory and port 0, on this project's database. */
export async function startServer(opts: { overrides?: Record<string, Record<string, string>>; db?: TestDb } = {}): Promise<TestServer> {
  const db = opts.db ?? testDb();
  const dir = mkdtempSync(join(tmpdir(), 'anvil-test-'));
  const overrides: Record<string, Record<string, string>> = {
    server: { HTTP_ADDR: '127.0.0.1', HTTP_PORT: '0', APP_DATA_PATH: dir },
    log: { LEVEL: process.env.ANVIL_TEST_LOG ?? 'none' },
    // Suites send thousands of requests from one address; the limits have their own tests (api/ratelimit).
    rate_limit: { ENABLED: 'false' },
    ...opts.overrides,
  };
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  if (db === 'postgres') {
    pgDb = await createPgDatabase();
    const u = new URL(process.env.ANVIL_TEST_PG_URL!);
    overrides.database = { DB_TYPE: 'postgres', HOST: `${u.hostname}:${u.port || '5432'}`, NAME: pgDb.name, USER: decodeURIComponent(u.username || 'postgres'), PASSWD: decodeURIComponent(u.password), ...overrides.database };
  }
  // ROOT_URL must carry the real port, which is known only after listening: listen first on a fixed app? Instead
  // bind a probe port here and pass it in.
  const port = await freePort();
  overrides.server = { ...overrides.server, HTTP_PORT: String(port), ROOT_URL: `http://127.0.0.1:${port}/`, ...opts.overrides?.server };
  const { config } = loadConfig({ cwd: dir, env: {}, overrides });
  const app = await createApp({ config, log: createLogger(config.log.level) });
  await app.listen(port, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;

  const createToken = async (userName: string, scopes: string[], name = uniqueName('tok')) => {
    const user = await app.services.users.resolveAny(userName);
    return (await app.services.tokens.create(user, name, scopes)).token;
  };
  const createUser: TestServer['createUser'] = async (o = {}) => {
    const name = o.name ?? uniqueName();
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const email = `${name}@example.com`;
    const user = await app.services.users.createUser({
      username: name,
      email,
      password,
      admin: o.admin ?? false,
      mustChangePassword: false,
      visibility: o.visibility,
      restricted: o.restricted,
    });
    const token = await createToken(name, o.scopes ?? ['all']);
    return { id: user.id, name, password, email, token };
  };
  const admin = await createUser({ name: 'root', admin: true });
  return {
    app,
    url,
    client: new ApiClient(url),
    dir,
    admin,
    createUser,
    createToken,
    async close() {
      await app.close();
      if (pgDb) await pgDb.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
