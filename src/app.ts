import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import openapi from '../generated/openapi.json' with { type: 'json' };
import swagger from '../generated/swagger.json' with { type: 'json' };
import { operations } from '../generated/operations.js';
import type { Config } from './config/index.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { handlers } from './handlers/index.js';
import { createApiHandler } from './http/api.js';
import { buildRouter } from './http/router.js';
import { createHttpApp } from './http/server.js';
import { ValidatorFactory, type OperationValidator } from './http/validate.js';
import type { OperationId } from './handlers/kit.js';
import type { Logger } from './log.js';
import { createServices, type Services } from './services/index.js';

export interface App {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly services: Services;
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

const swaggerText = JSON.stringify(swagger, null, 2);

/** Compiles one validator per operation, once. */
export function compileValidators(): Map<OperationId, OperationValidator> {
  const factory = new ValidatorFactory(openapi as never);
  const out = new Map<OperationId, OperationValidator>();
  for (const entry of operations) out.set(entry.operationId, factory.compile(entry.method, entry.path));
  return out;
}

/** The composition root: configuration in, a ready (migrated) server out. */
export async function createApp(opts: AppOptions): Promise<App> {
  const { config, log } = opts;
  const database = openDatabase(config.database);
  try {
    const applied = await database.migrate();
    if (applied.length) log.info('database migrated', { applied });
  } catch (e) {
    await database.close().catch(() => {});
    throw e;
  }
  const services = createServices({ db: database.db, dialect: database.dialect, config, log, clock: opts.clock ?? Date.now });
  const api = createApiHandler({ config, log, services, router: buildRouter(operations), validators: compileValidators(), handlers });
  const express = createHttpApp({ config, log, api, swaggerJson: swaggerText, ping: () => database.ping() });
  const server = createServer(express);
  server.keepAliveTimeout = 65_000;
  return {
    config,
    database,
    services,
    server,
    listen(port = config.server.httpPort, host = config.server.httpAddr) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
      });
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await database.close();
    },
  };
}
