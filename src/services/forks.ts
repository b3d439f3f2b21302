import { AppError } from '../domain/errors.js';
import { DEFAULT_REPO_SETTINGS, repoNameProblem } from '../domain/repo.js';
import type { Actor, User } from '../domain/user.js';
import * as reposDb from '../db/repos.js';
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
    // Organizations do not exist yet: any name is an unknown organization, as Gitea answers for one (422).
    if (input.organization !== undefined) throw new AppError('validation', `org does not exist [id: 0, name: ${input.organization}]`);
    const owner = doer;
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

    return repos.materialize(owner, name, {
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
        return id;
      },
    });
  }

  /** The forks of `base` the caller may see, oldest first (Gitea's FindForks), with X-Total-Count. */
  async function list(base: RepoAccess, actor: Actor, paging: Paging) {
    return repos.search(actor, { forkId: base.repo.id, orderBy: { column: 'id', desc: false } }, paging);
  }

  return { fork, list };
}

export type ForkService = ReturnType<typeof createForkService>;
