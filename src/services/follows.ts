import type { User } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as followsDb from '../db/follows.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';

export function createFollowService(deps: ServiceDeps) {
  const { db } = deps;

  /** Following oneself is a no-op, as in Gitea; following twice is too. */
  async function follow(user: User, target: User): Promise<void> {
    if (user.id === target.id) return;
    try {
      await db.transaction().execute(async (trx) => {
        if (await followsDb.isFollowing(trx, user.id, target.id)) return;
        await followsDb.insertFollow(trx, user.id, target.id, unixNow(deps));
        await followsDb.refreshFollowCounters(trx, [user.id, target.id]);
      });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e; // a concurrent identical follow already did it
    }
  }

  async function unfollow(user: User, target: User): Promise<void> {
    await db.transaction().execute(async (trx) => {
      if (await followsDb.deleteFollow(trx, user.id, target.id)) await followsDb.refreshFollowCounters(trx, [user.id, target.id]);
    });
  }

  const isFollowing = (user: User, target: User) => followsDb.isFollowing(db, user.id, target.id);

  /** The other side of `user`'s follow links that `viewer` may see. */
  async function list(user: User, direction: 'followers' | 'following', viewer: User | null, paging: Paging) {
    // Gitea's isUserVisibleToViewerCond, in SQL so that totals and pages agree: admins see everyone; anonymous
    // and restricted viewers public users only; others every non-private user, themselves and their own
    // followers, and the members of their organizations.
    const visible = viewer?.isAdmin ? null : viewer && !viewer.isRestricted ? { codes: [0, 1], viewerId: viewer.id } : { codes: [0] };
    return followsDb.listFollowLinks(db, user.id, direction, visible, paging.offset, paging.limit);
  }

  return { follow, unfollow, isFollowing, list };
}

export type FollowService = ReturnType<typeof createFollowService>;
