import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from './index.js';
import type { UserTable } from './schema.js';
import { type User, type Visibility, visibilityCode, visibilityFromCode } from '../domain/user.js';

export type UserRow = Selectable<UserTable>;

export function rowToUser(r: UserRow): User {
  return {
    id: r.id,
    name: r.name,
    lowerName: r.lower_name,
    fullName: r.full_name,
    email: r.email,
    keepEmailPrivate: !!r.keep_email_private,
    passwd: r.passwd,
    passwdHashAlgo: r.passwd_hash_algo,
    salt: r.salt,
    mustChangePassword: !!r.must_change_password,
    loginType: r.login_type,
    loginSource: r.login_source,
    loginName: r.login_name,
    isOrganization: r.type === 1,
    location: r.location,
    website: r.website,
    description: r.description,
    language: r.language,
    theme: r.theme,
    diffViewStyle: r.diff_view_style,
    isActive: !!r.is_active,
    isAdmin: !!r.is_admin,
    isRestricted: !!r.is_restricted,
    prohibitLogin: !!r.prohibit_login,
    allowGitHook: !!r.allow_git_hook,
    allowImportLocal: !!r.allow_import_local,
    allowCreateOrganization: !!r.allow_create_organization,
    maxRepoCreation: r.max_repo_creation,
    visibility: visibilityFromCode(r.visibility),
    hideActivity: !!r.hide_activity,
    numFollowers: r.num_followers,
    numFollowing: r.num_following,
    numStars: r.num_stars,
    numRepos: r.num_repos,
    createdUnix: r.created_unix,
    updatedUnix: r.updated_unix,
    lastLoginUnix: r.last_login_unix,
    repoAdminChangeTeamAccess: !!r.repo_admin_change_team_access,
  };
}

/** Fields a service may set; booleans and visibility are converted here, at the data-layer edge. */
export interface UserFields {
  name?: string;
  fullName?: string;
  email?: string;
  keepEmailPrivate?: boolean;
  passwd?: string;
  passwdHashAlgo?: string;
  salt?: string;
  mustChangePassword?: boolean;
  loginType?: number;
  loginSource?: number;
  loginName?: string;
  isOrganization?: boolean;
  location?: string;
  website?: string;
  description?: string;
  language?: string;
  theme?: string;
  diffViewStyle?: string;
  isActive?: boolean;
  isAdmin?: boolean;
  isRestricted?: boolean;
  prohibitLogin?: boolean;
  allowGitHook?: boolean;
  allowImportLocal?: boolean;
  allowCreateOrganization?: boolean;
  maxRepoCreation?: number;
  visibility?: Visibility;
  hideActivity?: boolean;
  createdUnix?: number;
  updatedUnix?: number;
  lastLoginUnix?: number;
  repoAdminChangeTeamAccess?: boolean;
}

function toColumns(f: UserFields): Updateable<UserTable> {
  const b = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
  const cols: Updateable<UserTable> = {
    name: f.name,
    lower_name: f.name?.toLowerCase(),
    full_name: f.fullName,
    email: f.email,
    keep_email_private: b(f.keepEmailPrivate),
    passwd: f.passwd,
    passwd_hash_algo: f.passwdHashAlgo,
    salt: f.salt,
    must_change_password: b(f.mustChangePassword),
    login_type: f.loginType,
    login_source: f.loginSource,
    login_name: f.loginName,
    type: f.isOrganization === undefined ? undefined : f.isOrganization ? 1 : 0,
    location: f.location,
    website: f.website,
    description: f.description,
    language: f.language,
    theme: f.theme,
    diff_view_style: f.diffViewStyle,
    is_active: b(f.isActive),
    is_admin: b(f.isAdmin),
    is_restricted: b(f.isRestricted),
    prohibit_login: b(f.prohibitLogin),
    allow_git_hook: b(f.allowGitHook),
    allow_import_local: b(f.allowImportLocal),
    allow_create_organization: b(f.allowCreateOrganization),
    max_repo_creation: f.maxRepoCreation,
    visibility: f.visibility === undefined ? undefined : visibilityCode(f.visibility),
    hide_activity: b(f.hideActivity),
    created_unix: f.createdUnix,
    updated_unix: f.updatedUnix,
    last_login_unix: f.lastLoginUnix,
    repo_admin_change_team_access: b(f.repoAdminChangeTeamAccess),
  };
  for (const k of Object.keys(cols) as (keyof typeof cols)[]) if (cols[k] === undefined) delete cols[k];
  return cols;
}

export async function insertUser(db: Db, f: UserFields & { name: string; email: string }): Promise<number> {
  const row = await db
    .insertInto('user')
    .values(toColumns(f) as Insertable<UserTable>)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: Db, id: number, f: UserFields): Promise<void> {
  const cols = toColumns(f);
  if (Object.keys(cols).length === 0) return;
  await db.updateTable('user').set(cols).where('id', '=', id).execute();
}

export async function getUserById(db: Db, id: number): Promise<User | undefined> {
  const r = await db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
  return r && rowToUser(r);
}

export async function getUserByName(db: Db, name: string): Promise<User | undefined> {
  const r = await db.selectFrom('user').selectAll().where('lower_name', '=', name.toLowerCase()).executeTakeFirst();
  return r && rowToUser(r);
}

export async function getUsersByIds(db: Db, ids: readonly number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('user').selectAll().where('id', 'in', ids).execute();
  return rows.map(rowToUser);
}

export async function getUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const r = await db
    .selectFrom('user')
    .innerJoin('email_address', 'email_address.uid', 'user.id')
    .selectAll('user')
    .where('email_address.lower_email', '=', email.toLowerCase())
    .executeTakeFirst();
  return r && rowToUser(r);
}

export async function deleteUserRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('user').where('id', '=', id).execute();
}

export async function countAdmins(db: Db): Promise<number> {
  const r = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_admin', '=', 1)
    .where('type', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export interface UserSearch {
  /** Matched against the name and full name, case-insensitively. */
  readonly keyword?: string;
  readonly uid?: number;
  readonly type: 'individual' | 'organization';
  /** Allowed visibilities; `alsoId` is always included whatever its visibility (the viewer). */
  readonly visibilities?: readonly Visibility[];
  readonly alsoId?: number;
  readonly loginSource?: number;
  readonly loginName?: string;
  readonly offset: number;
  readonly limit: number;
  readonly orderBy: 'name' | 'id';
}

export async function searchUsers(db: Db, q: UserSearch): Promise<{ users: User[]; total: number }> {
  let query = db.selectFrom('user').where('type', '=', q.type === 'organization' ? 1 : 0);
  if (q.keyword) {
    const like = `%${q.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // ESCAPE makes the backslash escaping above mean the same on SQLite and PostgreSQL.
    query = query.where(sql<boolean>`(lower_name like ${like} escape '\\' or lower(full_name) like ${like} escape '\\')`);
  }
  if (q.uid !== undefined) query = query.where('id', '=', q.uid);
  if (q.loginSource !== undefined) query = query.where('login_source', '=', q.loginSource);
  if (q.loginName) query = query.where('login_name', '=', q.loginName);
  if (q.visibilities) {
    const codes = q.visibilities.map(visibilityCode);
    const alsoId = q.alsoId;
    query = query.where((eb) =>
      alsoId === undefined ? eb('visibility', 'in', codes) : eb.or([eb('visibility', 'in', codes), eb('id', '=', alsoId)]),
    );
  }
  const totalRow = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy(q.orderBy === 'name' ? 'lower_name' : 'id')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { users: rows.map(rowToUser), total: Number(totalRow.n) };
}

export async function getRedirect(db: Db, lowerName: string): Promise<number | undefined> {
  const r = await db.selectFrom('user_redirect').select('redirect_user_id').where('lower_name', '=', lowerName).executeTakeFirst();
  return r?.redirect_user_id;
}

export async function setRedirect(db: Db, lowerName: string, userId: number): Promise<void> {
  await db.deleteFrom('user_redirect').where('lower_name', '=', lowerName).execute();
  await db.insertInto('user_redirect').values({ lower_name: lowerName, redirect_user_id: userId }).execute();
}

export async function deleteRedirect(db: Db, lowerName: string): Promise<void> {
  await db.deleteFrom('user_redirect').where('lower_name', '=', lowerName).execute();
}

export async function addToCounter(
  db: Db,
  id: number,
  column: 'num_followers' | 'num_following' | 'num_stars' | 'num_repos',
  delta: number,
): Promise<void> {
  await db
    .updateTable('user')
    .set((eb) => ({ [column]: eb(column, '+', delta) }))
    .where('id', '=', id)
    .execute();
}

/**
 * Users by e-mail address, in one query for a whole page of commits (Gitea's GetUserByEmail per address):
 * an activated address of the user, or `<lower name>@<noReplyAddress>`. Keys of the result are lower-cased.
 */
export async function getUsersByEmails(db: Db, emails: readonly string[], noReplyAddress: string): Promise<Map<string, User>> {
  const result = new Map<string, User>();
  const lower = [...new Set(emails.filter((e) => e.length > 0).map((e) => e.toLowerCase()))];
  if (lower.length === 0) return result;
  const rows = await db
    .selectFrom('user')
    .innerJoin('email_address', 'email_address.uid', 'user.id')
    .selectAll('user')
    .select('email_address.lower_email as matched_email')
    .where('email_address.lower_email', 'in', lower)
    .where('email_address.is_activated', '=', 1)
    .execute();
  for (const r of rows) {
    const { matched_email, ...user } = r;
    result.set(matched_email, rowToUser(user));
  }
  const suffix = `@${noReplyAddress.toLowerCase()}`;
  const names = lower.filter((e) => !result.has(e) && e.endsWith(suffix)).map((e) => e.slice(0, -suffix.length));
  if (names.length > 0) {
    const users = await db.selectFrom('user').selectAll().where('lower_name', 'in', names).execute();
    for (const u of users) result.set(`${u.lower_name}${suffix}`, rowToUser(u));
  }
  return result;
}

/** Which of these lower-cased account names exist (users and organizations), in one query. */
/** The accounts among `lowerNames` that exist, with their visibility (one query for a document's mentions). */
export async function existingLowerNames(db: Db, lowerNames: readonly string[]): Promise<Map<string, { id: number; visibility: Visibility }>> {
  if (lowerNames.length === 0) return new Map();
  const rows = await db.selectFrom('user').select(['lower_name', 'id', 'visibility']).where('lower_name', 'in', lowerNames).execute();
  return new Map(rows.map((r) => [r.lower_name, { id: Number(r.id), visibility: visibilityFromCode(r.visibility) }]));
}
