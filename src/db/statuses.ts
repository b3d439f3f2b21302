import type { Selectable } from 'kysely';
import type { Db } from './index.js';
import type { CommitStatusTable } from './schema.js';
import type { CommitStatusRecord } from '../domain/status.js';

// Commit statuses (Gitea's commit_status table).

const toRecord = (r: Selectable<CommitStatusTable>): CommitStatusRecord => ({
  id: Number(r.id),
  index: Number(r.index),
  repoId: Number(r.repo_id),
  sha: r.sha,
  state: r.state,
  targetUrl: r.target_url,
  description: r.description,
  context: r.context,
  creatorId: Number(r.creator_id),
  createdUnix: Number(r.created_unix),
  updatedUnix: Number(r.updated_unix),
});

export interface NewCommitStatus {
  readonly repoId: number;
  readonly sha: string;
  readonly state: string;
  readonly targetUrl: string;
  readonly description: string;
  readonly context: string;
  readonly contextHash: string;
  readonly creatorId: number;
  readonly now: number;
}

/**
 * Inserts a status with the next index of its commit (run it in a transaction; a concurrent insert of
 * the same index fails on the unique constraint and may be retried).
 */
export async function insertCommitStatus(db: Db, s: NewCommitStatus): Promise<CommitStatusRecord> {
  const max = await db
    .selectFrom('commit_status')
    .select((eb) => eb.fn.max('index').as('m'))
    .where('repo_id', '=', s.repoId)
    .where('sha', '=', s.sha)
    .executeTakeFirst();
  const index = Number(max?.m ?? 0) + 1;
  const row = await db
    .insertInto('commit_status')
    .values({
      index,
      repo_id: s.repoId,
      sha: s.sha,
      state: s.state,
      target_url: s.targetUrl,
      description: s.description,
      context: s.context,
      context_hash: s.contextHash,
      creator_id: s.creatorId,
      created_unix: s.now,
      updated_unix: s.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export type StatusSort = 'oldest' | 'recentupdate' | 'leastupdate' | 'leastindex' | 'highestindex';

// Gitea's orders, including its swapped leastindex (index DESC) and highestindex (index ASC); id breaks ties.
const SORTS = {
  oldest: { column: 'created_unix', dir: 'asc' },
  recentupdate: { column: 'updated_unix', dir: 'desc' },
  leastupdate: { column: 'updated_unix', dir: 'asc' },
  leastindex: { column: 'index', dir: 'desc' },
  highestindex: { column: 'index', dir: 'asc' },
} as const;

/** Every status of a commit, filtered by state, sorted and paged (Gitea's CommitStatusOptions). */
export async function listCommitStatuses(
  db: Db,
  q: { repoId: number; sha: string; state?: string | undefined; sort?: StatusSort | undefined; offset: number; limit: number },
): Promise<{ statuses: CommitStatusRecord[]; total: number }> {
  let base = db.selectFrom('commit_status').where('repo_id', '=', q.repoId).where('sha', '=', q.sha);
  if (q.state) base = base.where('state', '=', q.state);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const order = q.sort ? SORTS[q.sort] : ({ column: 'created_unix', dir: 'desc' } as const);
  const rows = await base.selectAll().orderBy(order.column, order.dir).orderBy('id', order.dir).limit(q.limit).offset(q.offset).execute();
  return { statuses: rows.map(toRecord), total: Number(total.n) };
}

/**
 * The latest status (highest index) of each context of a commit, newest first, paged; `total` is the
 * number of contexts (Gitea's GetLatestCommitStatus).
 */
export async function latestCommitStatuses(
  db: Db,
  q: { repoId: number; sha: string; offset: number; limit: number },
): Promise<{ statuses: CommitStatusRecord[]; total: number }> {
  const latest = db
    .selectFrom('commit_status')
    .select((eb) => eb.fn.max('index').as('m'))
    .where('repo_id', '=', q.repoId)
    .where('sha', '=', q.sha)
    .groupBy('context_hash');
  const total = await db
    .selectFrom(latest.as('l'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const page = await latest.orderBy((eb) => eb.fn.max('index'), 'desc').limit(q.limit).offset(q.offset).execute();
  const indices = page.map((r) => Number(r.m));
  if (indices.length === 0) return { statuses: [], total: Number(total.n) };
  const rows = await db
    .selectFrom('commit_status')
    .selectAll()
    .where('repo_id', '=', q.repoId)
    .where('sha', '=', q.sha)
    .where('index', 'in', indices)
    .orderBy('index', 'desc')
    .execute();
  return { statuses: rows.map(toRecord), total: Number(total.n) };
}
