import { sql, type Selectable } from 'kysely';
import type { Db, DialectName } from './index.js';
import type { HookTaskTable, WebhookTable } from './schema.js';

export type WebhookRow = Selectable<WebhookTable>;
export type HookTaskRow = Selectable<HookTaskTable>;

/** Which hooks a listing or lookup covers. */
export type HookOwnerFilter =
  | { readonly kind: 'repo'; readonly repoId: number }
  | { readonly kind: 'owner'; readonly ownerId: number }
  | { readonly kind: 'admin' };

function scoped(db: Db, f: HookOwnerFilter) {
  const q = db.selectFrom('webhook').selectAll();
  if (f.kind === 'repo') return q.where('repo_id', '=', f.repoId);
  if (f.kind === 'owner') return q.where('owner_id', '=', f.ownerId).where('repo_id', 'is', null);
  return q.where('repo_id', 'is', null).where('owner_id', 'is', null);
}

export async function listHooks(db: Db, f: HookOwnerFilter, page?: { offset: number; limit: number }): Promise<{ rows: WebhookRow[]; total: number }> {
  let q = scoped(db, f).orderBy('id', 'asc');
  if (page) q = q.offset(page.offset).limit(page.limit);
  const rows = await q.execute();
  if (!page) return { rows, total: rows.length };
  const c = await scoped(db, f).clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(c.n) };
}

export const getHook = (db: Db, f: HookOwnerFilter, id: number): Promise<WebhookRow | undefined> =>
  scoped(db, f).where('id', '=', id).executeTakeFirst();

export const getHookById = (db: Db, id: number): Promise<WebhookRow | undefined> =>
  db.selectFrom('webhook').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertHook(db: Db, row: Omit<WebhookRow, 'id'>): Promise<number> {
  const r = await db.insertInto('webhook').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateHook(db: Db, id: number, patch: Partial<Omit<WebhookRow, 'id'>>): Promise<void> {
  await db.updateTable('webhook').set(patch).where('id', '=', id).execute();
}

export async function deleteHook(db: Db, id: number): Promise<number> {
  const r = await db.deleteFrom('webhook').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Active hooks that may receive an event of a repository: its own, its owner's and the system hooks. */
export function activeHooksFor(db: Db, repoId: number | null, ownerId: number): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhook')
    .selectAll()
    .where('is_active', '=', 1)
    .where((eb) =>
      eb.or([
        ...(repoId !== null ? [eb('repo_id', '=', repoId)] : []),
        eb.and([eb('owner_id', '=', ownerId), eb('repo_id', 'is', null)]),
        eb.and([eb('is_system_webhook', '=', 1), eb('repo_id', 'is', null), eb('owner_id', 'is', null)]),
      ]),
    )
    .orderBy('id')
    .execute();
}

/** Default hooks (site templates), copied into each new repository. */
export const defaultHooks = (db: Db): Promise<WebhookRow[]> =>
  db.selectFrom('webhook').selectAll().where('repo_id', 'is', null).where('owner_id', 'is', null).where('is_system_webhook', '=', 0).execute();

export interface NewTask {
  readonly hook_id: number;
  readonly uuid: string;
  readonly event_type: string;
  readonly payload: string;
  readonly created_ms: number;
}

export async function insertTasks(db: Db, tasks: readonly NewTask[]): Promise<void> {
  if (tasks.length === 0) return;
  await db
    .insertInto('hook_task')
    .values(tasks.map((t) => ({ ...t, next_attempt_ms: t.created_ms, is_delivered: 0, is_succeed: 0, attempts: 0, claimed_by: '', claim_until_ms: 0, delivered_ms: 0 })))
    .execute();
}

/** A claimed task with what delivery needs of its hook. */
export type ClaimedTask = HookTaskRow & { readonly hook: WebhookRow };

/**
 * Claims up to `limit` due, undelivered tasks for `claimer` until `leaseUntil` (ms). On PostgreSQL the rows are
 * picked with FOR UPDATE SKIP LOCKED, so concurrent claimers on other processes never take the same row; an
 * expired lease (a crashed claimer) makes the row claimable again. SQLite has one writer; the update is atomic.
 */
export async function claimTasks(db: Db, dialect: DialectName, claimer: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedTask[]> {
  let ids: number[];
  if (dialect === 'postgres') {
    const r = await sql<{ id: number }>`
      update hook_task set claimed_by = ${claimer}, claim_until_ms = ${leaseUntil}
      where id in (
        select id from hook_task
        where is_delivered = 0 and next_attempt_ms <= ${now} and claim_until_ms < ${now}
        order by next_attempt_ms, id
        limit ${limit}
        for update skip locked)
      returning id`.execute(db);
    ids = r.rows.map((x) => Number(x.id));
  } else {
    const r = await sql<{ id: number }>`
      update hook_task set claimed_by = ${claimer}, claim_until_ms = ${leaseUntil}
      where id in (
        select id from hook_task
        where is_delivered = 0 and next_attempt_ms <= ${now} and claim_until_ms < ${now}
        order by next_attempt_ms, id
        limit ${limit})
      returning id`.execute(db);
    ids = r.rows.map((x) => Number(x.id));
  }
  if (ids.length === 0) return [];
  const tasks = await db.selectFrom('hook_task').selectAll().where('id', 'in', ids).orderBy('id').execute();
  const hookIds = [...new Set(tasks.map((t) => t.hook_id))];
  const hooks = new Map((await db.selectFrom('webhook').selectAll().where('id', 'in', hookIds).execute()).map((h) => [h.id, h]));
  const out: ClaimedTask[] = [];
  for (const t of tasks) {
    const hook = hooks.get(t.hook_id);
    if (hook) out.push({ ...t, hook });
  }
  return out;
}

/** The earliest time (ms) a pending task becomes due, or null when none is pending. */
export async function nextDue(db: Db): Promise<number | null> {
  const r = await db
    .selectFrom('hook_task')
    .select((eb) => [eb.fn.min('next_attempt_ms').as('due'), eb.fn.min('claim_until_ms').as('lease')])
    .where('is_delivered', '=', 0)
    .executeTakeFirst();
  if (!r || r.due === null || r.due === undefined) return null;
  return Math.max(Number(r.due), Number(r.lease ?? 0) + 1);
}

export interface AttemptRecord {
  readonly attempt: number;
  readonly isSucceed: boolean;
  readonly request: string;
  readonly response: string;
  readonly error: string;
  readonly startedMs: number;
  readonly durationMs: number;
}

/**
 * Records an attempt and moves the task on: delivered (success or attempts exhausted) or due again at `retryAt`.
 * Only the current claimer may do it (a lease taken over meanwhile makes this a no-op for the task row).
 */
export async function finishAttempt(db: Db, taskId: number, claimer: string, a: AttemptRecord, outcome: { delivered: boolean; retryAt: number }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('hook_task')
      .set({
        attempts: a.attempt,
        is_delivered: outcome.delivered ? 1 : 0,
        is_succeed: a.isSucceed ? 1 : 0,
        next_attempt_ms: outcome.retryAt,
        claimed_by: '',
        claim_until_ms: 0,
        delivered_ms: outcome.delivered ? a.startedMs + a.durationMs : 0,
      })
      .where('id', '=', taskId)
      .where('claimed_by', '=', claimer)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return;
    await trx
      .insertInto('hook_task_attempt')
      .values({ task_id: taskId, attempt: a.attempt, is_succeed: a.isSucceed ? 1 : 0, request: a.request, response: a.response, error: a.error, started_ms: a.startedMs, duration_ms: a.durationMs })
      .execute();
  });
}

/** Gives claimed tasks back (clean shutdown before they were sent). */
export async function releaseClaims(db: Db, claimer: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('hook_task').set({ claimed_by: '', claim_until_ms: 0 }).where('claimed_by', '=', claimer).where('id', 'in', ids).where('is_delivered', '=', 0).execute();
}

export const tasksOfHook = (db: Db, hookId: number) => db.selectFrom('hook_task').selectAll().where('hook_id', '=', hookId).orderBy('id').execute();

export const attemptsOfTask = (db: Db, taskId: number) => db.selectFrom('hook_task_attempt').selectAll().where('task_id', '=', taskId).orderBy('attempt').execute();

/**
 * Deletes up to `limit` delivered tasks (their attempts go with them) delivered before `beforeMs`; returns how
 * many. Callers loop: one bounded statement at a time keeps a first run over a long history from holding the
 * database (and, on SQLite, the event loop) for long.
 */
export async function deleteDeliveredBefore(db: Db, beforeMs: number, limit: number): Promise<number> {
  const r = await sql`
    delete from hook_task where id in (
      select id from hook_task where is_delivered = 1 and delivered_ms < ${beforeMs} order by id limit ${limit})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** Deletes up to `limit` of the delivered tasks beyond each hook's `keep` most recently delivered; returns how many. */
export async function deleteDeliveredBeyond(db: Db, keep: number, limit: number): Promise<number> {
  const r = await sql`
    delete from hook_task where id in (
      select id from (
        select id, row_number() over (partition by hook_id order by delivered_ms desc, id desc) as n
        from hook_task where is_delivered = 1) ranked
      where n > ${keep} order by id limit ${limit})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
