import { AppError } from '../domain/errors.js';
import { DEFAULT_REPO_SETTINGS, repoNameProblem } from '../domain/repo.js';
import type { Actor, User } from '../domain/user.js';
import * as reposDb from '../db/repos.js';
import * as usersDb from '../db/users.js';
import * as orgsDb from '../db/orgs.js';
import { cloneBare } from '../git/repo.js';
import type { ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import type { RepoAccess, RepoService } from './repos.js';

export interface ForkInput {
  readonly name?: string | undefined;
  readonly organization?: string | undefined;
}

export function createForkService(deps: ServiceDeps, repos: RepoService) {
  const { db } = deps;

  /**
   * Forks `base` for `doer` (Gitea's ForkRepository). The copy is made like a create: the git directory is
   * cloned (objects hard-linked) under a temporary name, the row is inserted and the parent's fork count
   * refreshed in one transaction, then the directory moves to its id-based place; a failure removes both.
   */
  async function fork(base: RepoAccess, doer: User, input: ForkInput): Promise<RepoAccess> {
    const owner = input.organization ? await forkOwner(input.organization, doer) : doer;
    const name = input.name ?? base.repo.name;
    const problem = repoNameProblem(name);
    if (problem) throw new AppError('validation', problem);
    const existing = await reposDb.getUserFork(db, base.repo.id, owner.id);
    if (existing) {
      throw new AppError(
        'conflict',
        `repository is already forked by user [uname: ${owner.name}, repo path: ${base.owner.name}/${base.repo.name}, fork path: ${owner.name}/${existing.name}]`,
      );
    }
    const taken = () => new AppError('conflict', `repository already exists [uname: ${owner.name}, name: ${name}]`);
    if (await reposDb.getRepoByName(db, owner.id, name)) throw taken();

    const created = await repos.materialize(owner, name, {
      conflict: taken,
      prepare: (tmp) => cloneBare(repos.repoPath(base.repo.id), tmp),
      async insert(trx, now) {
        const id = await reposDb.insertRepo(
          trx,
          owner.id,
          {
            name,
            description: base.repo.description,
            defaultBranch: base.repo.defaultBranch,
            objectFormatName: base.repo.objectFormatName,
            trustModel: 'default',
            // Gitea: private when the source is, or when the source's owner is private.
            isPrivate: base.repo.isPrivate || base.owner.visibility === 'private',
            isTemplate: false,
            isEmpty: base.repo.isEmpty,
            isFork: true,
            forkId: base.repo.id,
            numCommits: base.repo.numCommits,
            settings: { ...DEFAULT_REPO_SETTINGS },
          },
          now,
        );
        await reposDb.refreshForkCount(trx, base.repo.id);
        // Webhooks: `fork` to the source's hooks; `repository created` only when the fork goes to an organization.
        const forked = await reposDb.getRepoById(trx, id);
        if (forked) {
          await deps.events.emit(trx, { type: 'fork', source: { repo: base.repo, owner: base.owner }, fork: { repo: forked, owner }, sender: doer, senderMode: base.mode });
          if (owner.isOrganization) await deps.events.emit(trx, { type: 'repository', action: 'created', repo: { repo: forked, owner }, sender: doer });
        }
        return id;
      },
    });
    deps.events.wake();
    await repos.ensureCreatorAdmin(owner, created.repo.id, doer);
    return created;
  }

  /**
   * The organization named in `organization`: unknown (or not an organization) is 422; a caller outside it
   * is 403 with Gitea's text; a member must also be allowed to create repositories there (Owners, or a
   * team with can_create_org_repo).
   */
  async function forkOwner(name: string, doer: User): Promise<User> {
    const org = await usersDb.getUserByName(db, name);
    if (!org || !org.isOrganization) throw new AppError('validation', `org does not exist [id: 0, name: ${name}]`);
    if (doer.isAdmin) return org;
    if (!(await orgsDb.isOrgMember(db, org.id, doer.id))) throw new AppError('forbidden', `User is no Member of Organisation '${org.name}'`);
    if (!(await orgsDb.canCreateOrgRepo(db, org.id, doer.id))) throw new AppError('forbidden', 'Given user is not allowed to create repository in organization.');
    return org;
  }

  /** The forks of `base` the caller may see, oldest first (Gitea's FindForks), with X-Total-Count. */
  async function list(base: RepoAccess, actor: Actor, paging: Paging) {
    return repos.search(actor, { forkId: base.repo.id, orderBy: { column: 'id', desc: false } }, paging);
  }

  return { fork, list };
}

export type ForkService = ReturnType<typeof createForkService>;
