import { sql, type Selectable } from 'kysely';
import type { Db } from './index.js';
import type { Database } from './schema.js';
import { rowToUser } from './users.js';
import type { Label, Team } from '../domain/org.js';
import { visibilityCode, type User, type Visibility } from '../domain/user.js';

type TeamRow = Selectable<Database['team']>;
type LabelRow = Selectable<Database['label']>;

function parseUnits(text: string): Record<string, number> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export function rowToTeam(r: TeamRow): Team {
  return {
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    lowerName: r.lower_name,
    description: r.description,
    mode: r.authorize,
    units: parseUnits(r.units),
    includesAllRepositories: !!r.includes_all_repositories,
    canCreateOrgRepo: !!r.can_create_org_repo,
  };
}

export interface TeamFields {
  name?: string;
  description?: string;
  mode?: number;
  units?: Record<string, number>;
  includesAllRepositories?: boolean;
  canCreateOrgRepo?: boolean;
  updatedUnix?: number;
}

function teamColumns(f: TeamFields): Record<string, unknown> {
  const b = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
  const cols: Record<string, unknown> = {
    name: f.name,
    lower_name: f.name?.toLowerCase(),
    description: f.description,
    authorize: f.mode,
    units: f.units === undefined ? undefined : JSON.stringify(f.units),
    includes_all_repositories: b(f.includesAllRepositories),
    can_create_org_repo: b(f.canCreateOrgRepo),
    updated_unix: f.updatedUnix,
  };
  for (const k of Object.keys(cols)) if (cols[k] === undefined) delete cols[k];
  return cols;
}

export async function insertTeam(db: Db, orgId: number, f: TeamFields & { name: string }, now: number): Promise<number> {
  const r = await db
    .insertInto('team')
    .values({ ...teamColumns(f), org_id: orgId, created_unix: now, updated_unix: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateTeam(db: Db, id: number, f: TeamFields): Promise<void> {
  const cols = teamColumns(f);
  if (Object.keys(cols).length === 0) return;
  await db.updateTable('team').set(cols as never).where('id', '=', id).execute();
}

/** Deletes a team; members who belong to no other team of the organization leave it. */
export async function deleteTeam(db: Db, team: Team): Promise<void> {
  const members = (await db.selectFrom('team_user').select('uid').where('team_id', '=', team.id).execute()).map((r) => r.uid);
  await db.deleteFrom('team').where('id', '=', team.id).execute();
  for (const uid of members) await dropMembershipIfTeamless(db, team.orgId, uid);
}

export async function getTeamById(db: Db, id: number): Promise<Team | undefined> {
  const r = await db.selectFrom('team').selectAll().where('id', '=', id).executeTakeFirst();
  return r && rowToTeam(r);
}

export async function getTeamByName(db: Db, orgId: number, name: string): Promise<Team | undefined> {
  const r = await db.selectFrom('team').selectAll().where('org_id', '=', orgId).where('lower_name', '=', name.toLowerCase()).executeTakeFirst();
  return r && rowToTeam(r);
}

export async function getTeamsByIds(db: Db, ids: readonly number[]): Promise<Team[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('team').selectAll().where('id', 'in', ids).orderBy('id').execute()).map(rowToTeam);
}

export interface TeamSearch {
  readonly orgId?: number;
  /** Only teams this user belongs to. */
  readonly memberId?: number;
  /** Only teams of public organizations (public-only tokens). */
  readonly publicOrgsOnly?: boolean;
  readonly keyword?: string;
  readonly includeDescription?: boolean;
  readonly offset: number;
  readonly limit: number;
}

/** Teams by name (the Owners team first, as Gitea sorts by name after authorize desc is not done: name order). */
export async function searchTeams(db: Db, q: TeamSearch): Promise<{ teams: Team[]; total: number }> {
  let query = db.selectFrom('team');
  if (q.orgId !== undefined) query = query.where('team.org_id', '=', q.orgId);
  if (q.memberId !== undefined) {
    const uid = q.memberId;
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('team_user').select('team_user.id').whereRef('team_user.team_id', '=', 'team.id').where('team_user.uid', '=', uid)),
    );
  }
  if (q.publicOrgsOnly) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('user').select('user.id').whereRef('user.id', '=', 'team.org_id').where('user.visibility', '=', visibilityCode('public'))),
    );
  }
  if (q.keyword) {
    const like = `%${q.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = q.includeDescription
      ? query.where(sql<boolean>`(team.lower_name like ${like} escape '\\' or lower(team.description) like ${like} escape '\\')`)
      : query.where(sql<boolean>`team.lower_name like ${like} escape '\\'`);
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.selectAll('team').orderBy('team.lower_name').orderBy('team.id').limit(q.limit).offset(q.offset).execute();
  return { teams: rows.map(rowToTeam), total: Number(total.n) };
}

export async function teamsOfUserInOrg(db: Db, orgId: number, uid: number): Promise<Team[]> {
  const rows = await db
    .selectFrom('team')
    .innerJoin('team_user', 'team_user.team_id', 'team.id')
    .selectAll('team')
    .where('team.org_id', '=', orgId)
    .where('team_user.uid', '=', uid)
    .execute();
  return rows.map(rowToTeam);
}

export async function countTeams(db: Db, orgId: number): Promise<number> {
  const r = await db.selectFrom('team').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId).executeTakeFirstOrThrow();
  return Number(r.n);
}

// ---- membership ----

export async function isTeamMember(db: Db, teamId: number, uid: number): Promise<boolean> {
  return !!(await db.selectFrom('team_user').select('id').where('team_id', '=', teamId).where('uid', '=', uid).executeTakeFirst());
}

export async function countTeamMembers(db: Db, teamId: number): Promise<number> {
  const r = await db.selectFrom('team_user').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', teamId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Adds a user to a team and, when new to the organization, to its members (private membership).
 * Idempotent, also when two requests add the same user at once (ON CONFLICT DO NOTHING).
 */
export async function addTeamMember(db: Db, team: Team, uid: number, publicByDefault = false): Promise<void> {
  await db
    .insertInto('team_user')
    .values({ org_id: team.orgId, team_id: team.id, uid })
    .onConflict((oc) => oc.columns(['team_id', 'uid']).doNothing())
    .execute();
  await db
    .insertInto('org_user')
    .values({ org_id: team.orgId, uid, is_public: publicByDefault ? 1 : 0 })
    .onConflict((oc) => oc.columns(['uid', 'org_id']).doNothing())
    .execute();
}

export async function removeTeamMember(db: Db, team: Team, uid: number): Promise<void> {
  await db.deleteFrom('team_user').where('team_id', '=', team.id).where('uid', '=', uid).execute();
  await dropMembershipIfTeamless(db, team.orgId, uid);
}

async function dropMembershipIfTeamless(db: Db, orgId: number, uid: number): Promise<void> {
  const left = await db.selectFrom('team_user').select('id').where('org_id', '=', orgId).where('uid', '=', uid).executeTakeFirst();
  if (!left) await db.deleteFrom('org_user').where('org_id', '=', orgId).where('uid', '=', uid).execute();
}

/** Removes a user from every team of the organization, and so from the organization. */
export async function removeOrgMember(db: Db, orgId: number, uid: number): Promise<void> {
  await db.deleteFrom('team_user').where('org_id', '=', orgId).where('uid', '=', uid).execute();
  await db.deleteFrom('org_user').where('org_id', '=', orgId).where('uid', '=', uid).execute();
}

/**
 * Locks the organization's owner teams for the rest of the transaction (a no-op update takes the row lock
 * on PostgreSQL; SQLite runs one writer at a time anyway), so that owner removals run one after another.
 */
export async function lockOwnerTeams(db: Db, orgId: number): Promise<void> {
  await db.updateTable('team').set({ updated_unix: sql<number>`updated_unix` }).where('org_id', '=', orgId).where('authorize', '>=', 4).execute();
}

/** How many users are in the organization's owner teams. */
export async function countOwners(db: Db, orgId: number): Promise<number> {
  const r = await db
    .selectFrom('team_user')
    .innerJoin('team', 'team.id', 'team_user.team_id')
    .select((eb) => eb.fn.count<number>('team_user.uid').distinct().as('n'))
    .where('team.org_id', '=', orgId)
    .where('team.authorize', '>=', 4)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function isOrgMember(db: Db, orgId: number, uid: number): Promise<boolean> {
  return !!(await db.selectFrom('org_user').select('id').where('org_id', '=', orgId).where('uid', '=', uid).executeTakeFirst());
}

export async function isPublicOrgMember(db: Db, orgId: number, uid: number): Promise<boolean> {
  return !!(await db.selectFrom('org_user').select('id').where('org_id', '=', orgId).where('uid', '=', uid).where('is_public', '=', 1).executeTakeFirst());
}

export async function setMemberPublic(db: Db, orgId: number, uid: number, isPublic: boolean): Promise<void> {
  await db.updateTable('org_user').set({ is_public: isPublic ? 1 : 0 }).where('org_id', '=', orgId).where('uid', '=', uid).execute();
}

/** Whether two users belong to a common organization. */
export async function shareOrganization(db: Db, a: number, b: number): Promise<boolean> {
  const r = await db
    .selectFrom('org_user as x')
    .innerJoin('org_user as y', 'y.org_id', 'x.org_id')
    .select('x.id')
    .where('x.uid', '=', a)
    .where('y.uid', '=', b)
    .executeTakeFirst();
  return !!r;
}

/** The organizations among `orgIds` that `uid` belongs to (one query for a page of repositories). */
export async function memberOrgIds(db: Db, uid: number, orgIds: readonly number[]): Promise<Set<number>> {
  if (orgIds.length === 0) return new Set();
  const rows = await db.selectFrom('org_user').select('org_id').where('uid', '=', uid).where('org_id', 'in', orgIds).execute();
  return new Set(rows.map((r) => r.org_id));
}

/** Members of an organization by name; `publicOnly` keeps public memberships only. */
export async function listMembers(db: Db, orgId: number, publicOnly: boolean, offset: number, limit: number): Promise<{ users: User[]; total: number }> {
  let query = db.selectFrom('org_user').innerJoin('user', 'user.id', 'org_user.uid').where('org_user.org_id', '=', orgId);
  if (publicOnly) query = query.where('org_user.is_public', '=', 1);
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.selectAll('user').orderBy('user.lower_name').limit(limit).offset(offset).execute();
  return { users: rows.map(rowToUser), total: Number(total.n) };
}

export async function listTeamMembers(db: Db, teamId: number, offset: number, limit: number): Promise<{ users: User[]; total: number }> {
  const query = db.selectFrom('team_user').innerJoin('user', 'user.id', 'team_user.uid').where('team_user.team_id', '=', teamId);
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.selectAll('user').orderBy('user.lower_name').limit(limit).offset(offset).execute();
  return { users: rows.map(rowToUser), total: Number(total.n) };
}

/**
 * Organizations `uid` belongs to, by name; `visibilities` (when given) filters the organizations,
 * `publicMembership` keeps the memberships the user made public.
 */
export async function listOrgsOfUser(
  db: Db,
  uid: number,
  visibilities: readonly Visibility[] | null,
  offset: number,
  limit: number,
  publicMembership = false,
): Promise<{ orgs: User[]; total: number }> {
  let query = db.selectFrom('org_user').innerJoin('user', 'user.id', 'org_user.org_id').where('org_user.uid', '=', uid);
  if (publicMembership) query = query.where('org_user.is_public', '=', 1);
  if (visibilities) query = query.where('user.visibility', 'in', visibilities.map(visibilityCode));
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.selectAll('user').orderBy('user.lower_name').limit(limit).offset(offset).execute();
  return { orgs: rows.map(rowToUser), total: Number(total.n) };
}

/** Whether `uid` is in the organization's Owners team (any team with owner mode). */
export async function isOrgOwner(db: Db, orgId: number, uid: number): Promise<boolean> {
  const r = await db
    .selectFrom('team_user')
    .innerJoin('team', 'team.id', 'team_user.team_id')
    .select('team_user.id')
    .where('team_user.org_id', '=', orgId)
    .where('team_user.uid', '=', uid)
    .where('team.authorize', '>=', 4)
    .executeTakeFirst();
  return !!r;
}

/** Owners and members of a team allowed to create repositories (Gitea's CanCreateOrgRepo). */
export async function canCreateOrgRepo(db: Db, orgId: number, uid: number): Promise<boolean> {
  const r = await db
    .selectFrom('team_user')
    .innerJoin('team', 'team.id', 'team_user.team_id')
    .select('team_user.id')
    .where('team_user.org_id', '=', orgId)
    .where('team_user.uid', '=', uid)
    .where((eb) => eb.or([eb('team.authorize', '>=', 4), eb('team.can_create_org_repo', '=', 1)]))
    .executeTakeFirst();
  return !!r;
}

// ---- team repositories ----

export async function hasTeamRepo(db: Db, team: Team, repoId: number): Promise<boolean> {
  if (team.includesAllRepositories) {
    const r = await db.selectFrom('repository').select('id').where('id', '=', repoId).where('owner_id', '=', team.orgId).executeTakeFirst();
    return !!r;
  }
  return !!(await db.selectFrom('team_repo').select('id').where('team_id', '=', team.id).where('repo_id', '=', repoId).executeTakeFirst());
}

/** Teams of the organization that have the repository (Gitea's GetRepoTeams): Owners first, then by name. */
export async function teamsOfRepo(db: Db, orgId: number, repoId: number): Promise<Team[]> {
  const rows = await db
    .selectFrom('team')
    .selectAll()
    .where('org_id', '=', orgId)
    .where((eb) =>
      eb.or([
        eb('includes_all_repositories', '=', 1),
        eb.exists(eb.selectFrom('team_repo').select('team_repo.id').whereRef('team_repo.team_id', '=', 'team.id').where('team_repo.repo_id', '=', repoId)),
      ]),
    )
    .orderBy(sql`case when authorize >= 4 then 0 else 1 end`)
    .orderBy('lower_name')
    .execute();
  return rows.map(rowToTeam);
}

export async function addTeamRepo(db: Db, team: Team, repoId: number): Promise<void> {
  await db
    .insertInto('team_repo')
    .values({ org_id: team.orgId, team_id: team.id, repo_id: repoId })
    .onConflict((oc) => oc.columns(['team_id', 'repo_id']).doNothing())
    .execute();
}

export async function removeTeamRepo(db: Db, teamId: number, repoId: number): Promise<void> {
  await db.deleteFrom('team_repo').where('team_id', '=', teamId).where('repo_id', '=', repoId).execute();
}

/** Repository ids of a team, by name: every organization repository for an includes-all team (`publicOnly`: public ones). */
export async function teamRepoIds(db: Db, team: Team, offset: number, limit: number, publicOnly = false): Promise<{ ids: number[]; total: number }> {
  let query = db.selectFrom('repository').where('repository.owner_id', '=', team.orgId);
  if (publicOnly) query = query.where('repository.is_private', '=', 0);
  if (!team.includesAllRepositories) {
    const teamId = team.id;
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('team_repo').select('team_repo.id').whereRef('team_repo.repo_id', '=', 'repository.id').where('team_repo.team_id', '=', teamId)),
    );
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.select('repository.id').orderBy('repository.lower_name').limit(limit).offset(offset).execute();
  return { ids: rows.map((r) => r.id), total: Number(total.n) };
}

/**
 * The teams of `uid` that cover each of `repos` (organization-owned ones), one query for a page:
 * repository id -> the teams (their mode and units) that have that repository.
 */
export async function teamsCoveringRepos(
  db: Db,
  uid: number,
  repos: readonly { id: number; ownerId: number }[],
): Promise<Map<number, { mode: number; units: Record<string, number> }[]>> {
  const out = new Map<number, { mode: number; units: Record<string, number> }[]>();
  if (repos.length === 0) return out;
  const orgIds = [...new Set(repos.map((r) => r.ownerId))];
  const teams = await db
    .selectFrom('team')
    .innerJoin('team_user', 'team_user.team_id', 'team.id')
    .selectAll('team')
    .where('team_user.uid', '=', uid)
    .where('team.org_id', 'in', orgIds)
    .execute();
  if (teams.length === 0) return out;
  const explicit = teams.filter((t) => !t.includes_all_repositories).map((t) => t.id);
  const links = explicit.length
    ? await db
        .selectFrom('team_repo')
        .select(['team_id', 'repo_id'])
        .where('team_id', 'in', explicit)
        .where('repo_id', 'in', repos.map((r) => r.id))
        .execute()
    : [];
  const linked = new Set(links.map((l) => `${l.team_id}:${l.repo_id}`));
  for (const repo of repos) {
    for (const t of teams) {
      if (t.org_id !== repo.ownerId) continue;
      if (!t.includes_all_repositories && !linked.has(`${t.id}:${repo.id}`)) continue;
      const list = out.get(repo.id) ?? [];
      list.push({ mode: t.authorize, units: parseUnits(t.units) });
      out.set(repo.id, list);
    }
  }
  return out;
}

// ---- labels ----

export function rowToLabel(r: LabelRow): Label {
  return {
    id: r.id,
    repoId: r.repo_id,
    orgId: r.org_id,
    name: r.name,
    exclusive: !!r.exclusive,
    description: r.description,
    color: r.color,
    archivedUnix: r.archived_unix,
  };
}

export interface LabelFields {
  name?: string;
  exclusive?: boolean;
  description?: string;
  color?: string;
  archivedUnix?: number;
  updatedUnix?: number;
}

function labelColumns(f: LabelFields): Record<string, unknown> {
  const cols: Record<string, unknown> = {
    name: f.name,
    exclusive: f.exclusive === undefined ? undefined : f.exclusive ? 1 : 0,
    description: f.description,
    color: f.color,
    archived_unix: f.archivedUnix,
    updated_unix: f.updatedUnix,
  };
  for (const k of Object.keys(cols)) if (cols[k] === undefined) delete cols[k];
  return cols;
}

export async function insertLabel(db: Db, owner: { orgId?: number; repoId?: number }, f: LabelFields & { name: string; color: string }, now: number): Promise<number> {
  const r = await db
    .insertInto('label')
    .values({ ...labelColumns(f), org_id: owner.orgId ?? 0, repo_id: owner.repoId ?? 0, created_unix: now, updated_unix: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateLabel(db: Db, id: number, f: LabelFields): Promise<void> {
  const cols = labelColumns(f);
  if (Object.keys(cols).length === 0) return;
  await db.updateTable('label').set(cols as never).where('id', '=', id).execute();
}

export async function deleteLabel(db: Db, id: number): Promise<void> {
  await db.deleteFrom('label').where('id', '=', id).execute();
}

export async function getOrgLabel(db: Db, orgId: number, id: number): Promise<Label | undefined> {
  const r = await db.selectFrom('label').selectAll().where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
  return r && rowToLabel(r);
}

export async function listOrgLabels(db: Db, orgId: number, offset: number, limit: number): Promise<{ labels: Label[]; total: number }> {
  const query = db.selectFrom('label').where('org_id', '=', orgId);
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('name').orderBy('id').limit(limit).offset(offset).execute();
  return { labels: rows.map(rowToLabel), total: Number(total.n) };
}
