import type { Config } from '../config/index.js';
import type { Db, DialectName } from '../db/index.js';
import type { Logger } from '../log.js';
import type { CatFilePool } from '../git/catfile.js';
import type { Outbox } from '../events/outbox.js';

/** What every service factory receives from app.ts. */
export interface ServiceDeps {
  readonly db: Db;
  readonly dialect: DialectName;
  readonly config: Config;
  readonly log: Logger;
  /** Milliseconds since the epoch; tests may pass a fixed clock. */
  readonly clock: () => number;
  /** Long-lived `git cat-file --batch` readers, shared by every service that reads git objects. */
  readonly catFile: CatFilePool;
  /** Webhook outbox: events become delivery rows inside the caller's transaction (createServices makes it). */
  readonly events: Outbox;
}

export const unixNow = (deps: ServiceDeps): number => Math.floor(deps.clock() / 1000);
