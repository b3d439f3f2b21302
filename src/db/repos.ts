import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Db } from './index.js';
import type { Database } from './schema.js';
import { DEFAULT_REPO_SETTINGS, type RepoSettings, type Repository } from '../domain/repo.js';

type RepoRow = Selectable<Database['repository']>;

function parseSettings(text: string): RepoSettings {
  if (!text) return { ...DEFAULT_REPO_SETTINGS };
  try {
    return { ...DEFAULT_REPO_SETTINGS, ...(JSON.parse(text) as Partial<RepoSettings>) };
  } catch {
    return { ...DEFAULT_REPO_SETTINGS };
  }
}

export function rowToRepo(r: RepoRow): Repository {
  return {
    id: r.id,
    ownerId: r.owner_id,
    name: r.name,
    lowerName: r.lower_name,
    description: r.description,
    website: r.website,
    originalUrl: r.original_url,
    defaultBranch: r.default_branch,
    objectFormatName: r.object_format_name,
    trustModel: r.trust_model,
    isPrivate: !!r.is_private,
    isEmpty: !!r.is_empty,
    isArchived: !!r.is_archived,
    isMirror: !!r.is_mirror,
    isFork: !!r.is_fork,
    isTemplate: !!r.is_template,
    forkId: r.fork_id,
    templateId: r.template_id,
    numWatches: r.num_watches,
    numStars: r.num_stars,
    numForks: r.num_forks,
    numIssues: r.num_issues,
    numClosedIssues: r.num_closed_issues,
    numPulls: r.num_pulls,
    numClosedPulls: r.num_closed_pulls,
    numMilestones: r.num_milestones,
    numClosedMilestones: r.num_closed_milestones,
    numReleases: r.num_releases,
    size: r.size,
    numCommits: r.num_commits,
    createdUnix: r.created_unix,
    updatedUnix: r.updated_unix,
    archivedUnix: r.archived_unix,
    status: r.status,
    settings: parseSettings(r.settings),
  };
}

export interface RepoFields {
  name?: string;
  description?: string;
  website?: string;
  originalUrl?: string;
  defaultBranch?: string;
  objectFormatName?: string;
  trustModel?: string;
  isPrivate?: boolean;
  isEmpty?: boolean;
  isArchived?: boolean;
  isMirror?: boolean;
  isFork?: boolean;
  isTemplate?: boolean;
  forkId?: number;
  templateId?: number;
  size?: number;
  numCommits?: number;
  updatedUnix?: number;
  archivedUnix?: number;
  status?: number;
  ownerId?: number;
  settings?: RepoSettings;
}

function toColumns(f: RepoFields): Record<string, unknown> {
  const b = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
  const cols: Record<string, unknown> = {
    name: f.name,
    lower_name: f.name?.toLowerCase(),
    description: f.description,
    website: f.website,
    original_url: f.originalUrl,
    default_branch: f.defaultBranch,
    object_format_name: f.objectFormatName,
    trust_model: f.trustModel,
    is_private: b(f.isPrivate),
    is_empty: b(f.isEmpty),
    is_archived: b(f.isArchived),
    is_mirror: b(f.isMirror),
    is_fork: b(f.isFork),
    is_template: b(f.isTemplate),
    fork_id: f.forkId,
    template_id: f.templateId,
    size: f.size,
    num_commits: f.numCommits,
    updated_unix: f.updatedUnix,
    archived_unix: f.archivedUnix,
    status: f.status,
    owner_id: f.ownerId,
    settings: f.settings === undefined ? undefined : JSON.stringify(f.settings),
  };
  for (const k of Object.keys(cols)) if (cols[k] === undefined) delete cols[k];
  return cols;
}

export async function insertRepo(db: Db, ownerId: number, f: RepoFields & { name: string }, now: number): Promise<number> {
  const r = await db
    .insertInto('repository')
    .values({ ...toColumns(f), owner_id: ownerId, created_unix: now, updated_unix: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateRepo(db: Db, id: number, f: RepoFields): Promise<void> {
  const cols = toColumns(f);
  if (Object.keys(cols).length === 0) return;
  await db.updateTable('repository').set(cols as never).where('id', '=', id).execute();
}

export async function deleteRepoRow(db: Db, id: number): Promise<void> {
  // Stars and topic links go with the row (ON DELETE CASCADE); the counters they feed are recomputed.
  const topicIds = (await db.selectFrom('repo_topic').select('topic_id').where('repo_id', '=', id).execute()).map((r) => r.topic_id);
  const starrers = (await db.selectFrom('star').select('uid').where('repo_id', '=', id).execute()).map((r) => r.uid);
  const row = await db.selectFrom('repository').select(['is_fork', 'fork_id']).where('id', '=', id).executeTakeFirst();
  await db.deleteFrom('repository').where('id', '=', id).execute();
  // Gitea: the parent counts one fork less; forks of a deleted repository become ordinary repositories.
  if (row && row.is_fork && row.fork_id > 0) await refreshForkCount(db, row.fork_id);
  await db.updateTable('repository').set({ is_fork: 0, fork_id: 0 }).where('fork_id', '=', id).execute();
  if (topicIds.length) {
    await db
      .updateTable('topic')
      .set({ repo_count: sql<number>`(select count(*) from repo_topic where repo_topic.topic_id = topic.id)` })
      .where('id', 'in', topicIds)
      .execute();
  }
  if (starrers.length) {
    await db
      .updateTable('user')
      .set({ num_stars: sql<number>`(select count(*) from star where star.uid = "user".id)` })
      .where('id', 'in', starrers)
      .execute();
  }
}

export async function getRepoById(db: Db, id: number): Promise<Repository | undefined> {
  const r = await db.selectFrom('repository').selectAll().where('id', '=', id).executeTakeFirst();
  return r && rowToRepo(r);
}

export async function getRepoByName(db: Db, ownerId: number, name: string): Promise<Repository | undefined> {
  const r = await db.selectFrom('repository').selectAll().where('owner_id', '=', ownerId).where('lower_name', '=', name.toLowerCase()).executeTakeFirst();
  return r && rowToRepo(r);
}

export async function getReposByIds(db: Db, ids: readonly number[]): Promise<Repository[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('repository').selectAll().where('id', 'in', ids).execute()).map(rowToRepo);
}

/** The fork of repository `baseId` that `ownerId` owns, if any (Gitea's GetUserFork). */
export async function getUserFork(db: Db, baseId: number, ownerId: number): Promise<Repository | undefined> {
  const r = await db.selectFrom('repository').selectAll().where('fork_id', '=', baseId).where('owner_id', '=', ownerId).where('is_fork', '=', 1).executeTakeFirst();
  return r && rowToRepo(r);
}

/** Recounts num_forks of `repoId` from its fork rows. */
export async function refreshForkCount(db: Db, repoId: number): Promise<void> {
  await db
    .updateTable('repository')
    .set({ num_forks: sql<number>`(select count(*) from repository as f where f.fork_id = ${repoId} and f.is_fork = 1)` })
    .where('id', '=', repoId)
    .execute();
}

export async function repoIdsOfOwner(db: Db, ownerId: number): Promise<number[]> {
  return (await db.selectFrom('repository').select('id').where('owner_id', '=', ownerId).execute()).map((r) => r.id);
}

/** Every repository's id with its owner's and its own name (doctor's disk check). */
export async function listRepoLocations(db: Db): Promise<{ id: number; ownerName: string; name: string }[]> {
  const rows = await db
    .selectFrom('repository')
    .innerJoin('user', 'user.id', 'repository.owner_id')
    .select(['repository.id as id', 'user.name as ownerName', 'repository.name as name'])
    .orderBy('repository.id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), ownerName: r.ownerName, name: r.name }));
}

export async function countOwnedRepos(db: Db, ownerId: number): Promise<number> {
  const r = await db.selectFrom('repository').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function refreshOwnerRepoCount(db: Db, ownerId: number): Promise<void> {
  const n = await countOwnedRepos(db, ownerId);
  await db.updateTable('user').set({ num_repos: n }).where('id', '=', ownerId).execute();
}

/** The collaborator mode of `userId` on each of `repoIds` that has one (one query for a whole page). */
export async function getCollaboratorModes(db: Db, repoIds: readonly number[], userId: number): Promise<Map<number, number>> {
  if (repoIds.length === 0) return new Map();
  const rows = await db.selectFrom('collaboration').select(['repo_id', 'mode']).where('user_id', '=', userId).where('repo_id', 'in', repoIds).execute();
  return new Map(rows.map((r) => [r.repo_id, r.mode]));
}

export async function getCollaboratorMode(db: Db, repoId: number, userId: number): Promise<number> {
  const r = await db.selectFrom('collaboration').select('mode').where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
  return r?.mode ?? 0;
}

export async function getRepoRedirect(db: Db, ownerId: number, lowerName: string): Promise<number | undefined> {
  const r = await db.selectFrom('repo_redirect').select('redirect_repo_id').where('owner_id', '=', ownerId).where('lower_name', '=', lowerName).executeTakeFirst();
  return r?.redirect_repo_id;
}

export async function setRepoRedirect(db: Db, ownerId: number, lowerName: string, repoId: number): Promise<void> {
  await db.deleteFrom('repo_redirect').where('owner_id', '=', ownerId).where('lower_name', '=', lowerName).execute();
  await db.insertInto('repo_redirect').values({ owner_id: ownerId, lower_name: lowerName, redirect_repo_id: repoId }).execute();
}

export async function deleteRepoRedirect(db: Db, ownerId: number, lowerName: string): Promise<void> {
  await db.deleteFrom('repo_redirect').where('owner_id', '=', ownerId).where('lower_name', '=', lowerName).execute();
}

export interface RepoSearch {
  readonly keyword?: string | undefined;
  readonly includeDescription?: boolean;
  readonly ownerId?: number | undefined;
  /** Repository ids of this user's collaborations are included (with ownerId: "owned or collaborative"). */
  readonly collaboratorId?: number | undefined;
  /** 'owned': only ownerId's repos; 'collaborative': only repos ownerId collaborates on; 'both'. */
  readonly ownership?: 'owned' | 'collaborative' | 'both';
  readonly starredBy?: number | undefined;
  readonly isPrivate?: boolean | undefined;
  readonly isTemplate?: boolean | undefined;
  readonly isArchived?: boolean | undefined;
  readonly isFork?: boolean | undefined;
  /** Only forks of this repository. */
  readonly forkId?: number | undefined;
  readonly isMirror?: boolean | undefined;
  readonly topic?: string | undefined;
  readonly priorityOwnerId?: number | undefined;
  /**
   * Visibility for the viewer: null = everything (site admin); otherwise public repos of visible owners plus
   * repos the viewer owns or collaborates on.
   */
  readonly viewer: { id: number | null; seeLimitedOwners: boolean; seePublic: boolean } | null;
  readonly orderBy: { column: 'alpha' | 'created' | 'updated' | 'size' | 'id' | 'stars' | 'forks'; desc: boolean };
  readonly offset: number;
  readonly limit: number;
}

/** Repositories one of the user's teams has (every repository of the organization for includes-all teams). */
function teamRepoCond(eb: ExpressionBuilder<Database & { owner: Database['user'] }, 'repository' | 'owner'>, uid: number) {
  return eb.exists(
    eb
      .selectFrom('team_user')
      .innerJoin('team', 'team.id', 'team_user.team_id')
      .select('team_user.id')
      .where('team_user.uid', '=', uid)
      .whereRef('team.org_id', '=', 'repository.owner_id')
      .where((e2) =>
        e2.or([
          e2('team.includes_all_repositories', '=', 1),
          e2.exists(e2.selectFrom('team_repo').select('team_repo.id').whereRef('team_repo.team_id', '=', 'team.id').whereRef('team_repo.repo_id', '=', 'repository.id')),
        ]),
      ),
  );
}

export async function searchRepos(db: Db, q: RepoSearch): Promise<{ repos: Repository[]; total: number }> {
  let query = db.selectFrom('repository').innerJoin('user as owner', 'owner.id', 'repository.owner_id');
  if (q.keyword) {
    const like = `%${q.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = q.includeDescription
      ? query.where(sql<boolean>`(repository.lower_name like ${like} escape '\\' or lower(repository.description) like ${like} escape '\\')`)
      : query.where(sql<boolean>`repository.lower_name like ${like} escape '\\'`);
  }
  if (q.topic) {
    const topic = q.topic.toLowerCase();
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('repo_topic')
          .innerJoin('topic', 'topic.id', 'repo_topic.topic_id')
          .select('repo_topic.repo_id')
          .whereRef('repo_topic.repo_id', '=', 'repository.id')
          .where('topic.name', '=', topic),
      ),
    );
  }
  if (q.ownerId !== undefined) {
    const ownerId = q.ownerId;
    const ownership = q.ownership ?? 'owned';
    query = query.where((eb) => {
      const owned = eb('repository.owner_id', '=', ownerId);
      // Unlike Gitea, someone else's search only counts organizations where that user's membership is public:
      // otherwise `uid` would reveal concealed memberships (which /orgs/{org}/members keeps hidden).
      const othersView = q.viewer !== null && q.viewer.id !== ownerId;
      const membership = eb
        .selectFrom('org_user')
        .select('org_user.id')
        .whereRef('org_user.org_id', '=', 'repository.owner_id')
        .where('org_user.uid', '=', ownerId);
      const shownMembership = eb.exists(othersView ? membership.where('org_user.is_public', '=', 1) : membership);
      // Gitea's "collaborative" repositories: collaborations, repositories of the user's teams, and public
      // repositories of organizations the user belongs to (never the user's own).
      const collab = eb.and([
        eb('repository.owner_id', '!=', ownerId),
        eb.or([
          eb.exists(
            eb.selectFrom('collaboration').select('collaboration.id').whereRef('collaboration.repo_id', '=', 'repository.id').where('collaboration.user_id', '=', ownerId),
          ),
          othersView ? eb.and([teamRepoCond(eb, ownerId), shownMembership]) : teamRepoCond(eb, ownerId),
          eb.and([eb('repository.is_private', '=', 0), shownMembership]),
        ]),
      ]);
      return ownership === 'owned' ? owned : ownership === 'collaborative' ? collab : eb.or([owned, collab]);
    });
  }
  if (q.starredBy !== undefined) {
    const uid = q.starredBy;
    query = query.where((eb) => eb.exists(eb.selectFrom('star').select('star.id').whereRef('star.repo_id', '=', 'repository.id').where('star.uid', '=', uid)));
  }
  const flag = (col: 'repository.is_private' | 'repository.is_template' | 'repository.is_archived' | 'repository.is_fork' | 'repository.is_mirror', v: boolean | undefined) => {
    if (v !== undefined) query = query.where(col, '=', v ? 1 : 0);
  };
  flag('repository.is_private', q.isPrivate);
  flag('repository.is_template', q.isTemplate);
  flag('repository.is_archived', q.isArchived);
  flag('repository.is_fork', q.isFork);
  if (q.forkId !== undefined) query = query.where('repository.fork_id', '=', q.forkId).where('repository.is_fork', '=', 1);
  flag('repository.is_mirror', q.isMirror);
  if (q.viewer) {
    const { id: viewerId, seePublic } = q.viewer;
    const ownerVisibilities = q.viewer.seeLimitedOwners ? [0, 1] : [0];
    query = query.where((eb) => {
      const visible = [];
      if (seePublic) {
        const ownerSeen = [eb('owner.visibility', 'in', ownerVisibilities)];
        // Members see the public repositories of their private organizations.
        if (viewerId !== null) {
          ownerSeen.push(eb.exists(eb.selectFrom('org_user').select('org_user.id').whereRef('org_user.org_id', '=', 'owner.id').where('org_user.uid', '=', viewerId)));
        }
        visible.push(eb.and([eb('repository.is_private', '=', 0), eb.or(ownerSeen)]));
      }
      if (viewerId !== null) {
        visible.push(
          eb('repository.owner_id', '=', viewerId),
          eb.exists(
            eb.selectFrom('collaboration').select('collaboration.id').whereRef('collaboration.repo_id', '=', 'repository.id').where('collaboration.user_id', '=', viewerId),
          ),
          teamRepoCond(eb, viewerId),
        );
      }
      return visible.length ? eb.or(visible) : sql<boolean>`1 = 0`;
    });
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let ordered = query.selectAll('repository');
  if (q.priorityOwnerId !== undefined) {
    ordered = ordered.orderBy(sql`case when repository.owner_id = ${q.priorityOwnerId} then 0 else 1 end`);
  }
  const dir = q.orderBy.desc ? 'desc' : 'asc';
  const col = {
    alpha: 'repository.lower_name',
    created: 'repository.created_unix',
    updated: 'repository.updated_unix',
    size: 'repository.size',
    id: 'repository.id',
    stars: 'repository.num_stars',
    forks: 'repository.num_forks',
  } as const;
  ordered = ordered.orderBy(col[q.orderBy.column], dir).orderBy('repository.id', dir);
  const rows = await ordered.limit(q.limit).offset(q.offset).execute();
  return { repos: rows.map(rowToRepo), total: Number(total.n) };
}
