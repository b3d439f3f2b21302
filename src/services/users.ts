import { AppError, notFound } from '../domain/errors.js';
import { assertUsableName, emailProblem, isValidWebsite } from '../domain/names.js';
import { canSeeUser, type Actor, type User, type Visibility } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as usersDb from '../db/users.js';
import * as emailsDb from '../db/emails.js';
import { refreshFollowCounters } from '../db/follows.js';
import * as followsDb from '../db/follows.js';
import * as orgsDb from '../db/orgs.js';
import { canSeeOrg } from '../domain/org.js';
import { hashPassword } from './passwords.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';

export interface CreateUserInput {
  readonly username: string;
  readonly email: string;
  readonly password?: string | undefined;
  readonly fullName?: string | undefined;
  readonly loginName?: string | undefined;
  readonly sourceId?: number | undefined;
  readonly mustChangePassword?: boolean | undefined;
  readonly restricted?: boolean | undefined;
  readonly visibility?: string | undefined;
  readonly createdAt?: string | undefined;
  /** Site administrator flag: only the CLI sets it at creation. */
  readonly admin?: boolean | undefined;
}

export interface EditUserInput {
  readonly loginName: string;
  readonly sourceId: number;
  readonly email?: string | undefined;
  readonly fullName?: string | undefined;
  readonly password?: string | undefined;
  readonly mustChangePassword?: boolean | undefined;
  readonly website?: string | undefined;
  readonly location?: string | undefined;
  readonly description?: string | undefined;
  readonly active?: boolean | undefined;
  readonly admin?: boolean | undefined;
  readonly allowGitHook?: boolean | undefined;
  readonly allowImportLocal?: boolean | undefined;
  readonly maxRepoCreation?: number | undefined;
  readonly prohibitLogin?: boolean | undefined;
  readonly allowCreateOrganization?: boolean | undefined;
  readonly restricted?: boolean | undefined;
  readonly visibility?: string | undefined;
}

export interface SettingsInput {
  readonly fullName?: string | undefined;
  readonly website?: string | undefined;
  readonly description?: string | undefined;
  readonly location?: string | undefined;
  readonly language?: string | undefined;
  readonly theme?: string | undefined;
  readonly diffViewStyle?: string | undefined;
  readonly hideEmail?: boolean | undefined;
  readonly hideActivity?: boolean | undefined;
}

function parseVisibility(v: string | undefined): Visibility | undefined {
  if (v === undefined || v === '') return undefined;
  if (v === 'public' || v === 'limited' || v === 'private') return v;
  throw new AppError('validation', `[Visibility]: In`);
}

function checkLength(field: string, value: string | undefined, max: number): void {
  if (value !== undefined && [...value].length > max) throw new AppError('validation', `[${field}]: MaxSize`);
}

export function createUserService(deps: ServiceDeps) {
  const { db, config } = deps;

  async function passwordFields(password: string) {
    const h = await hashPassword(password);
    return { passwd: h.passwd, salt: h.salt, passwdHashAlgo: h.algo };
  }

  /**
   * Gitea's IsUserVisibleToViewer: a private user who follows a (non-restricted) viewer, or shares an
   * organization with them, is visible to them.
   */
  async function followsViewer(user: User, viewer: User | null): Promise<boolean> {
    if (!viewer || viewer.isRestricted || user.visibility !== 'private' || user.isOrganization) return false;
    return (await followsDb.isFollowing(db, user.id, viewer.id)) || (await orgsDb.shareOrganization(db, user.id, viewer.id));
  }

  /** Looks up an account by name for `viewer`; invisible accounts are 404, renamed ones redirect (307). */
  async function resolveVisible(name: string, actor: Actor, opts: { allowOrg?: boolean } = {}): Promise<User> {
    const user = await usersDb.getUserByName(db, name);
    if (!user) {
      const redirectTo = await usersDb.getRedirect(db, name.toLowerCase());
      if (redirectTo !== undefined) {
        const target = await usersDb.getUserById(db, redirectTo);
        if (target && canSeeUser(target, actor.user)) throw new AppError('moved', 'moved permanently', { redirectName: target.name });
      }
      throw notFound();
    }
    if (user.isOrganization) {
      if (!opts.allowOrg) throw notFound();
      // Private organizations are visible to their members only (Gitea's HasOrgOrUserVisible).
      const member = actor.user && !actor.user.isAdmin ? await orgsDb.isOrgMember(db, user.id, actor.user.id) : false;
      if (!canSeeOrg(user, actor.user, member)) throw notFound();
    } else if (!canSeeUser(user, actor.user) && !(await followsViewer(user, actor.user))) throw notFound();
    if (actor.scopes?.publicOnly && user.visibility !== 'public') {
      // Gitea checks only users here; a non-public organization is kept from public-only tokens too
      // (as /orgs/{org} does), so /users/{org} and /users/{org}/repos reveal nothing of it.
      throw new AppError('forbidden', user.isOrganization ? 'token scope is limited to public orgs' : 'token scope is limited to public users');
    }
    return user;
  }

  /** For site administrators: any account by name (404 when absent). */
  async function resolveAny(name: string): Promise<User> {
    const user = await usersDb.getUserByName(db, name);
    if (!user) throw notFound();
    return user;
  }

  async function assertNameFree(name: string, exceptId?: number): Promise<void> {
    const existing = await usersDb.getUserByName(db, name);
    if (existing && existing.id !== exceptId) throw new AppError('validation', `user already exists [name: ${name}]`);
  }

  async function assertEmailFree(email: string, exceptUid?: number): Promise<void> {
    const owner = await emailsDb.emailOwner(db, email);
    if (owner !== undefined && owner !== exceptUid) throw new AppError('validation', `e-mail already in use [email: ${email}]`);
  }

  /** Gitea's POST /admin/users: local users need a password of at least MIN_PASSWORD_LENGTH. */
  async function createUser(input: CreateUserInput): Promise<User> {
    checkLength('FullName', input.fullName, 100);
    checkLength('Password', input.password, 255);
    const visibility = parseVisibility(input.visibility);
    if (input.sourceId) throw new AppError('validation', `login source does not exist [id: ${input.sourceId}]`);
    const password = input.password ?? '';
    if ([...password].length < config.security.minPasswordLength) throw new AppError('bad_request', 'PasswordIsRequired');
    const name = input.username.trim();
    assertUsableName(name);
    const email = input.email.trim();
    const problem = emailProblem(email);
    if (problem) throw new AppError('validation', problem);
    let created = unixNow(deps);
    if (input.createdAt) {
      const t = Date.parse(input.createdAt);
      if (Number.isNaN(t)) throw new AppError('validation', '[CreatedAt]: invalid time');
      created = Math.floor(t / 1000);
    }
    await assertNameFree(name);
    await assertEmailFree(email);
    const pw = await passwordFields(password);
    let id: number;
    try {
      id = await db.transaction().execute(async (trx) => {
        const uid = await usersDb.insertUser(trx, {
          name,
          email,
          fullName: input.fullName ?? '',
          ...pw,
          mustChangePassword: input.mustChangePassword ?? true,
          isActive: true,
          isAdmin: input.admin ?? false,
          isRestricted: input.restricted ?? false,
          visibility: visibility ?? 'public',
          allowCreateOrganization: true,
          keepEmailPrivate: false,
          theme: 'gitea-auto',
          maxRepoCreation: -1,
          createdUnix: created,
          updatedUnix: created,
        });
        await emailsDb.insertEmail(trx, { uid, email, activated: true, primary: true });
        // A new account takes over a name that an earlier rename left behind.
        await usersDb.deleteRedirect(trx, name.toLowerCase());
        return uid;
      });
    } catch (e) {
      // Two concurrent creates of one name: the unique index decides, the loser gets Gitea's 422.
      if (isUniqueViolation(e)) throw new AppError('validation', `user already exists [name: ${name}]`);
      throw e;
    }
    return (await usersDb.getUserById(db, id))!;
  }

  async function editUser(target: User, input: EditUserInput): Promise<User> {
    // Gitea binds login_name with "Required", which also refuses an empty or blank value (checked first, as the binding does).
    if (input.loginName.trim() === '') throw new AppError('validation', '[login_name]: Required');
    checkLength('FullName', input.fullName, 100);
    checkLength('Email', input.email, 254);
    checkLength('Website', input.website, 255);
    checkLength('Location', input.location, 50);
    checkLength('Description', input.description, 255);
    checkLength('Password', input.password, 255);
    if (input.website !== undefined && input.website !== '' && !isValidWebsite(input.website)) throw new AppError('validation', '[Website]: ValidUrl');
    const visibility = parseVisibility(input.visibility);
    if (target.isOrganization) throw notFound();
    if (input.sourceId) throw new AppError('validation', `login source does not exist [id: ${input.sourceId}]`);
    const changes: usersDb.UserFields = { loginName: input.loginName, loginSource: 0 };
    if (input.password !== undefined && input.password !== '') {
      if ([...input.password].length < config.security.minPasswordLength) {
        throw new AppError('bad_request', `password must be at least ${config.security.minPasswordLength} characters`);
      }
      Object.assign(changes, await passwordFields(input.password));
    }
    if (input.mustChangePassword !== undefined) changes.mustChangePassword = input.mustChangePassword;
    if (input.prohibitLogin !== undefined) changes.prohibitLogin = input.prohibitLogin;
    let newEmail: string | undefined;
    if (input.email !== undefined) {
      newEmail = input.email.trim();
      const problem = emailProblem(newEmail);
      if (problem) throw new AppError('bad_request', problem);
      const owner = await emailsDb.emailOwner(db, newEmail);
      if (owner !== undefined && owner !== target.id) throw new AppError('bad_request', `e-mail already in use [email: ${newEmail}]`);
      changes.email = newEmail;
    }
    if (input.fullName !== undefined) changes.fullName = input.fullName;
    if (input.website !== undefined) changes.website = input.website;
    if (input.location !== undefined) changes.location = input.location;
    if (input.description !== undefined) changes.description = input.description;
    if (input.active !== undefined) changes.isActive = input.active;
    if (input.allowGitHook !== undefined) changes.allowGitHook = input.allowGitHook;
    if (input.allowImportLocal !== undefined) changes.allowImportLocal = input.allowImportLocal;
    if (input.maxRepoCreation !== undefined) changes.maxRepoCreation = input.maxRepoCreation;
    if (input.allowCreateOrganization !== undefined) changes.allowCreateOrganization = input.allowCreateOrganization;
    if (input.restricted !== undefined) changes.isRestricted = input.restricted;
    // Gitea 1.22 ignores visibility "public" here (zero value, go-gitea/gitea#35030); we apply it.
    if (visibility !== undefined) changes.visibility = visibility;
    if (input.admin !== undefined) {
      if (!input.admin && target.isAdmin && (await usersDb.countAdmins(db)) <= 1) {
        throw new AppError('bad_request', `can not delete the last admin user [uid: ${target.id}]`);
      }
      changes.isAdmin = input.admin;
    }
    changes.updatedUnix = unixNow(deps);
    try {
      await db.transaction().execute(async (trx) => {
        await usersDb.updateUser(trx, target.id, changes);
        if (newEmail !== undefined) await emailsDb.setPrimaryEmail(trx, target.id, newEmail);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('bad_request', `e-mail already in use [email: ${newEmail ?? ''}]`);
      throw e;
    }
    return (await usersDb.getUserById(db, target.id))!;
  }

  /**
   * Gitea's refusals of DELETE /admin/users/{username}, checked before anything is removed: an organization,
   * oneself, the last admin; without purge, a user who still owns repositories or belongs to organizations.
   */
  async function assertDeletable(target: User, doer: User, purge: boolean): Promise<void> {
    if (target.isOrganization) throw new AppError('validation', `${target.name} is an organization not a user`);
    if (target.id === doer.id) throw new AppError('validation', 'you cannot delete yourself');
    if (!purge && target.numRepos > 0) throw new AppError('validation', `user still has ownership of repositories [uid: ${target.id}]`);
    if (!purge && (await orgsDb.listOrgsOfUser(db, target.id, null, 0, 1)).total > 0) {
      throw new AppError('validation', `user still has membership of organizations [uid: ${target.id}]`);
    }
    if (target.isAdmin && (await usersDb.countAdmins(db)) <= 1) throw new AppError('validation', `can not delete the last admin user [uid: ${target.id}]`);
  }

  /** Deletes an individual account (after {@link assertDeletable}; a purge removes what it owns first). */
  async function deleteUser(target: User, doer: User, purge: boolean): Promise<void> {
    await assertDeletable(target, doer, purge);
    await db.transaction().execute(async (trx) => {
      // Keys, tokens, e-mails, follows and redirects go with the row (ON DELETE CASCADE); the follow
      // counters of the other side are recomputed.
      const others = await trx
        .selectFrom('follow')
        .select(['user_id', 'follow_id'])
        .where((eb) => eb.or([eb('user_id', '=', target.id), eb('follow_id', '=', target.id)]))
        .execute();
      await usersDb.deleteUserRow(trx, target.id);
      const ids = [...new Set(others.flatMap((r) => [r.user_id, r.follow_id]).filter((id) => id !== target.id))];
      await refreshFollowCounters(trx, ids);
    });
  }

  async function renameUser(target: User, newName: string): Promise<void> {
    if (target.isOrganization) throw new AppError('validation', `${target.name} is an organization not a user`);
    const name = newName.trim();
    assertUsableName(name);
    if (name === target.name) return;
    if (name.toLowerCase() !== target.lowerName) await assertNameFree(name, target.id);
    try {
      await db.transaction().execute(async (trx) => {
        await usersDb.updateUser(trx, target.id, { name, updatedUnix: unixNow(deps) });
        await usersDb.deleteRedirect(trx, name.toLowerCase());
        if (name.toLowerCase() !== target.lowerName) await usersDb.setRedirect(trx, target.lowerName, target.id);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('validation', `user already exists [name: ${name}]`);
      throw e;
    }
  }

  /** GET /admin/users: individuals, alphabetical. */
  async function adminList(q: { sourceId?: number | undefined; loginName?: string | undefined }, paging: Paging) {
    return usersDb.searchUsers(db, {
      type: 'individual',
      loginSource: q.sourceId,
      loginName: q.loginName,
      offset: paging.offset,
      limit: paging.limit,
      orderBy: 'name',
    });
  }

  /** GET /users/search: individuals the caller may see. */
  async function search(actor: Actor, q: { keyword?: string | undefined; uid?: number | undefined }, paging: Paging) {
    const viewer = actor.user;
    let visibilities: Visibility[] | undefined;
    if (!viewer) visibilities = ['public'];
    else if (!viewer.isAdmin) visibilities = viewer.isRestricted ? ['public'] : ['public', 'limited'];
    if (actor.scopes?.publicOnly) visibilities = ['public'];
    return usersDb.searchUsers(db, {
      type: 'individual',
      keyword: q.keyword?.trim() || undefined,
      uid: q.uid && q.uid > 0 ? q.uid : undefined,
      visibilities,
      alsoId: viewer && !actor.scopes?.publicOnly ? viewer.id : undefined,
      offset: paging.offset,
      limit: paging.limit,
      orderBy: 'id',
    });
  }

  async function updateSettings(user: User, s: SettingsInput): Promise<User> {
    checkLength('FullName', s.fullName, 100);
    checkLength('Website', s.website, 255);
    checkLength('Location', s.location, 50);
    checkLength('Description', s.description, 255);
    checkLength('Language', s.language, 5);
    if (s.website !== undefined && s.website !== '' && !isValidWebsite(s.website)) throw new AppError('validation', '[Website]: ValidUrl');
    await usersDb.updateUser(db, user.id, {
      fullName: s.fullName,
      website: s.website,
      description: s.description,
      location: s.location,
      language: s.language,
      theme: s.theme,
      diffViewStyle: s.diffViewStyle,
      keepEmailPrivate: s.hideEmail,
      hideActivity: s.hideActivity,
      updatedUnix: unixNow(deps),
    });
    return (await usersDb.getUserById(db, user.id))!;
  }

  const getById = (id: number) => usersDb.getUserById(db, id);

  return { resolveVisible, resolveAny, createUser, editUser, assertDeletable, deleteUser, renameUser, adminList, search, updateSettings, getById };
}

export type UserService = ReturnType<typeof createUserService>;
