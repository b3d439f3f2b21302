import type { Db } from './index.js';

/** A pending repository transfer (Gitea's repo_transfer). */
export interface RepoTransferRecord {
  readonly id: number;
  readonly doerId: number;
  readonly recipientId: number;
  readonly repoId: number;
  readonly teamIds: readonly number[];
  readonly createdUnix: number;
}

function parseIds(text: string): number[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
}

export async function getPendingTransfer(db: Db, repoId: number): Promise<RepoTransferRecord | undefined> {
  const r = await db.selectFrom('repo_transfer').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
  return r && { id: r.id, doerId: r.doer_id, recipientId: r.recipient_id, repoId: r.repo_id, teamIds: parseIds(r.team_ids), createdUnix: r.created_unix };
}

/** Records a pending transfer; the unique repo_id makes a second one fail with a unique violation. */
export async function insertTransfer(db: Db, t: { doerId: number; recipientId: number; repoId: number; teamIds: readonly number[]; now: number }): Promise<void> {
  await db
    .insertInto('repo_transfer')
    .values({ doer_id: t.doerId, recipient_id: t.recipientId, repo_id: t.repoId, team_ids: JSON.stringify(t.teamIds), created_unix: t.now, updated_unix: t.now })
    .execute();
}

export async function deleteTransfer(db: Db, repoId: number): Promise<void> {
  await db.deleteFrom('repo_transfer').where('repo_id', '=', repoId).execute();
}
