import { createHash } from 'node:crypto';
import { AppError } from '../domain/errors.js';
import { AccessMode } from '../domain/repo.js';
import type { CommitStatusRecord, StatusView } from '../domain/status.js';
import type { User } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as statusesDb from '../db/statuses.js';
import * as usersDb from '../db/users.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { CommitService } from './commits.js';
import type { Paging } from './paging.js';
import type { RepoAccess, RepoService } from './repos.js';

export interface CreateStatusInput {
  readonly state: string;
  readonly targetUrl?: string | undefined;
  readonly description?: string | undefined;
  readonly context?: string | undefined;
}


const FULL_SHA = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/u;

export function createStatusService(deps: ServiceDeps, repos: RepoService, commits: CommitService) {
  const { db } = deps;

  async function withCreators(rows: readonly CommitStatusRecord[]): Promise<StatusView[]> {
    const ids = [...new Set(rows.map((r) => r.creatorId).filter((id) => id > 0))];
    const users = new Map((await usersDb.getUsersByIds(db, ids)).map((u) => [u.id, u]));
    return rows.map((status) => ({ status, creator: users.get(status.creatorId) }));
  }

  /** Gitea's MustConvertToSHA1: a full sha as it is, else the commit the name resolves to, else the name itself. */
  async function toSha(access: RepoAccess, name: string): Promise<string> {
    if (FULL_SHA.test(name)) return name.toLowerCase();
    if (access.repo.isEmpty) return name;
    return (await commits.resolveCommit(repos.repoPath(access.repo.id), name)) ?? name;
  }

  /**
   * Records a status for the commit `sha` names (a sha, branch or tag): write access needed, 404 when it
   * names no commit (Gitea answers 500 there).
   */
  async function create(access: RepoAccess, doer: User, sha: string, input: CreateStatusInput): Promise<StatusView> {
    if (access.mode < AccessMode.write) throw new AppError('forbidden', 'user should have a permission to write to a repo');
    const commit = access.repo.isEmpty ? null : await commits.resolveCommit(repos.repoPath(access.repo.id), sha);
    if (!commit) throw new AppError('not_found', `object does not exist [id: ${sha}, rel_path: ]`);
    const context = input.context ?? '';
    const row = {
      repoId: access.repo.id,
      sha: commit,
      state: input.state,
      targetUrl: input.targetUrl ?? '',
      description: input.description ?? '',
      context,
      contextHash: createHash('sha1').update(context).digest('hex'),
      creatorId: doer.id,
      now: unixNow(deps),
    };
    // Two statuses for one commit at once may pick the same index; the unique constraint refuses one, which retries.
    for (let attempt = 0; ; attempt++) {
      try {
        const status = await db.transaction().execute((trx) => statusesDb.insertCommitStatus(trx, row));
        return { status, creator: doer };
      } catch (e) {
        if (!isUniqueViolation(e) || attempt >= 4) throw e;
      }
    }
  }

  /** Every status of a commit (Gitea's GetCommitStatuses), filtered, sorted and paged. */
  async function list(
    access: RepoAccess,
    sha: string,
    q: { sort?: statusesDb.StatusSort | undefined; state?: string | undefined },
    paging: Paging,
  ): Promise<{ statuses: StatusView[]; total: number }> {
    if (!sha) throw new AppError('bad_request', 'ref/sha not given');
    const resolved = await toSha(access, sha);
    const { statuses, total } = await statusesDb.listCommitStatuses(db, { repoId: access.repo.id, sha: resolved, sort: q.sort, state: q.state, offset: paging.offset, limit: paging.limit });
    return { statuses: await withCreators(statuses), total };
  }

  /**
   * The latest status of each context for a branch, tag or commit (Gitea's GetCombinedCommitStatusByRef):
   * a branch first, then a tag, then any commit name; an unknown ref is used as it is (and has no statuses).
   */
  async function latest(access: RepoAccess, ref: string, paging: Paging): Promise<{ sha: string; statuses: StatusView[]; total: number }> {
    if (!ref) throw new AppError('bad_request', 'ref not given');
    let sha = ref;
    if (!access.repo.isEmpty) {
      const path = repos.repoPath(access.repo.id);
      const [branch, tag, other] = await Promise.all([
        commits.resolveCommit(path, `refs/heads/${ref}`),
        commits.resolveCommit(path, `refs/tags/${ref}`),
        FULL_SHA.test(ref) ? Promise.resolve(ref.toLowerCase()) : commits.resolveCommit(path, ref),
      ]);
      sha = branch ?? tag ?? other ?? ref;
    }
    const { statuses, total } = await statusesDb.latestCommitStatuses(db, { repoId: access.repo.id, sha, offset: paging.offset, limit: paging.limit });
    return { sha, statuses: await withCreators(statuses), total };
  }

  return { create, list, latest };
}

export type { StatusView };
export type StatusService = ReturnType<typeof createStatusService>;
