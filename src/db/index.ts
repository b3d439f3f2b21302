import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, CompiledQuery } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import type pgTypes from 'pg';
import type { Config } from '../config/index.js';
import type { Database } from './schema.js';
import { migrationProvider, LATEST_MIGRATION } from './migrations.js';

export type DialectName = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: DialectName;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** The newest applied migration, or null on an empty database. */
  schemaVersion(): Promise<string | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const EXPECTED_SCHEMA_VERSION = LATEST_MIGRATION;

/** PostgreSQL connection string built from the [database] section (Gitea's HOST may carry ':port'). */
export function postgresUrl(cfg: Config['database']): string {
  const [host, port] = cfg.host.includes(':') ? cfg.host.split(':') : [cfg.host, '5432'];
  const auth = cfg.passwd ? `${encodeURIComponent(cfg.user)}:${encodeURIComponent(cfg.passwd)}` : encodeURIComponent(cfg.user);
  const ssl = cfg.sslMode === 'disable' ? '' : `?sslmode=${cfg.sslMode}`;
  return `postgres://${auth}@${host}:${port}/${encodeURIComponent(cfg.name)}${ssl}`;
}

/** Opens (and for SQLite creates) the database; the pg driver is loaded only when PostgreSQL is configured. */
export async function openDatabase(cfg: Config['database']): Promise<DatabaseHandle> {
  let db: Db;
  let dialect: DialectName;
  if (cfg.type === 'postgres') {
    dialect = 'postgres';
    const pg = (await import('pg')).default as typeof pgTypes;
    const pool = new pg.Pool({
      connectionString: postgresUrl(cfg),
      max: 10,
      // int8 and numeric come back as strings by default; our ids and unix times fit in a double.
      types: {
        getTypeParser: (oid: number, format?: 'text' | 'binary') =>
          oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
      } as pgTypes.CustomTypesConfig,
    });
    // A dropped idle connection must not crash the process.
    pool.on('error', () => {});
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    dialect = 'sqlite';
    mkdirSync(dirname(cfg.path), { recursive: true });
    const sqlite = new SqliteDatabase(cfg.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  }
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  let closing: Promise<void> | undefined;
  return {
    db,
    dialect,
    async migrate() {
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    },
    async schemaVersion() {
      const all = await migrator.getMigrations();
      const applied = all.filter((m) => m.executedAt !== undefined);
      return applied.length ? applied[applied.length - 1]!.name : null;
    },
    async ping() {
      await db.executeQuery(CompiledQuery.raw('select 1'));
    },
    // Idempotent: shutdown paths (SIGTERM, tests, CLI) may each close it.
    close: () => (closing ??= db.destroy()),
  };
}

/**
 * Kysely prepares every query again; preparing is most of a point read's cost in SQLite. Our queries are
 * few distinct texts, so prepared statements are kept by SQL text (bounded). Kysely runs one query at a time
 * on this connection, so a statement is never used by two queries at once.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, max = 500): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (sqlText: string) => {
    let st = cache.get(sqlText);
    if (!st) {
      st = sqlite.prepare(sqlText);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(sqlText, st);
    }
    return st;
  };
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return prepare;
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** A unique index refused the write (both dialects). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string } | null;
  return !!err && (err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY');
}

/** The database is momentarily unable to take the write (SQLite busy/locked, PostgreSQL serialization). */
export function isTransientDbError(e: unknown): boolean {
  const err = e as { code?: string } | null;
  return !!err && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED' || err.code === '40001' || err.code === '40P01' || err.code === '57P03');
}

export const bool = (v: boolean): number => (v ? 1 : 0);
export { sql };
