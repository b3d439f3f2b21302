import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import openapi from '../generated/openapi.json' with { type: 'json' };
import { operations } from '../generated/operations.js';
import type { Config } from './config/index.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { handlers } from './handlers/index.js';
import { createApiHandler } from './http/api.js';
import { buildRouter } from './http/router.js';
import { createRequestListener } from './http/server.js';
import { CatFilePool } from './git/catfile.js';
import { createGitHttpHandler } from './http/git.js';
import { ValidatorFactory, type OperationValidator } from './http/validate.js';
import type { OperationId } from './handlers/kit.js';
import type { Logger } from './log.js';
import { createServices, type Services } from './services/index.js';
import { createDeliveryWorker, type DeliveryWorker } from './events/worker.js';

export interface App {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly services: Services;
  /** Sends webhook deliveries from the outbox (started with the app, stopped by close). */
  readonly webhookWorker: DeliveryWorker;
  readonly server: Server;
  /** Starts listening; resolves with the bound port. */
  listen(port?: number, host?: string): Promise<number>;
  /** Stops taking connections, lets requests in flight finish, closes the database. */
  close(): Promise<void>;
}

export interface AppOptions {
  readonly config: Config;
  readonly log: Logger;
  readonly clock?: () => number;
}

// Our Swagger document is read on the first /swagger.v1.json request, not at start-up (a few MB of RSS).
let swaggerText: Promise<string> | undefined;
const swaggerJson = (): Promise<string> =>
  (swaggerText ??= import('../generated/swagger.json', { with: { type: 'json' } }).then((m: { default: unknown }) => JSON.stringify(m.default, null, 2)));

export interface Validators {
  /** The operation's validator, compiled on its first request and kept (start-up stays flat in the operation count). */
  get(id: OperationId): OperationValidator;
  /** Compiles every operation now (contract tests: a bad schema fails early). */
  compileAll(): void;
}

export function compileValidators(): Validators {
  const factory = new ValidatorFactory(openapi as never);
  const byId = new Map(operations.map((e) => [e.operationId, e]));
  const cache = new Map<OperationId, OperationValidator>();
  const get = (id: OperationId): OperationValidator => {
    let v = cache.get(id);
    if (!v) {
      const entry = byId.get(id);
      if (!entry) throw new Error(`unknown operation ${id}`);
      v = factory.compile(entry.method, entry.path);
      cache.set(id, v);
    }
    return v;
  };
  return { get, compileAll: () => operations.forEach((e) => get(e.operationId)) };
}

/** The composition root: configuration in, a ready (migrated) server out. */
export async function createApp(opts: AppOptions): Promise<App> {
  const { config, log } = opts;
  const database = await openDatabase(config.database);
  try {
    const applied = await database.migrate();
    if (applied.length) log.info('database migrated', { applied });
  } catch (e) {
    await database.close().catch(() => {});
    throw e;
  }
  const catFile = new CatFilePool({ maxReaders: 32 });
  const services = createServices({ db: database.db, dialect: database.dialect, config, log, clock: opts.clock ?? Date.now, catFile });
  const api = createApiHandler({ config, log, services, router: buildRouter(operations), validators: compileValidators(), handlers });
  services.repos
    .sweepAbandoned()
    .then((n) => n && log.info('removed abandoned temporary repositories', { count: n }))
    .catch((e: unknown) => log.warn('sweeping temporary repositories failed', { err: String(e) }));
  const webhookWorker = createDeliveryWorker({ db: database.db, dialect: database.dialect, config, log, outbox: services.events });
  webhookWorker.start();
  // Pull-mirror scheduler; its first tick also removes migrations a dead process left "being migrated".
  services.migrations.start();
  const git = createGitHttpHandler({ services, log });
  const server = createServer(createRequestListener({ config, log, api, git, swaggerJson, ping: () => database.ping() }));
  server.keepAliveTimeout = 65_000;
  return {
    config,
    database,
    services,
    webhookWorker,
    server,
    listen(port = config.server.httpPort, host = config.server.httpAddr) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
      });
    },
    async close() {
      // Abort running clones and fetches first: their requests then finish (with an error) and the server can close.
      await services.migrations.stop();
      await new Promise<void>((resolve) => {
        // A keep-alive connection busy at close time turns idle once its response is sent; left alone it would
        // hold the server (and a SIGTERMed process) open for keepAliveTimeout, so sweep idle ones until done.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      await services.repos.settleMaintenance();
      await webhookWorker.stop();
      await catFile.closeAll();
      await database.close();
    },
  };
}
