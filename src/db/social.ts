import type { Db } from './index.js';
import { rowToUser } from './users.js';
import type { User } from '../domain/user.js';

// Stars, topics and collaborations: small tables hanging off repositories.

export async function isStarred(db: Db, uid: number, repoId: number): Promise<boolean> {
  return !!(await db.selectFrom('star').select('id').where('uid', '=', uid).where('repo_id', '=', repoId).executeTakeFirst());
}

export async function insertStar(db: Db, uid: number, repoId: number, now: number): Promise<void> {
  await db.insertInto('star').values({ uid, repo_id: repoId, created_unix: now }).execute();
}

export async function deleteStar(db: Db, uid: number, repoId: number): Promise<boolean> {
  const r = await db.deleteFrom('star').where('uid', '=', uid).where('repo_id', '=', repoId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Recomputes repository.num_stars and user.num_stars from the star table. */
export async function refreshStarCounters(db: Db, uid: number, repoId: number): Promise<void> {
  const byRepo = await db.selectFrom('star').select((eb) => eb.fn.countAll<number>().as('n')).where('repo_id', '=', repoId).executeTakeFirstOrThrow();
  const byUser = await db.selectFrom('star').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', uid).executeTakeFirstOrThrow();
  await db.updateTable('repository').set({ num_stars: Number(byRepo.n) }).where('id', '=', repoId).execute();
  await db.updateTable('user').set({ num_stars: Number(byUser.n) }).where('id', '=', uid).execute();
}

export async function listStargazers(db: Db, repoId: number, offset: number, limit: number): Promise<{ users: User[]; total: number }> {
  const base = db.selectFrom('star').innerJoin('user', 'user.id', 'star.uid').where('star.repo_id', '=', repoId);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll('user').orderBy('star.id').limit(limit).offset(offset).execute();
  return { users: rows.map(rowToUser), total: Number(total.n) };
}

export interface TopicRecord {
  readonly id: number;
  readonly name: string;
  readonly repoCount: number;
  readonly createdUnix: number;
  readonly updatedUnix: number;
}
type TopicRow = { id: number; name: string; repo_count: number; created_unix: number; updated_unix: number };
const toTopic = (r: TopicRow): TopicRecord => ({ id: r.id, name: r.name, repoCount: r.repo_count, createdUnix: r.created_unix, updatedUnix: r.updated_unix });

export async function listRepoTopics(db: Db, repoId: number): Promise<TopicRecord[]> {
  const rows = await db.selectFrom('repo_topic').innerJoin('topic', 'topic.id', 'repo_topic.topic_id').selectAll('topic').where('repo_topic.repo_id', '=', repoId).orderBy('topic.name').execute();
  return rows.map(toTopic);
}

/** Replaces the topics of a repository and keeps topic.repo_count right (inside the caller's transaction). */
export async function setRepoTopics(db: Db, repoId: number, names: readonly string[], now: number): Promise<void> {
  const before = await listRepoTopics(db, repoId);
  await db.deleteFrom('repo_topic').where('repo_id', '=', repoId).execute();
  const touched = new Set(before.map((t) => t.id));
  for (const name of names) {
    let topic = await db.selectFrom('topic').select('id').where('name', '=', name).executeTakeFirst();
    if (!topic) topic = await db.insertInto('topic').values({ name, repo_count: 0, created_unix: now, updated_unix: now }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('repo_topic').values({ repo_id: repoId, topic_id: topic.id }).execute();
    touched.add(topic.id);
  }
  for (const id of touched) {
    const n = await db.selectFrom('repo_topic').select((eb) => eb.fn.countAll<number>().as('n')).where('topic_id', '=', id).executeTakeFirstOrThrow();
    await db.updateTable('topic').set({ repo_count: Number(n.n), updated_unix: now }).where('id', '=', id).execute();
  }
}

export async function searchTopics(db: Db, keyword: string, offset: number, limit: number): Promise<{ topics: TopicRecord[]; total: number }> {
  let base = db.selectFrom('topic').where('repo_count', '>', 0);
  if (keyword) base = base.where('name', 'like', `%${keyword.toLowerCase()}%`);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('repo_count', 'desc').orderBy('name').limit(limit).offset(offset).execute();
  return { topics: rows.map(toTopic), total: Number(total.n) };
}

export async function listCollaborators(db: Db, repoId: number, offset: number, limit: number): Promise<{ users: { user: User; mode: number }[]; total: number }> {
  const base = db.selectFrom('collaboration').innerJoin('user', 'user.id', 'collaboration.user_id').where('collaboration.repo_id', '=', repoId);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll('user').select('collaboration.mode as collab_mode').orderBy('user.lower_name').limit(limit).offset(offset).execute();
  return {
    total: Number(total.n),
    users: rows.map(({ collab_mode, ...u }) => ({ user: rowToUser(u), mode: collab_mode })),
  };
}

export async function upsertCollaborator(db: Db, repoId: number, userId: number, mode: number, now: number): Promise<void> {
  const updated = await db.updateTable('collaboration').set({ mode, updated_unix: now }).where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await db.insertInto('collaboration').values({ repo_id: repoId, user_id: userId, mode, created_unix: now, updated_unix: now }).execute();
  }
}

export async function deleteCollaborator(db: Db, repoId: number, userId: number): Promise<boolean> {
  const r = await db.deleteFrom('collaboration').where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
