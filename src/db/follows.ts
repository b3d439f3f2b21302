import type { Db } from './index.js';
import { rowToUser } from './users.js';
import type { User } from '../domain/user.js';

export async function isFollowing(db: Db, userId: number, followId: number): Promise<boolean> {
  return !!(await db.selectFrom('follow').select('id').where('user_id', '=', userId).where('follow_id', '=', followId).executeTakeFirst());
}

export async function insertFollow(db: Db, userId: number, followId: number, now: number): Promise<void> {
  await db.insertInto('follow').values({ user_id: userId, follow_id: followId, created_unix: now }).execute();
}

export async function deleteFollow(db: Db, userId: number, followId: number): Promise<boolean> {
  const r = await db.deleteFrom('follow').where('user_id', '=', userId).where('follow_id', '=', followId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Which accounts a list may show (Gitea's isUserVisibleToViewerCond): those with a visibility code in `codes`,
 * plus, when `viewerId` is set, the viewer themself, the users who follow the viewer and the members of the
 * viewer's organizations.
 */
export interface FollowListVisibility {
  readonly codes: readonly number[];
  readonly viewerId?: number;
}

/** Followers of `userId` (direction 'followers') or users `userId` follows ('following'), newest first. */
export async function listFollowLinks(
  db: Db,
  userId: number,
  direction: 'followers' | 'following',
  visible: FollowListVisibility | null,
  offset: number,
  limit: number,
): Promise<{ users: User[]; total: number }> {
  const [mine, other] = direction === 'followers' ? (['follow.follow_id', 'follow.user_id'] as const) : (['follow.user_id', 'follow.follow_id'] as const);
  let base = db.selectFrom('follow').innerJoin('user', 'user.id', other).where(mine, '=', userId);
  if (visible) {
    const viewerId = visible.viewerId;
    base = base.where((eb) =>
      viewerId === undefined
        ? eb('user.visibility', 'in', visible.codes)
        : eb.or([
            eb('user.visibility', 'in', visible.codes),
            eb('user.id', '=', viewerId),
            // Users who follow the viewer are visible to them whatever their visibility.
            eb('user.id', 'in', eb.selectFrom('follow as f2').select('f2.user_id').where('f2.follow_id', '=', viewerId)),
            // So are members of the viewer's organizations.
            eb(
              'user.id',
              'in',
              eb
                .selectFrom('org_user as m1')
                .innerJoin('org_user as m2', 'm2.org_id', 'm1.org_id')
                .select('m1.uid')
                .where('m2.uid', '=', viewerId),
            ),
          ]),
    );
  }
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll('user').orderBy('follow.id', 'desc').limit(limit).offset(offset).execute();
  return { users: rows.map(rowToUser), total: Number(total.n) };
}

/** Recomputes the follower/following counters of the given users from the follow table. */
export async function refreshFollowCounters(db: Db, userIds: readonly number[]): Promise<void> {
  for (const id of userIds) {
    const followers = await db.selectFrom('follow').select((eb) => eb.fn.countAll<number>().as('n')).where('follow_id', '=', id).executeTakeFirstOrThrow();
    const following = await db.selectFrom('follow').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', id).executeTakeFirstOrThrow();
    await db.updateTable('user').set({ num_followers: Number(followers.n), num_following: Number(following.n) }).where('id', '=', id).execute();
  }
}
