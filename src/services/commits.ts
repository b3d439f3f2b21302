import { AppError, notFound } from '../domain/errors.js';
import type { CommitView } from '../domain/commit.js';
import * as usersDb from '../db/users.js';
import { commitDiff, countLog, isBatchSafeRev, logCommits, parseCommitHeader, type GitCommit, type LogRange } from '../git/commits.js';
import type { ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import type { RepoAccess, RepoService } from './repos.js';

/** Gitea's [git] COMMITS_RANGE_SIZE: commit pages never hold more. */
export const COMMITS_RANGE_SIZE = 50;
const COUNT_CACHE_SIZE = 2000;
/** Commits kept in the page cache, all pages together (a commit is a few hundred bytes). */
const PAGE_CACHE_COMMITS = 20_000;

/** What to compute for each commit (Gitea's stat, verification and files switches; each defaults to true). */
export interface CommitDetail {
  readonly stat: boolean;
  readonly verification: boolean;
  readonly files: boolean;
}

export interface CommitListQuery extends CommitDetail {
  readonly sha?: string | undefined;
  readonly path?: string | undefined;
  readonly not?: string | undefined;
}

// Gitea's IsValidRefPattern (modules/git/ref.go): what /git/commits/{sha} accepts before looking anything up.
const INVALID_REF_PATTERN = /[ ~^:?*[\\]|(?:^|[/.])(?:\.|lock$)|\.\.|\/\/|@\{|^@$|^\/|\/$|\.$|\.lock$/u;
const hasControl = (s: string): boolean => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

export function createCommitService(deps: ServiceDeps, repos: RepoService) {
  // Totals and pages by resolved range: history from a commit never changes, so a count or a page for
  // (commit, not, path, skip, limit, details) stays right for ever. Both caches are bounded LRU maps.
  const counts = new Map<string, number>();
  const pages = new Map<string, readonly GitCommit[]>();
  let pagedCommits = 0;

  async function page(repoPath: string, repoId: number, range: LogRange, skip: number, maxCount: number, detail: { files: boolean; stats: boolean }): Promise<readonly GitCommit[]> {
    const key = `${repoId}\0${range.rev}\0${range.not ?? ''}\0${range.path ?? ''}\0${skip}\0${maxCount}\0${detail.files ? 1 : 0}${detail.stats ? 1 : 0}`;
    const hit = pages.get(key);
    if (hit) {
      pages.delete(key);
      pages.set(key, hit);
      return hit;
    }
    const commits = await logCommits(repoPath, { ...range, skip, maxCount, files: detail.files, stats: detail.stats });
    pages.set(key, commits);
    pagedCommits += commits.length;
    while (pagedCommits > PAGE_CACHE_COMMITS && pages.size > 1) {
      const oldest = pages.keys().next().value!;
      pagedCommits -= pages.get(oldest)!.length;
      pages.delete(oldest);
    }
    return commits;
  }

  /** The commit `spec` names (a sha, branch, tag, `main~1` ...) through the long-lived cat-file reader; null when none. */
  async function resolveCommit(repoPath: string, spec: string): Promise<string | null> {
    if (!isBatchSafeRev(spec)) return null;
    const info = await deps.catFile.info(repoPath, `${spec}^{commit}`);
    return info?.type === 'commit' ? info.sha : null;
  }

  async function count(repoPath: string, repoId: number, range: LogRange): Promise<number> {
    const key = `${repoId}\0${range.rev}\0${range.not ?? ''}\0${range.path ?? ''}`;
    const hit = counts.get(key);
    if (hit !== undefined) {
      counts.delete(key);
      counts.set(key, hit);
      return hit;
    }
    const n = await countLog(repoPath, range);
    counts.set(key, n);
    if (counts.size > COUNT_CACHE_SIZE) counts.delete(counts.keys().next().value!);
    return n;
  }

  /** Accounts for the author and committer addresses of a page of commits, in one query. */
  async function withUsers(commits: readonly GitCommit[]): Promise<CommitView[]> {
    if (commits.length === 0) return [];
    const emails = commits.flatMap((c) => [c.author.email, c.committer.email]);
    const users = await usersDb.getUsersByEmails(deps.db, emails, deps.config.service.noReplyAddress);
    return commits.map((c) => ({ commit: c, author: users.get(c.author.email.toLowerCase()), committer: users.get(c.committer.email.toLowerCase()) }));
  }

  /**
   * A page of history (Gitea's GetAllCommits): one `git log` for the page and one `git rev-list --count`
   * for the total, run side by side, each only when not cached. An empty repository is 409; an unknown `sha`
   * or `not` 404; with `path`, no commit at all is 404 "FileCommitsCount".
   */
  async function list(access: RepoAccess, q: CommitListQuery, paging: Paging): Promise<{ commits: CommitView[]; total: number; page: number; limit: number }> {
    if (access.repo.isEmpty) throw new AppError('conflict', 'Git Repository is empty.');
    const repoPath = repos.repoPath(access.repo.id);
    const limit = Math.min(paging.limit, COMMITS_RANGE_SIZE);
    const pageNo = paging.page;
    const [rev, not] = await Promise.all([
      resolveCommit(repoPath, q.sha ? q.sha : `refs/heads/${access.repo.defaultBranch}`),
      q.not ? resolveCommit(repoPath, q.not) : Promise.resolve(undefined),
    ]);
    if (!rev || not === null) throw notFound();
    const path = q.path?.replace(/^\/+/u, '') || undefined;
    if (path !== undefined && /\0/u.test(path)) throw notFound('FileCommitsCount');
    const range: LogRange = { rev, not: not ?? undefined, path };
    const [commits, total] = await Promise.all([
      page(repoPath, access.repo.id, range, (pageNo - 1) * limit, limit, { files: q.files, stats: q.stat }),
      count(repoPath, access.repo.id, range),
    ]);
    if (path !== undefined && total === 0) throw notFound('FileCommitsCount');
    return { commits: await withUsers(commits), total, page: pageNo, limit };
  }

  /**
   * One commit (Gitea's GetSingleCommit): 422 "no valid ref or sha: X" for a name that cannot be a ref,
   * 404 with the name as message when it names no commit.
   */
  async function get(access: RepoAccess, identifier: string, detail: CommitDetail): Promise<CommitView> {
    if (hasControl(identifier) || INVALID_REF_PATTERN.test(identifier)) throw new AppError('validation', `no valid ref or sha: ${identifier}`);
    const repoPath = repos.repoPath(access.repo.id);
    const sha = await resolveCommit(repoPath, identifier);
    if (!sha) throw notFound(identifier);
    const [commit] = await logCommits(repoPath, { rev: sha, skip: 0, maxCount: 1, files: detail.files, stats: detail.stat });
    if (!commit) throw notFound(identifier);
    const [view] = await withUsers([commit]);
    return view!;
  }

  /** The raw diff or patch of one commit (Gitea's DownloadCommitDiffOrPatch); 404 with the name as message. */
  async function diff(access: RepoAccess, identifier: string, type: 'diff' | 'patch'): Promise<Buffer> {
    const repoPath = repos.repoPath(access.repo.id);
    const obj = isBatchSafeRev(identifier) ? await deps.catFile.read(repoPath, `${identifier}^{commit}`) : null;
    if (!obj || obj.type !== 'commit') throw notFound(identifier);
    const { parents } = parseCommitHeader(obj.content);
    return commitDiff(repoPath, obj.sha, parents[0] ?? null, type);
  }

  return { list, get, diff, resolveCommit, withUsers };
}

export type { CommitView };
export type CommitService = ReturnType<typeof createCommitService>;
