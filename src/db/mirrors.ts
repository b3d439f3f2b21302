import type { Selectable } from 'kysely';
import type { Db } from './index.js';
import type { Database } from './schema.js';

type MirrorRow = Selectable<Database['mirror']>;

/** A pull mirror: where it fetches from and when. Credentials stay in the database; the API never shows them. */
export interface Mirror {
  readonly id: number;
  readonly repoId: number;
  /** Seconds between periodic syncs; 0 = only on request. */
  readonly intervalSeconds: number;
  readonly enablePrune: boolean;
  readonly nextUpdateUnix: number;
  readonly updatedUnix: number;
  readonly syncRequested: boolean;
  readonly remoteAddress: string;
  readonly authUsername: string;
  readonly authPassword: string;
  readonly authToken: string;
  readonly lastError: string;
}

function rowToMirror(r: MirrorRow): Mirror {
  return {
    id: Number(r.id),
    repoId: Number(r.repo_id),
    intervalSeconds: Number(r.interval_seconds),
    enablePrune: !!r.enable_prune,
    nextUpdateUnix: Number(r.next_update_unix),
    updatedUnix: Number(r.updated_unix),
    syncRequested: !!r.sync_requested,
    remoteAddress: r.remote_address,
    authUsername: r.auth_username,
    authPassword: r.auth_password,
    authToken: r.auth_token,
    lastError: r.last_error,
  };
}

export interface NewMirror {
  readonly repoId: number;
  readonly intervalSeconds: number;
  readonly enablePrune: boolean;
  readonly nextUpdateUnix: number;
  readonly updatedUnix: number;
  readonly remoteAddress: string;
  readonly authUsername: string;
  readonly authPassword: string;
  readonly authToken: string;
}

export async function insertMirror(db: Db, m: NewMirror): Promise<void> {
  await db
    .insertInto('mirror')
    .values({
      repo_id: m.repoId,
      interval_seconds: m.intervalSeconds,
      enable_prune: m.enablePrune ? 1 : 0,
      next_update_unix: m.nextUpdateUnix,
      updated_unix: m.updatedUnix,
      sync_requested: 0,
      remote_address: m.remoteAddress,
      auth_username: m.authUsername,
      auth_password: m.authPassword,
      auth_token: m.authToken,
      last_error: '',
    })
    .execute();
}

export async function getMirrorByRepoId(db: Db, repoId: number): Promise<Mirror | undefined> {
  const r = await db.selectFrom('mirror').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
  return r ? rowToMirror(r) : undefined;
}

/** Mirrors whose sync was requested or whose periodic sync is due, oldest due first. */
export async function listDueMirrors(db: Db, now: number, limit: number): Promise<Mirror[]> {
  const rows = await db
    .selectFrom('mirror')
    .selectAll()
    .where((eb) => eb.or([eb('sync_requested', '=', 1), eb.and([eb('interval_seconds', '>', 0), eb('next_update_unix', '<=', now)])]))
    .orderBy('next_update_unix')
    .limit(limit)
    .execute();
  return rows.map(rowToMirror);
}

/**
 * Claims a due mirror for one sync: a compare-and-swap on the values it was read with, so of several processes
 * (PostgreSQL deployments) exactly one runs it. Moves the next periodic sync forward and clears the request.
 */
export async function claimMirror(db: Db, m: Mirror, nextUpdateUnix: number): Promise<boolean> {
  const r = await db
    .updateTable('mirror')
    .set({ next_update_unix: nextUpdateUnix, sync_requested: 0 })
    .where('id', '=', m.id)
    .where('next_update_unix', '=', m.nextUpdateUnix)
    .where('sync_requested', '=', m.syncRequested ? 1 : 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function requestMirrorSync(db: Db, repoId: number): Promise<void> {
  await db.updateTable('mirror').set({ sync_requested: 1 }).where('repo_id', '=', repoId).execute();
}

export async function recordMirrorSync(db: Db, repoId: number, updatedUnix: number, lastError: string): Promise<void> {
  const set: { last_error: string; updated_unix?: number } = { last_error: lastError };
  if (!lastError) set.updated_unix = updatedUnix;
  await db.updateTable('mirror').set(set).where('repo_id', '=', repoId).execute();
}

export async function updateMirrorSchedule(db: Db, repoId: number, intervalSeconds: number, nextUpdateUnix: number, enablePrune?: boolean): Promise<void> {
  await db
    .updateTable('mirror')
    .set({ interval_seconds: intervalSeconds, next_update_unix: nextUpdateUnix, ...(enablePrune === undefined ? {} : { enable_prune: enablePrune ? 1 : 0 }) })
    .where('repo_id', '=', repoId)
    .execute();
}

/** Repositories left in status 1 ("being migrated") whose migration stopped beating before `staleBefore`. */
export async function listStaleMigrations(db: Db, staleBefore: number): Promise<{ id: number; ownerId: number }[]> {
  const rows = await db.selectFrom('repository').select(['id', 'owner_id']).where('status', '=', 1).where('updated_unix', '<', staleBefore).execute();
  return rows.map((r) => ({ id: Number(r.id), ownerId: Number(r.owner_id) }));
}

export async function setMirrorPrune(db: Db, repoId: number, enablePrune: boolean): Promise<void> {
  await db.updateTable('mirror').set({ enable_prune: enablePrune ? 1 : 0 }).where('repo_id', '=', repoId).execute();
}
