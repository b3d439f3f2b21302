import { AppError, notFound } from '../domain/errors.js';
import { assertUsableName, emailProblem, isValidWebsite } from '../domain/names.js';
import {
  allUnits,
  canSeeOrg,
  EXTERNAL_UNITS,
  isOwnersTeam,
  normalizeLabelColor,
  OWNERS_TEAM,
  parseModeName,
  TEAM_UNITS,
  type Label,
  type OrgPermissions,
  type Team,
} from '../domain/org.js';
import { AccessMode } from '../domain/repo.js';
import type { Actor, User, Visibility } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as orgsDb from '../db/orgs.js';
import * as usersDb from '../db/users.js';
import * as reposDb from '../db/repos.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import type { CreateRepoInput, RepoAccess, RepoService } from './repos.js';

export interface OrgInput {
  readonly username?: string | undefined;
  readonly fullName?: string | undefined;
  readonly email?: string | undefined;
  readonly description?: string | undefined;
  readonly website?: string | undefined;
  readonly location?: string | undefined;
  readonly visibility?: string | undefined;
  readonly repoAdminChangeTeamAccess?: boolean | undefined;
}

export interface TeamInput {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly permission?: string | undefined;
  readonly units?: readonly string[] | undefined;
  readonly unitsMap?: Readonly<Record<string, string>> | undefined;
  readonly includesAllRepositories?: boolean | undefined;
  readonly canCreateOrgRepo?: boolean | undefined;
}

export interface LabelInput {
  readonly name?: string | undefined;
  readonly color?: string | undefined;
  readonly description?: string | undefined;
  readonly exclusive?: boolean | undefined;
  readonly isArchived?: boolean | undefined;
}

function checkLength(field: string, value: string | undefined, max: number): void {
  if (value !== undefined && [...value].length > max) throw new AppError('validation', `[${field}]: MaxSize`);
}

function parseVisibility(v: string | undefined): Visibility | undefined {
  if (v === undefined || v === '') return undefined;
  if (v === 'public' || v === 'limited' || v === 'private') return v;
  throw new AppError('validation', '[Visibility]: In');
}

/** Team names follow Gitea's AlphaDashDot binding. */
const TEAM_NAME = /^[a-zA-Z0-9_.-]+$/;

export function createOrgService(deps: ServiceDeps, repos: RepoService) {
  const { db } = deps;

  const isMember = (orgId: number, userId: number) => orgsDb.isOrgMember(db, orgId, userId);
  /** Whether the user is in the organization's Owners team. */
  const isOwner = (orgId: number, userId: number) => orgsDb.isOrgOwner(db, orgId, userId);

  /** Whether `viewer` may see organization `org` at all (Gitea's HasOrgOrUserVisible). */
  async function canSee(org: User, viewer: User | null): Promise<boolean> {
    // Membership only matters for private organizations and restricted viewers.
    const needsMembership = !!viewer && !viewer.isAdmin && (org.visibility === 'private' || viewer.isRestricted);
    return canSeeOrg(org, viewer, needsMembership && (await isMember(org.id, viewer!.id)));
  }

  /**
   * Looks up an organization by name for the caller: unknown, not an organization or not visible is 404;
   * a public-only token reaches public organizations only (403, Gitea 1.22.3+).
   */
  async function resolveOrg(name: string, actor: Actor): Promise<User> {
    const org = await usersDb.getUserByName(db, name);
    if (!org || !org.isOrganization || !(await canSee(org, actor.user))) throw notFound();
    if (actor.scopes?.publicOnly && org.visibility !== 'public') throw new AppError('forbidden', 'token scope is limited to public orgs');
    return org;
  }

  /** POST /org/{org}/repos (old path): Gitea answers an unknown organization with 422, not 404. */
  async function resolveOrgForCreate(name: string, actor: Actor): Promise<User> {
    const org = await usersDb.getUserByName(db, name);
    if (!org || !org.isOrganization) throw new AppError('validation', `org does not exist [id: 0, name: ${name}]`);
    return resolveOrg(name, actor);
  }

  /** For GET /users/{username}/orgs/{org}/permissions: the organization as `user` would see it. */
  async function resolveOrgFor(name: string, user: User): Promise<User> {
    const org = await usersDb.getUserByName(db, name);
    if (!org || !org.isOrganization || !(await canSee(org, user))) throw notFound();
    return org;
  }

  /** Org routes that need an owner: site admins too (Gitea's reqOrgOwnership). */
  async function assertOwner(org: User, doer: User): Promise<void> {
    if (doer.isAdmin || (await isOwner(org.id, doer.id))) return;
    throw new AppError('forbidden', 'Must be an organization owner');
  }

  async function assertMember(org: User, doer: User): Promise<void> {
    if (doer.isAdmin || (await isMember(org.id, doer.id))) return;
    throw new AppError('forbidden', 'Must be an organization member');
  }

  function validateOrgFields(input: OrgInput): Visibility | undefined {
    checkLength('FullName', input.fullName, 100);
    checkLength('Email', input.email, 255);
    checkLength('Description', input.description, 255);
    checkLength('Website', input.website, 255);
    checkLength('Location', input.location, 50);
    if (input.website !== undefined && input.website !== '' && !isValidWebsite(input.website)) throw new AppError('validation', '[Website]: ValidUrl');
    if (input.email !== undefined && input.email !== '') {
      const problem = emailProblem(input.email);
      if (problem) throw new AppError('validation', problem);
    }
    return parseVisibility(input.visibility);
  }

  /**
   * Creates an organization owned by `creator`: the account row (type 1), its Owners team (owner mode,
   * every unit, every repository, may create repositories) with the creator as only member.
   * `byAdmin` skips the creator's allow_create_organization check (POST /admin/users/{u}/orgs).
   */
  async function create(creator: User, input: OrgInput, byAdmin = false): Promise<User> {
    if (!byAdmin && !creator.isAdmin && !creator.allowCreateOrganization) {
      // Gitea 1.22 formats a nil error here, hence the odd text.
      throw new AppError('forbidden', '%!s(<nil>)');
    }
    const name = (input.username ?? '').trim();
    if (name === '') throw new AppError('validation', '[Username]: Required');
    const visibility = validateOrgFields(input) ?? 'public';
    assertUsableName(name);
    if (await usersDb.getUserByName(db, name)) throw new AppError('validation', `user already exists [name: ${name}]`);
    const now = unixNow(deps);
    let id: number;
    try {
      id = await db.transaction().execute(async (trx) => {
        const orgId = await usersDb.insertUser(trx, {
          name,
          email: input.email ?? '',
          fullName: input.fullName ?? '',
          description: input.description ?? '',
          website: input.website ?? '',
          location: input.location ?? '',
          isOrganization: true,
          isActive: true,
          visibility,
          repoAdminChangeTeamAccess: input.repoAdminChangeTeamAccess ?? false,
          maxRepoCreation: -1,
          createdUnix: now,
          updatedUnix: now,
        });
        const teamId = await orgsDb.insertTeam(
          trx,
          orgId,
          { name: OWNERS_TEAM, mode: AccessMode.owner, units: allUnits(AccessMode.owner), includesAllRepositories: true, canCreateOrgRepo: true },
          now,
        );
        await trx.insertInto('team_user').values({ org_id: orgId, team_id: teamId, uid: creator.id }).execute();
        await trx.insertInto('org_user').values({ org_id: orgId, uid: creator.id, is_public: 0 }).execute();
        await usersDb.deleteRedirect(trx, name.toLowerCase());
        return orgId;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('validation', `user already exists [name: ${name}]`);
      throw e;
    }
    return (await usersDb.getUserById(db, id))!;
  }

  /**
   * PATCH /orgs/{org}. Unlike Gitea 1.22 (which clears omitted text fields and ignores visibility
   * "public"), only the fields sent change, and every visibility value applies.
   */
  async function edit(org: User, doer: User, input: OrgInput): Promise<User> {
    await assertOwner(org, doer);
    const visibility = validateOrgFields(input);
    const changes: usersDb.UserFields = { updatedUnix: unixNow(deps) };
    if (input.fullName !== undefined) changes.fullName = input.fullName;
    if (input.description !== undefined) changes.description = input.description;
    if (input.website !== undefined) changes.website = input.website;
    if (input.location !== undefined) changes.location = input.location;
    if (input.email) changes.email = input.email;
    if (visibility !== undefined) changes.visibility = visibility;
    if (input.repoAdminChangeTeamAccess !== undefined) changes.repoAdminChangeTeamAccess = input.repoAdminChangeTeamAccess;
    await usersDb.updateUser(db, org.id, changes);
    return (await usersDb.getUserById(db, org.id))!;
  }

  /** DELETE /orgs/{org}: refused while the organization still owns repositories. */
  async function remove(org: User, doer: User): Promise<void> {
    await assertOwner(org, doer);
    if ((await reposDb.countOwnedRepos(db, org.id)) > 0) {
      throw new AppError('validation', `user still has ownership of repositories [uid: ${org.id}]`);
    }
    await deleteOrgRow(org);
  }

  /** Teams, memberships, team links and labels go with the row (ON DELETE CASCADE / explicit for labels). */
  async function deleteOrgRow(org: User): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('label').where('org_id', '=', org.id).execute();
      await usersDb.deleteUserRow(trx, org.id);
    });
  }

  /**
   * Admin purge of a user, before the account goes (its team memberships go with the row): an organization the
   * user is the last owner of is deleted with its repositories, as Gitea's DeleteUser with purge does, rather
   * than left without owners.
   */
  async function purgeMember(user: User): Promise<void> {
    const { orgs } = await orgsDb.listOrgsOfUser(db, user.id, null, 0, Number.MAX_SAFE_INTEGER);
    for (const org of orgs) {
      if (!(await isOwner(org.id, user.id)) || (await orgsDb.countOwners(db, org.id)) > 1) continue;
      // A repository created meanwhile would outlive its row on disk: remove until none is left.
      for (let pass = 0; pass < 3 && (await reposDb.countOwnedRepos(db, org.id)) > 0; pass++) await repos.removeAllOwnedBy(org);
      if ((await reposDb.countOwnedRepos(db, org.id)) > 0) throw new AppError('validation', `user still has ownership of repositories [uid: ${org.id}]`);
      await deleteOrgRow(org);
    }
  }

  /**
   * GET /orgs: anonymous callers see public organizations, signed-in ones limited too, admins all (private
   * organizations only for admins, even for their members, as in Gitea).
   */
  async function listAll(actor: Actor, paging: Paging) {
    const viewer = actor.user;
    // Gitea's SearchUsers with an actor: restricted users see only organizations they belong to.
    if (viewer && viewer.isRestricted && !viewer.isAdmin) {
      return orgsDb.listOrgsOfUser(db, viewer.id, actor.scopes?.publicOnly ? ['public'] : ['public', 'limited'], paging.offset, paging.limit);
    }
    let visibilities: Visibility[] | undefined = ['public'];
    if (viewer && !actor.scopes?.publicOnly) visibilities = viewer.isAdmin ? undefined : ['public', 'limited'];
    const r = await usersDb.searchUsers(db, { type: 'organization', visibilities, offset: paging.offset, limit: paging.limit, orderBy: 'name' });
    return { orgs: r.users, total: r.total };
  }

  /** GET /admin/orgs: every organization. */
  async function adminListAll(paging: Paging) {
    const r = await usersDb.searchUsers(db, { type: 'organization', offset: paging.offset, limit: paging.limit, orderBy: 'name' });
    return { orgs: r.users, total: r.total };
  }

  /**
   * Organizations `target` belongs to. The user themself and site admins see all of them; everyone else
   * only public organizations in which the membership is public (Gitea's FindOrgOptions without
   * IncludePrivate: even limited organizations and co-members' views are left out).
   */
  async function listForUser(target: User, actor: Actor, paging: Paging) {
    const viewer = actor.user;
    if (viewer && (viewer.id === target.id || viewer.isAdmin) && !actor.scopes?.publicOnly) {
      return orgsDb.listOrgsOfUser(db, target.id, null, paging.offset, paging.limit);
    }
    return orgsDb.listOrgsOfUser(db, target.id, ['public'], paging.offset, paging.limit, true);
  }

  /**
   * GET /users/{username}/orgs/{org}/permissions, from the user's teams in the organization. Unlike Gitea, a
   * concealed membership is not revealed: callers other than the user, org members and site admins get the
   * answer for a non-member unless the membership is public.
   */
  async function permissionsOf(user: User, org: User, viewer: User | null): Promise<OrgPermissions> {
    const insider = !!viewer && (viewer.id === user.id || viewer.isAdmin || (await isMember(org.id, viewer.id)));
    const shown = insider || (await orgsDb.isPublicOrgMember(db, org.id, user.id));
    const teams = shown ? await orgsDb.teamsOfUserInOrg(db, org.id, user.id) : [];
    const top = Math.max(AccessMode.none, ...teams.map((t) => t.mode));
    return {
      isOwner: top >= AccessMode.owner,
      isAdmin: top >= AccessMode.admin,
      canWrite: top >= AccessMode.write,
      canRead: top >= AccessMode.read,
      canCreateRepository: top >= AccessMode.owner || teams.some((t) => t.canCreateOrgRepo),
    };
  }

  /** Owners, and members of a team allowed to create repositories (Gitea's CanCreateOrgRepo). */
  async function canCreateRepoIn(org: User, user: User): Promise<boolean> {
    return user.isAdmin || orgsDb.canCreateOrgRepo(db, org.id, user.id);
  }

  /**
   * POST /orgs/{org}/repos. Teams that include every repository have it at once; a creator who is not
   * repository admin through a team becomes an admin collaborator (RepoService.create).
   */
  async function createRepo(org: User, doer: User, input: CreateRepoInput): Promise<RepoAccess> {
    if (!(await canCreateRepoIn(org, doer))) throw new AppError('forbidden', 'Given user is not allowed to create repository in organization.');
    return repos.create(doer, org, input);
  }

  // ---- members ----

  /** GET /orgs/{org}/members: every member for members (and admins), public members for everyone else. */
  async function listMembers(org: User, actor: Actor, paging: Paging) {
    const viewer = actor.user;
    const all = !!viewer && (viewer.isAdmin || (await isMember(org.id, viewer.id)));
    return orgsDb.listMembers(db, org.id, !all, paging.offset, paging.limit);
  }

  const listPublicMembers = (org: User, paging: Paging) => orgsDb.listMembers(db, org.id, true, paging.offset, paging.limit);

  /**
   * GET /orgs/{org}/members/{username}: members and admins get 204/404; a non-member asking about
   * themself gets 404; other non-members are sent to the public-members check (303), as Gitea does.
   */
  /**
   * The contract for orgIsMember: "404 not, with an empty body" (Gitea sends its JSON not-found body).
   * Rethrows any not-found as the empty one (for `.catch` on the organization lookup).
   */
  function emptyNotFound(e: unknown): never {
    if (e instanceof AppError && e.kind === 'not_found') throw new AppError('not_found', e.message, { emptyBody: true });
    throw e;
  }

  async function checkMember(org: User, doer: User, username: string): Promise<'yes' | 'redirect'> {
    const target = await usersDb.getUserByName(db, username);
    const no = () => new AppError('not_found', "The target couldn't be found.", { emptyBody: true });
    if (doer.isAdmin || (await isMember(org.id, doer.id))) {
      if (target && !target.isOrganization && (await isMember(org.id, target.id))) return 'yes';
      throw no();
    }
    if (!target || target.id === doer.id) throw no();
    return 'redirect';
  }

  async function checkPublicMember(org: User, username: string): Promise<void> {
    const target = await usersDb.getUserByName(db, username);
    if (!target || !(await orgsDb.isPublicOrgMember(db, org.id, target.id))) throw notFound();
  }

  async function memberTarget(org: User, username: string): Promise<User> {
    const target = await usersDb.getUserByName(db, username);
    if (!target || target.isOrganization) throw notFound();
    return target;
  }

  /** PUT/DELETE /orgs/{org}/public_members/{username}: the member themself, an org owner or a site admin. */
  async function setPublicMember(org: User, doer: User, username: string, isPublic: boolean): Promise<void> {
    await assertMember(org, doer);
    const target = await memberTarget(org, username);
    if (target.id !== doer.id && !doer.isAdmin && !(await isOwner(org.id, doer.id))) {
      throw new AppError('forbidden', isPublic ? 'Cannot publicize another member' : 'Cannot conceal another member');
    }
    if (!(await isMember(org.id, target.id))) throw notFound();
    await orgsDb.setMemberPublic(db, org.id, target.id, isPublic);
  }

  /** The last owner cannot leave: an organization always keeps one (Gitea's ErrLastOrgOwner). */
  async function assertNotLastOwner(org: User, uid: number): Promise<void> {
    const ownersTeam = (await orgsDb.searchTeams(db, { orgId: org.id, offset: 0, limit: 1000 })).teams.filter(isOwnersTeam);
    for (const t of ownersTeam) {
      if ((await orgsDb.isTeamMember(db, t.id, uid)) && (await orgsDb.countTeamMembers(db, t.id)) <= 1) {
        throw new AppError('validation', `user is the last member of owner team [uid: ${uid}]`);
      }
    }
  }

  /**
   * Runs a removal with the owner teams locked and undoes it when no owner would be left: the checks before
   * it alone would let two owners removing each other at the same moment leave the organization ownerless.
   */
  async function removeKeepingAnOwner(orgId: number, uid: number, removal: (trx: typeof db) => Promise<void>): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await orgsDb.lockOwnerTeams(trx, orgId);
      const wasOwner = await orgsDb.isOrgOwner(trx, orgId, uid);
      await removal(trx);
      if (wasOwner && (await orgsDb.countOwners(trx, orgId)) === 0) throw new AppError('validation', `user is the last member of owner team [uid: ${uid}]`);
    });
  }

  async function removeMember(org: User, doer: User, username: string): Promise<void> {
    await assertOwner(org, doer);
    const target = await memberTarget(org, username);
    if (!(await isMember(org.id, target.id))) throw notFound();
    await assertNotLastOwner(org, target.id);
    await removeKeepingAnOwner(org.id, target.id, (trx) => orgsDb.removeOrgMember(trx, org.id, target.id));
  }

  // ---- teams ----

  /**
   * Gitea's team access rules: admin (and owner) teams get every unit; otherwise units_map wins over
   * units, and the team mode becomes the lowest non-none mode of units_map. Unknown units are ignored.
   */
  function teamAccess(input: TeamInput, current?: Team): { mode: number; units: Record<string, number> } | undefined {
    if (input.permission === undefined && input.units === undefined && input.unitsMap === undefined) return undefined;
    let mode = input.permission !== undefined ? parseModeName(input.permission) : (current?.mode ?? AccessMode.none);
    if (input.permission !== undefined && !['read', 'write', 'admin'].includes(input.permission)) {
      throw new AppError('validation', '[Permission]: In');
    }
    if (mode >= AccessMode.admin) return { mode, units: allUnits(mode) };
    const units: Record<string, number> = {};
    if (input.unitsMap && Object.keys(input.unitsMap).length > 0) {
      let lowest = 0;
      for (const [unit, m] of Object.entries(input.unitsMap)) {
        if (!(TEAM_UNITS as readonly string[]).includes(unit)) continue;
        let v = parseModeName(m);
        if (v >= AccessMode.admin) v = AccessMode.admin;
        if (EXTERNAL_UNITS.includes(unit)) v = Math.min(v, AccessMode.read);
        if (v === AccessMode.none) continue;
        units[unit] = v;
        if (!EXTERNAL_UNITS.includes(unit) && (lowest === 0 || v < lowest)) lowest = v;
      }
      if (lowest > 0) mode = lowest;
    } else if (input.units && input.units.length > 0) {
      // Without a permission Gitea's team would have mode none; read is the useful reading of it.
      for (const unit of input.units) {
        if (!(TEAM_UNITS as readonly string[]).includes(unit)) continue;
        units[unit] = EXTERNAL_UNITS.includes(unit) ? AccessMode.read : Math.max(mode, AccessMode.read);
      }
    } else if (current) {
      if (input.permission === undefined) return { mode, units: { ...current.units } };
      // A new permission without units applies to the units the team has: otherwise a team lowered from
      // admin to read would keep admin on every unit (and so repository admin for its members).
      const remapped: Record<string, number> = {};
      for (const unit of Object.keys(current.units)) remapped[unit] = EXTERNAL_UNITS.includes(unit) ? AccessMode.read : Math.max(mode, AccessMode.read);
      return { mode: Math.max(mode, AccessMode.read), units: remapped };
    } else {
      // Gitea 1.22 answers 500 here; it is the client's mistake, so 422.
      throw new AppError('validation', 'units permission should not be empty');
    }
    if (Object.keys(units).length === 0) throw new AppError('validation', 'units permission should not be empty');
    return { mode: Math.max(mode, AccessMode.read), units };
  }

  async function createTeam(org: User, doer: User, input: TeamInput): Promise<Team> {
    await assertOwner(org, doer);
    const name = input.name ?? '';
    if (name === '') throw new AppError('validation', '[Name]: Required');
    if (!TEAM_NAME.test(name)) throw new AppError('validation', '[Name]: AlphaDashDot');
    checkLength('Name', name, 255);
    checkLength('Description', input.description, 255);
    const access = teamAccess(input) ?? (() => {
      throw new AppError('validation', 'units permission should not be empty');
    })();
    if (await orgsDb.getTeamByName(db, org.id, name)) throw new AppError('validation', `team already exists [org_id: ${org.id}, name: ${name}]`);
    let id: number;
    try {
      id = await orgsDb.insertTeam(
        db,
        org.id,
        {
          name,
          description: input.description ?? '',
          mode: access.mode,
          units: access.units,
          includesAllRepositories: input.includesAllRepositories ?? false,
          canCreateOrgRepo: input.canCreateOrgRepo ?? false,
        },
        unixNow(deps),
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('validation', `team already exists [org_id: ${org.id}, name: ${name}]`);
      throw e;
    }
    return (await orgsDb.getTeamById(db, id))!;
  }

  /**
   * A team for the caller on /teams/{id} routes, with Gitea's guards in their order: site admins and
   * org owners pass; a caller outside the organization gets 404; an org member outside the team 403
   * `Must be a team member` (reqTeamMembership); owner-only routes then answer 404 (reqOrgOwnership on
   * team routes).
   */
  async function resolveTeam(id: number, actor: Actor, needOwner = false): Promise<{ team: Team; org: User }> {
    const team = await orgsDb.getTeamById(db, id);
    const doer = actor.user;
    if (!team || !doer) throw notFound();
    const org = await usersDb.getUserById(db, team.orgId);
    if (!org) throw notFound();
    if (!doer.isAdmin && !(await isOwner(org.id, doer.id))) {
      if (!(await isMember(org.id, doer.id))) throw notFound();
      if (!(await orgsDb.isTeamMember(db, team.id, doer.id))) throw new AppError('forbidden', 'Must be a team member');
      if (needOwner) throw notFound();
    }
    if (actor.scopes?.publicOnly && org.visibility !== 'public') throw new AppError('forbidden', 'token scope is limited to public orgs');
    return { team, org };
  }

  /**
   * PATCH /teams/{id}. Gitea quirks kept: permission and includes_all_repositories are ignored for the
   * Owners team, whose can_create_org_repo stays true; includes_all_repositories applies only together
   * with permission.
   */
  async function editTeam(team: Team, input: TeamInput): Promise<Team> {
    const changes: orgsDb.TeamFields = { updatedUnix: unixNow(deps) };
    if (input.name !== undefined && input.name !== '' && input.name !== team.name) {
      if (isOwnersTeam(team)) throw new AppError('validation', 'cannot rename the Owners team');
      if (!TEAM_NAME.test(input.name)) throw new AppError('validation', '[Name]: AlphaDashDot');
      checkLength('Name', input.name, 255);
      const other = await orgsDb.getTeamByName(db, team.orgId, input.name);
      if (other && other.id !== team.id) throw new AppError('validation', `team already exists [org_id: ${team.orgId}, name: ${input.name}]`);
      changes.name = input.name;
    }
    if (input.description !== undefined) {
      checkLength('Description', input.description, 255);
      changes.description = input.description;
    }
    if (isOwnersTeam(team)) {
      changes.canCreateOrgRepo = true;
    } else {
      if (input.canCreateOrgRepo !== undefined) changes.canCreateOrgRepo = input.canCreateOrgRepo;
      const access = teamAccess(input, team);
      if (access) {
        changes.mode = access.mode;
        changes.units = access.units;
      }
      if (input.permission !== undefined && input.includesAllRepositories !== undefined) changes.includesAllRepositories = input.includesAllRepositories;
    }
    try {
      await orgsDb.updateTeam(db, team.id, changes);
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('validation', `team already exists [org_id: ${team.orgId}, name: ${input.name ?? ''}]`);
      throw e;
    }
    return (await orgsDb.getTeamById(db, team.id))!;
  }

  /** DELETE /teams/{id}; the Owners team stays (an organization always has its owners). */
  async function deleteTeam(team: Team): Promise<void> {
    if (isOwnersTeam(team)) throw new AppError('validation', 'cannot delete the Owners team');
    await db.transaction().execute((trx) => orgsDb.deleteTeam(trx, team));
  }

  /** GET /orgs/{org}/teams: members see every team (Gitea's reqOrgMembership). */
  async function listTeams(org: User, doer: User, paging: Paging) {
    await assertMember(org, doer);
    return orgsDb.searchTeams(db, { orgId: org.id, offset: paging.offset, limit: paging.limit });
  }

  /** GET /orgs/{org}/teams/search: members; those who are neither owner nor admin only find their own teams. */
  async function searchTeams(org: User, doer: User, q: { keyword?: string | undefined; includeDesc?: boolean | undefined }, paging: Paging) {
    await assertMember(org, doer);
    const all = doer.isAdmin || (await isOwner(org.id, doer.id));
    return orgsDb.searchTeams(db, {
      orgId: org.id,
      memberId: all ? undefined : doer.id,
      keyword: q.keyword?.trim() || undefined,
      includeDescription: q.includeDesc ?? false,
      offset: paging.offset,
      limit: paging.limit,
    });
  }

  /** GET /user/teams: the caller's teams in every organization, with their organization (public ones only for a public-only token). */
  async function listUserTeams(user: User, paging: Paging, publicOrgsOnly = false) {
    const r = await orgsDb.searchTeams(db, { memberId: user.id, publicOrgsOnly, offset: paging.offset, limit: paging.limit });
    const orgs = new Map((await usersDb.getUsersByIds(db, [...new Set(r.teams.map((t) => t.orgId))])).map((o) => [o.id, o]));
    return { teams: r.teams.map((t) => ({ team: t, org: orgs.get(t.orgId) ?? null })), total: r.total };
  }

  const listTeamMembers = (team: Team, paging: Paging) => orgsDb.listTeamMembers(db, team.id, paging.offset, paging.limit);

  async function teamMember(team: Team, username: string): Promise<User> {
    const user = await usersDb.getUserByName(db, username);
    if (!user || !(await orgsDb.isTeamMember(db, team.id, user.id))) throw notFound();
    return user;
  }

  async function addTeamMember(team: Team, username: string): Promise<void> {
    const user = await memberTarget({ id: team.orgId } as User, username);
    await db.transaction().execute((trx) => orgsDb.addTeamMember(trx, team, user.id));
  }

  async function removeTeamMember(team: Team, username: string): Promise<void> {
    const user = await memberTarget({ id: team.orgId } as User, username);
    if (!(await orgsDb.isTeamMember(db, team.id, user.id))) throw notFound();
    if (isOwnersTeam(team) && (await orgsDb.countTeamMembers(db, team.id)) <= 1) {
      throw new AppError('validation', `user is the last member of owner team [uid: ${user.id}]`);
    }
    await removeKeepingAnOwner(team.orgId, user.id, (trx) => orgsDb.removeTeamMember(trx, team, user.id));
  }

  async function listTeamRepos(team: Team, actor: Actor, paging: Paging) {
    // A public-only token lists the team's public repositories only (resolveTeam already wants a public org).
    const { ids, total } = await orgsDb.teamRepoIds(db, team, paging.offset, paging.limit, !!actor.scopes?.publicOnly);
    const rows = await reposDb.getReposByIds(db, ids);
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return { repos: await repos.withAccess(rows, actor), total };
  }

  /** A repository of the team's organization, visible to the caller (404 otherwise). */
  async function teamRepoTarget(team: Team, owner: string, repo: string, actor: Actor): Promise<RepoAccess> {
    const access = await repos.resolve(owner, repo, actor);
    if (access.owner.id !== team.orgId) throw notFound();
    return access;
  }

  async function getTeamRepo(team: Team, owner: string, repo: string, actor: Actor): Promise<RepoAccess> {
    const access = await teamRepoTarget(team, owner, repo, actor);
    if (!(await orgsDb.hasTeamRepo(db, team, access.repo.id))) throw notFound();
    return access;
  }

  async function setTeamRepo(team: Team, owner: string, repo: string, actor: Actor, add: boolean): Promise<void> {
    const access = await teamRepoTarget(team, owner, repo, actor);
    if (access.mode < AccessMode.admin) throw new AppError('forbidden', 'Must have admin-level access to the repository');
    if (add) await orgsDb.addTeamRepo(db, team, access.repo.id);
    else await orgsDb.removeTeamRepo(db, team.id, access.repo.id);
  }

  // ---- teams of a repository (/repos/{owner}/{repo}/teams) ----

  /** Gitea answers 405 for team operations on a repository that a user owns. */
  function requireOrgRepo(access: RepoAccess): void {
    if (!access.owner.isOrganization) throw new AppError('method_not_allowed', 'repo is not owned by an organization');
  }

  async function repoTeams(access: RepoAccess): Promise<Team[]> {
    requireOrgRepo(access);
    return orgsDb.teamsOfRepo(db, access.owner.id, access.repo.id);
  }

  async function teamByName(access: RepoAccess, name: string): Promise<Team> {
    const team = await orgsDb.getTeamByName(db, access.owner.id, name);
    if (!team) throw notFound();
    return team;
  }

  /** GET /repos/{o}/{r}/teams/{team}: the team when it has the repository, 404 otherwise. */
  async function repoTeam(access: RepoAccess, name: string): Promise<Team> {
    requireOrgRepo(access);
    const team = await teamByName(access, name);
    if (!(await orgsDb.hasTeamRepo(db, team, access.repo.id))) throw notFound();
    return team;
  }

  /**
   * PUT/DELETE /repos/{o}/{r}/teams/{team}: repository admins (reqAdmin); unless the organization has
   * repo_admin_change_team_access, only repository owners (org owners, admin teams, site admins).
   */
  async function changeRepoTeam(access: RepoAccess, name: string, add: boolean): Promise<void> {
    if (access.mode < AccessMode.admin) throw new AppError('forbidden', 'user should be an owner or a collaborator with admin write of a repository');
    requireOrgRepo(access);
    if (!access.owner.repoAdminChangeTeamAccess && access.mode < AccessMode.owner) throw new AppError('forbidden', 'user is nor repo admin nor owner');
    const team = await teamByName(access, name);
    const has = await orgsDb.hasTeamRepo(db, team, access.repo.id);
    if (add) {
      if (has) throw new AppError('validation', `team '${team.name}' is already added to repo`);
      await orgsDb.addTeamRepo(db, team, access.repo.id);
    } else {
      if (!has) throw new AppError('validation', `team '${team.name}' was not added to repo`);
      // Like Gitea, a team that includes every repository keeps this one.
      await orgsDb.removeTeamRepo(db, team.id, access.repo.id);
    }
  }

  // ---- labels ----

  function validateLabel(input: LabelInput, creating: boolean): { color?: string } {
    if (creating && (input.name ?? '').trim() === '') throw new AppError('validation', '[Name]: Required');
    if (creating && (input.color ?? '') === '') throw new AppError('validation', '[Color]: Required');
    checkLength('Name', input.name, 50);
    checkLength('Description', input.description, 200);
    if (input.color === undefined) return {};
    const c = normalizeLabelColor(input.color);
    if ('error' in c) throw new AppError('validation', c.error);
    return { color: c.color };
  }

  async function createLabel(org: User, doer: User, input: LabelInput): Promise<Label> {
    await assertOwner(org, doer);
    const { color } = validateLabel(input, true);
    const now = unixNow(deps);
    const id = await orgsDb.insertLabel(
      db,
      { orgId: org.id },
      { name: input.name!, color: color!, description: input.description ?? '', exclusive: input.exclusive ?? false, archivedUnix: input.isArchived ? now : 0 },
      now,
    );
    return (await orgsDb.getOrgLabel(db, org.id, id))!;
  }

  async function getLabel(org: User, id: number): Promise<Label> {
    const label = await orgsDb.getOrgLabel(db, org.id, id);
    if (!label) throw notFound();
    return label;
  }

  async function editLabel(org: User, doer: User, id: number, input: LabelInput): Promise<Label> {
    await assertOwner(org, doer);
    const label = await getLabel(org, id);
    if (input.name !== undefined && input.name.trim() === '') throw new AppError('validation', '[Name]: Required');
    const { color } = validateLabel(input, false);
    const now = unixNow(deps);
    await orgsDb.updateLabel(db, label.id, {
      name: input.name,
      color,
      description: input.description,
      exclusive: input.exclusive,
      archivedUnix: input.isArchived === undefined ? undefined : input.isArchived ? label.archivedUnix || now : 0,
      updatedUnix: now,
    });
    return (await orgsDb.getOrgLabel(db, org.id, id))!;
  }

  async function deleteLabel(org: User, doer: User, id: number): Promise<void> {
    await assertOwner(org, doer);
    const label = await getLabel(org, id);
    await orgsDb.deleteLabel(db, label.id);
  }

  const listLabels = (org: User, paging: Paging) => orgsDb.listOrgLabels(db, org.id, paging.offset, paging.limit);

  return {
    purgeMember,
    resolveOrg,
    resolveOrgFor,
    resolveOrgForCreate,
    isOwner,
    isMember,
    canSee,
    canCreateRepoIn,
    create,
    edit,
    remove,
    listAll,
    adminListAll,
    listForUser,
    permissionsOf,
    createRepo,
    listMembers,
    listPublicMembers,
    checkMember,
    emptyNotFound,
    checkPublicMember,
    setPublicMember,
    removeMember,
    createTeam,
    resolveTeam,
    editTeam,
    deleteTeam,
    listTeams,
    searchTeams,
    listUserTeams,
    listTeamMembers,
    teamMember,
    addTeamMember,
    removeTeamMember,
    listTeamRepos,
    getTeamRepo,
    setTeamRepo,
    repoTeams,
    repoTeam,
    changeRepoTeam,
    createLabel,
    getLabel,
    editLabel,
    deleteLabel,
    listLabels,
  };
}

export type OrgService = ReturnType<typeof createOrgService>;
