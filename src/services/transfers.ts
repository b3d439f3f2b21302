import { AppError, notFound } from '../domain/errors.js';
import { AccessMode, type Repository } from '../domain/repo.js';
import type { Actor, User } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as reposDb from '../db/repos.js';
import * as socialDb from '../db/social.js';
import * as transfersDb from '../db/transfers.js';
import * as usersDb from '../db/users.js';
import * as orgsDb from '../db/orgs.js';
import type { Team } from '../domain/org.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { RepoAccess, RepoService } from './repos.js';

/** Gitea's RepositoryStatus values. */
const STATUS_READY = 0;
const STATUS_PENDING_TRANSFER = 2;

export interface TransferInput {
  readonly newOwner: string;
  readonly teamIds?: readonly number[] | undefined;
}

export function createTransferService(deps: ServiceDeps, repos: RepoService) {
  const { db } = deps;

  const alreadyExists = (owner: User, repo: Repository) => new AppError('validation', `repository already exists [uname: ${owner.lowerName}, name: ${repo.name}]`);

  /**
   * Moves the repository to `newOwner` (Gitea's TransferOwnership). On disk nothing moves (directories are
   * named by id). In one transaction: the owner changes, a pending transfer is dropped, the new owner's own
   * collaboration goes, a redirect at the new owner's name is replaced and the old full name redirects here.
   */
  async function transferOwnership(repo: Repository, oldOwner: User, newOwner: User, teams: readonly Team[] = []): Promise<void> {
    if (await reposDb.getRepoByName(db, newOwner.id, repo.name)) throw alreadyExists(newOwner, repo);
    try {
      await db.transaction().execute(async (trx) => {
        await reposDb.updateRepo(trx, repo.id, { ownerId: newOwner.id, status: STATUS_READY, updatedUnix: unixNow(deps) });
        await transfersDb.deleteTransfer(trx, repo.id);
        await socialDb.deleteCollaborator(trx, repo.id, newOwner.id);
        // Team links of the old organization go; into an organization, collaborators who are its members
        // are redundant (Gitea removes them) and the chosen teams get the repository.
        await trx.deleteFrom('team_repo').where('repo_id', '=', repo.id).execute();
        if (newOwner.isOrganization) {
          await trx
            .deleteFrom('collaboration')
            .where('repo_id', '=', repo.id)
            .where('user_id', 'in', trx.selectFrom('org_user').select('uid').where('org_id', '=', newOwner.id))
            .execute();
          for (const team of teams) await orgsDb.addTeamRepo(trx, team, repo.id);
        }
        await reposDb.deleteRepoRedirect(trx, newOwner.id, repo.lowerName);
        await reposDb.setRepoRedirect(trx, oldOwner.id, repo.lowerName, repo.id);
        await reposDb.refreshOwnerRepoCount(trx, oldOwner.id);
        await reposDb.refreshOwnerRepoCount(trx, newOwner.id);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw alreadyExists(newOwner, repo);
      throw e;
    }
  }

  /**
   * Starts a transfer (Gitea's StartRepositoryTransfer): immediate for a site administrator or to oneself,
   * otherwise pending until the recipient accepts; the recipient gets read access when it had none.
   * Returns whether the transfer is still pending, and the repository as it is now.
   */
  async function start(access: RepoAccess, doer: User, input: TransferInput): Promise<{ pending: boolean; access: RepoAccess }> {
    if (access.mode < AccessMode.owner) throw new AppError('forbidden', 'user should be the owner of the repo');
    const newOwner = await usersDb.getUserByName(db, input.newOwner);
    if (!newOwner) throw new AppError('not_found', 'The new owner does not exist or cannot be found');
    // A private organization is not revealed to those outside it.
    if (newOwner.isOrganization && newOwner.visibility === 'private' && !doer.isAdmin && !(await orgsDb.isOrgMember(db, newOwner.id, doer.id))) {
      throw new AppError('not_found', 'The new owner does not exist or cannot be found');
    }
    const teams = await transferTeams(newOwner, input.teamIds);
    const { repo, owner } = access;
    // A status left at 2 without a transfer row (its recipient was deleted) counts as ready.
    if (await transfersDb.getPendingTransfer(db, repo.id)) {
      throw new AppError('conflict', `repository is already being transferred [uname: ${owner.lowerName}, name: ${repo.name}]`);
    }
    // Site admins, the recipient themself, and those who may create repositories in the receiving
    // organization transfer at once.
    if (doer.isAdmin || doer.id === newOwner.id || (newOwner.isOrganization && (await orgsDb.canCreateOrgRepo(db, newOwner.id, doer.id)))) {
      await transferOwnership(repo, owner, newOwner, teams);
      return { pending: false, access: { repo: (await reposDb.getRepoById(db, repo.id))!, owner: newOwner, mode: AccessMode.admin } };
    }
    if (await reposDb.getRepoByName(db, newOwner.id, repo.name)) throw alreadyExists(newOwner, repo);
    const needsAccess = (await repos.accessMode(repo, owner, newOwner)) === AccessMode.none;
    const now = unixNow(deps);
    try {
      await db.transaction().execute(async (trx) => {
        await transfersDb.insertTransfer(trx, { doerId: doer.id, recipientId: newOwner.id, repoId: repo.id, teamIds: teams.map((t) => t.id), now });
        await reposDb.updateRepo(trx, repo.id, { status: STATUS_PENDING_TRANSFER });
        if (needsAccess) await socialDb.upsertCollaborator(trx, repo.id, newOwner.id, AccessMode.read, now);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('conflict', `repository is already being transferred [uname: ${owner.lowerName}, name: ${repo.name}]`);
      throw e;
    }
    const fresh = (await reposDb.getRepoById(db, repo.id))!;
    // Gitea answers with admin permissions whatever the doer's real mode.
    return { pending: true, access: { repo: fresh, owner, mode: AccessMode.admin, transfer: { doer, recipient: newOwner, teams } } };
  }

  /**
   * team_ids of a transfer: only for an organization recipient (422 otherwise, even []); an unknown team
   * is 422, a team of another organization 403 (Gitea's texts).
   */
  async function transferTeams(newOwner: User, ids: readonly number[] | undefined): Promise<Team[]> {
    if (ids === undefined) return [];
    if (!newOwner.isOrganization) throw new AppError('validation', 'Teams can only be added to organization-owned repositories');
    const teams: Team[] = [];
    for (const id of ids) {
      const team = await orgsDb.getTeamById(db, id);
      if (!team) throw new AppError('validation', `team ${id} not found`);
      if (team.orgId !== newOwner.id) throw new AppError('forbidden', `team ${id} belongs not to org ${newOwner.id}`);
      teams.push(team);
    }
    return teams;
  }

  async function pendingFor(access: RepoAccess, doer: User) {
    const t = await transfersDb.getPendingTransfer(db, access.repo.id);
    if (!t) throw notFound(`repository doesn't have a pending transfer [repo_id: ${access.repo.id}]`);
    // Gitea's CanUserAcceptTransfer: the recipient or a site administrator; for an organization, those
    // who may create repositories in it.
    if (doer.id === t.recipientId || doer.isAdmin || (await orgsDb.canCreateOrgRepo(db, t.recipientId, doer.id))) return t;
    throw new AppError('forbidden', 'permission denied');
  }

  /** The recipient completes the pending transfer; the answer carries the caller's access after the move. */
  async function accept(access: RepoAccess, doer: User, actor: Actor): Promise<RepoAccess> {
    const t = await pendingFor(access, doer);
    const recipient = await usersDb.getUserById(db, t.recipientId);
    if (!recipient) throw notFound(`repository doesn't have a pending transfer [repo_id: ${access.repo.id}]`);
    await transferOwnership(access.repo, access.owner, recipient, await orgsDb.getTeamsByIds(db, t.teamIds));
    return repos.resolveById(access.repo.id, actor);
  }

  /** The recipient declines: the transfer is dropped and the repository is ready again where it was. */
  async function reject(access: RepoAccess, doer: User, actor: Actor): Promise<RepoAccess> {
    await pendingFor(access, doer);
    await db.transaction().execute(async (trx) => {
      await transfersDb.deleteTransfer(trx, access.repo.id);
      await reposDb.updateRepo(trx, access.repo.id, { status: STATUS_READY });
    });
    return repos.resolveById(access.repo.id, actor);
  }

  return { start, accept, reject };
}

export type TransferService = ReturnType<typeof createTransferService>;
