import { AppError, notFound } from '../domain/errors.js';
import { AccessMode } from '../domain/repo.js';
import { canSeeUser, type Actor, type User } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as social from '../db/social.js';
import * as usersDb from '../db/users.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import type { RepoAccess, RepoService } from './repos.js';

const TOPIC = /^[a-z0-9][-.a-z0-9]*$/;
export const MAX_TOPICS = 25;
const MAX_TOPIC_LENGTH = 35;
const isValidTopic = (t: string) => t.length <= MAX_TOPIC_LENGTH && TOPIC.test(t);
const MODE_NAMES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export const modeName = (mode: number): string => MODE_NAMES[mode] ?? 'none';

function requireRepoAdmin(access: RepoAccess): void {
  if (access.mode < AccessMode.admin) throw new AppError('forbidden', 'user should be an owner or a collaborator with admin write of a repository');
}

/** Stars, topics and collaborators of repositories. */
export function createSocialService(deps: ServiceDeps, repos: RepoService) {
  const { db } = deps;

  // --- stars
  async function star(user: User, access: RepoAccess): Promise<void> {
    try {
      await db.transaction().execute(async (trx) => {
        if (await social.isStarred(trx, user.id, access.repo.id)) return;
        await social.insertStar(trx, user.id, access.repo.id, unixNow(deps));
        await social.refreshStarCounters(trx, user.id, access.repo.id);
      });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e; // a concurrent identical star already did it
    }
  }
  async function unstar(user: User, access: RepoAccess): Promise<void> {
    await db.transaction().execute(async (trx) => {
      if (await social.deleteStar(trx, user.id, access.repo.id)) await social.refreshStarCounters(trx, user.id, access.repo.id);
    });
  }
  const isStarred = (user: User, access: RepoAccess) => social.isStarred(db, user.id, access.repo.id);
  /** Repositories `user` starred that the caller may see; private ones only for the user themself (as Gitea). */
  const starredBy = (user: User, actor: Actor, paging: Paging) =>
    repos.search(
      actor,
      { starredBy: user.id, isPrivate: actor.user?.id === user.id ? undefined : false, orderBy: { column: 'id', desc: false } },
      paging,
    );
  async function stargazers(access: RepoAccess, viewer: User | null, paging: Paging) {
    const res = await social.listStargazers(db, access.repo.id, paging.offset, paging.limit);
    return { users: res.users.filter((u) => canSeeUser(u, viewer)), total: res.total };
  }

  // --- topics
  const topics = async (access: RepoAccess) => (await social.listRepoTopics(db, access.repo.id)).map((t) => t.name);

  /** Replaces all topics; 422 lists the invalid names, as Gitea does. */
  async function setTopics(access: RepoAccess, input: readonly string[]): Promise<void> {
    requireRepoAdmin(access);
    const names = [...new Set(input.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))];
    const invalid = names.filter((t) => !isValidTopic(t));
    if (invalid.length) throw new AppError('validation', 'Topic names are invalid', { extra: { invalidTopics: invalid } });
    if (names.length > MAX_TOPICS) throw new AppError('validation', 'Exceeding maximum number of topics per repo', { extra: { invalidTopics: null } });
    await db.transaction().execute((trx) => social.setRepoTopics(trx, access.repo.id, names, unixNow(deps)));
  }

  async function addTopic(access: RepoAccess, raw: string): Promise<void> {
    requireRepoAdmin(access);
    const name = raw.trim().toLowerCase();
    if (!isValidTopic(name)) throw new AppError('validation', 'Topic name is invalid', { extra: { invalidTopics: name } });
    const current = await topics(access);
    if (current.includes(name)) return;
    if (current.length >= MAX_TOPICS) throw new AppError('validation', 'Exceeding maximum allowed topics per repo.');
    await db.transaction().execute((trx) => social.setRepoTopics(trx, access.repo.id, [...current, name], unixNow(deps)));
  }

  async function deleteTopic(access: RepoAccess, raw: string): Promise<void> {
    requireRepoAdmin(access);
    const name = raw.trim().toLowerCase();
    if (!isValidTopic(name)) throw new AppError('validation', 'Topic name is invalid', { extra: { invalidTopics: name } });
    const current = await topics(access);
    if (!current.includes(name)) throw notFound();
    await db.transaction().execute((trx) => social.setRepoTopics(trx, access.repo.id, current.filter((t) => t !== name), unixNow(deps)));
  }

  const searchTopics = (keyword: string, paging: Paging) => social.searchTopics(db, keyword.trim(), paging.offset, paging.limit);

  // --- collaborators
  const collaborators = (access: RepoAccess, paging: Paging) => social.listCollaborators(db, access.repo.id, paging.offset, paging.limit);

  /** Gitea answers 422 with ErrUserNotExist's text for an unknown collaborator (and for an organization). */
  async function collaborator(name: string): Promise<User> {
    const user = await usersDb.getUserByName(db, name);
    if (!user || user.isOrganization) throw new AppError('validation', `user does not exist [uid: 0, name: ${name}]`);
    return user;
  }

  async function isCollaborator(access: RepoAccess, name: string): Promise<boolean> {
    const user = await collaborator(name);
    return (await repos.accessModeOf(access.repo.id, user.id)) > 0;
  }

  async function addCollaborator(access: RepoAccess, name: string, permission: string | undefined): Promise<void> {
    requireRepoAdmin(access);
    const mode = permission === undefined || permission === '' ? AccessMode.write : (['read', 'write', 'admin'] as const).indexOf(permission as 'read') + 1;
    if (mode <= 0) throw new AppError('validation', `invalid permission: ${permission}; use read, write or admin`);
    const user = await collaborator(name);
    if (user.id === access.owner.id) throw new AppError('validation', 'the owner cannot be added as a collaborator');
    if (!user.isActive || user.prohibitLogin) throw new AppError('validation', `user is not active [name: ${user.name}]`);
    try {
      await social.upsertCollaborator(db, access.repo.id, user.id, mode, unixNow(deps));
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      await social.upsertCollaborator(db, access.repo.id, user.id, mode, unixNow(deps));
    }
  }

  async function removeCollaborator(access: RepoAccess, name: string): Promise<void> {
    requireRepoAdmin(access);
    const user = await collaborator(name);
    await social.deleteCollaborator(db, access.repo.id, user.id);
  }

  /** GET .../collaborators/{name}/permission: site admins, repository admins, and the user themself. */
  async function permissionOf(access: RepoAccess, doer: User, name: string): Promise<{ user: User; mode: number }> {
    const user = await usersDb.getUserByName(db, name);
    if (!user) throw notFound();
    if (!doer.isAdmin && doer.id !== user.id && access.mode < AccessMode.admin) {
      throw new AppError('forbidden', 'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own');
    }
    return { user, mode: await repos.accessMode(access.repo, access.owner, user) };
  }

  return {
    star,
    unstar,
    isStarred,
    starredBy,
    stargazers,
    topics,
    setTopics,
    addTopic,
    deleteTopic,
    searchTopics,
    collaborators,
    isCollaborator,
    addCollaborator,
    removeCollaborator,
    permissionOf,
  };
}

export type SocialService = ReturnType<typeof createSocialService>;
