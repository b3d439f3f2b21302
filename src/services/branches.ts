import { AppError, notFound } from '../domain/errors.js';
import { AccessMode } from '../domain/repo.js';
import * as reposDb from '../db/repos.js';
import * as protectionsDb from '../db/protections.js';
import { firstMatchingRule } from '../domain/protection.js';
import { getBranch, listBranches, type GitBranch } from '../git/branches.js';
import { isValidBranchName } from '../git/refs.js';
import { deleteRef, RefConflictError, resolveFullRef, resolveRefish, updateRef } from '../git/repo.js';
import { GitError } from '../git/run.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import type { RepoAccess, RepoService } from './repos.js';
import type { User } from '../domain/user.js';
import { refEvents } from './refevents.js';
import type { RefUpdate } from '../git/pushinfo.js';

export function createBranchService(deps: ServiceDeps, repos: RepoService) {
  /**
   * All branches from one `git for-each-ref`, paged in memory, in Gitea's order for its branch table:
   * latest commit time first, then by name.
   */
  async function list(access: RepoAccess, paging: Paging): Promise<{ branches: GitBranch[]; total: number }> {
    if (access.repo.isEmpty) return { branches: [], total: 0 };
    const all = (await listBranches(repos.repoPath(access.repo.id)))
      .map((b) => ({ b, t: Math.floor(Date.parse(b.commit.committer.date) / 1000) }))
      .sort((x, y) => y.t - x.t || (x.b.name < y.b.name ? -1 : x.b.name > y.b.name ? 1 : 0))
      .map((x) => x.b);
    return { branches: all.slice(paging.offset, paging.offset + paging.limit), total: all.length };
  }

  async function get(access: RepoAccess, name: string): Promise<GitBranch> {
    if (!isValidBranchName(name)) throw notFound();
    const branch = await getBranch(repos.repoPath(access.repo.id), name);
    if (!branch) throw new AppError('not_found', 'The target couldn\'t be found.');
    return branch;
  }

  function requireWritable(access: RepoAccess): void {
    if (access.mode < AccessMode.write) throw new AppError('forbidden', 'user should have a permission to write to a repo');
    // Gitea's mustNotBeArchived answers 423 with the repository's LogString.
    if (access.repo.isArchived) throw new AppError('locked', `<Repository ${access.repo.id}:${access.owner.name}/${access.repo.name}> is archived`);
    if (access.repo.isMirror) throw new AppError('forbidden', 'Git Repository is a mirror.');
  }

  /** Creates `name` at `from` (a branch, tag or commit; default: the default branch). */
  async function create(access: RepoAccess, name: string, from: string | undefined, doer?: User): Promise<GitBranch> {
    requireWritable(access);
    const path = repos.repoPath(access.repo.id);
    // Gitea's binding rules on new_branch_name: GitRefName, then MaxSize(100).
    if (!isValidBranchName(name)) throw new AppError('validation', '[NewBranchName]: GitRefName');
    if ([...name].length > 100) throw new AppError('validation', '[NewBranchName]: MaxSize');
    const start = from?.trim() || access.repo.defaultBranch;
    if (access.repo.isEmpty) throw new AppError('not_found', 'Git Repository is empty.');
    const resolved = await resolveRefish(path, start);
    if (!resolved) throw new AppError('not_found', `The old branch does not exist: ${start}`);
    const existing = (await listBranches(path)).map((b) => b.name);
    if (existing.includes(name)) throw new AppError('conflict', 'The branch already exists.');
    // git cannot hold both refs/heads/a and refs/heads/a/b.
    if (existing.some((b) => b.startsWith(`${name}/`) || name.startsWith(`${b}/`))) {
      throw new AppError('conflict', 'The branch with the same name already exists.');
    }
    if (await resolveFullRef(path, `refs/tags/${name}`)) throw new AppError('conflict', 'The branch with the same tag already exists.');
    try {
      await updateRef(path, `refs/heads/${name}`, resolved.sha, null);
    } catch (e) {
      if (e instanceof RefConflictError) throw new AppError('conflict', 'The branch already exists.');
      // A name that collides with an existing directory of refs (a/b vs a) is refused by git; anything else
      // (disk, permissions) is a real failure and stays one.
      if (e instanceof GitError && /cannot lock ref|exists; cannot create|is a directory|File exists/i.test(e.stderr)) {
        throw new AppError('conflict', 'The branch with the same name already exists.');
      }
      throw e;
    }
    await recordRefChange(access, doer, [{ ref: `refs/heads/${name}`, before: '', after: resolved.sha }], true);
    return (await getBranch(path, name))!;
  }

  /** The row update of a ref change and its webhook events (create/delete/push), in one transaction. */
  async function recordRefChange(access: RepoAccess, doer: User | undefined, updates: RefUpdate[], touch: boolean): Promise<void> {
    const emit = doer ? await refEvents(deps, repos.repoPath(access.repo.id), access, doer, updates) : null;
    await deps.db.transaction().execute(async (trx) => {
      if (touch) await reposDb.updateRepo(trx, access.repo.id, { updatedUnix: unixNow(deps) });
      if (emit) await emit(trx, access.repo);
    });
    deps.events.wake();
  }

  async function remove(access: RepoAccess, name: string, doer?: User): Promise<void> {
    requireWritable(access);
    if (access.repo.isEmpty) throw new AppError('not_found', 'Git Repository is empty.');
    if (name === access.repo.defaultBranch) throw new AppError('forbidden', 'can not delete default branch');
    // Gitea refuses to delete a branch that any protection rule matches.
    if (firstMatchingRule(await protectionsDb.listProtectedBranches(deps.db, access.repo.id), name)) throw new AppError('forbidden', 'branch protected');
    const path = repos.repoPath(access.repo.id);
    const branch = isValidBranchName(name) ? await getBranch(path, name) : null;
    if (!branch) throw notFound();
    await deleteRef(path, `refs/heads/${name}`, branch.commit.sha);
    await recordRefChange(access, doer, [{ ref: `refs/heads/${name}`, before: branch.commit.sha, after: '' }], false);
  }

  return { list, get, create, remove };
}

export type BranchService = ReturnType<typeof createBranchService>;
