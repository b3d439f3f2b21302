/**
 * Ref changes (a push over HTTP, a commit through the contents API, a branch or tag created or deleted through
 * the API) as webhook events: push for every changed ref, plus create/delete for refs that appeared or went.
 * Git is read here, before the recording transaction; the returned function writes the outbox rows inside it.
 */
import type { Db } from '../db/index.js';
import type { Repository, RepoWithOwner } from '../domain/repo.js';
import type { User } from '../domain/user.js';
import type { HookEvent } from '../events/types.js';
import { commitForPayload, diffRefs, pushedCommits, snapshotRefs, type RefUpdate } from '../git/pushinfo.js';
import * as hooksDb from '../db/webhooks.js';
import * as reposDb from '../db/repos.js';
import type { ServiceDeps } from './context.js';

/** Gitea's [ui] FEED_MAX_COMMIT_NUM: commits carried by a push payload. */
const FEED_MAX_COMMIT_NUM = 5;

export type RefEmitter = (trx: Db, updated: Repository) => Promise<number>;

const zeroSha = (repo: Repository) => '0'.repeat(repo.objectFormatName === 'sha256' ? 64 : 40);

/** Events for `updates` (refs as full names; '' for a missing side), ready to be written in a transaction. */
export async function refEvents(deps: ServiceDeps, repoPath: string, target: RepoWithOwner, pusher: User, updates: readonly RefUpdate[]): Promise<RefEmitter> {
  // Reading commits costs git processes; skip it when no hook could want the events.
  if (updates.length === 0 || !(await hasActiveHooks(deps, target))) return async () => 0;
  const zero = zeroSha(target.repo);
  const build: ((r: RepoWithOwner) => HookEvent)[] = [];
  for (const u of updates) {
    const isBranch = u.ref.startsWith('refs/heads/');
    const isTag = u.ref.startsWith('refs/tags/');
    if (!isBranch && !isTag) continue;
    const short = u.ref.slice(isBranch ? 'refs/heads/'.length : 'refs/tags/'.length);
    const refType = isBranch ? 'branch' : 'tag';
    if (!u.before && u.after) build.push((repo) => ({ type: 'create', repo, sender: pusher, ref: short, refType, sha: u.after }));
    if (u.before && !u.after) build.push((repo) => ({ type: 'delete', repo, sender: pusher, ref: short, refType }));
    // Tag pushes (and deletions) carry no commits, as in Gitea. A failure to read them must not fail the change
    // itself (it already happened on disk): the push is then reported without its commits.
    let pushed: Awaited<ReturnType<typeof pushedCommits>> = { commits: [], total: 0, compareFrom: '' };
    let headCommit: Awaited<ReturnType<typeof commitForPayload>> = null;
    if (isBranch) {
      try {
        pushed = await pushedCommits(repoPath, u, FEED_MAX_COMMIT_NUM);
        // Gitea's head_commit is the new tip of any branch update, new commits or not (null only on deletion).
        if (u.after && pushed.commits.length === 0) headCommit = await commitForPayload(repoPath, u.after);
      } catch (e) {
        deps.log.warn('reading pushed commits for webhooks failed', { repoId: target.repo.id, ref: u.ref, err: String(e) });
      }
    }
    build.push((repo) => ({
      type: 'push',
      repo,
      pusher,
      ref: u.ref,
      before: u.before || zero,
      after: u.after || zero,
      commits: pushed.commits,
      totalCommits: pushed.total,
      compareFrom: pushed.compareFrom,
      ...(headCommit ? { headCommit } : {}),
    }));
  }
  return async (trx, updated) => {
    let n = 0;
    const repo = { repo: updated, owner: target.owner };
    for (const b of build) n += await deps.events.emit(trx, b(repo));
    return n;
  };
}

/** Ref snapshot before a change and the events of what changed after it. */
export async function watchRefs(repoPath: string): Promise<() => Promise<RefUpdate[]>> {
  const before = await snapshotRefs(repoPath);
  return async () => diffRefs(before, await snapshotRefs(repoPath));
}

/** Whether any active hook (repository, owner or system) could receive events of this repository. */
export async function hasActiveHooks(deps: ServiceDeps, target: RepoWithOwner): Promise<boolean> {
  if (deps.config.security.disableWebhooks) return false;
  return (await hooksDb.activeHooksFor(deps.db, target.repo.id, target.owner.id)).length > 0;
}

/**
 * Inside a new repository's transaction: the site's default hooks are copied into it (Gitea), then `repository
 * created` goes to its hooks (those copies), its owner's and the system hooks.
 */
export async function repositoryCreated(deps: ServiceDeps, trx: Db, repoId: number, owner: User, sender: User): Promise<void> {
  const now = Math.floor(deps.clock() / 1000);
  for (const d of await hooksDb.defaultHooks(trx)) {
    const { id: _id, ...row } = d;
    await hooksDb.insertHook(trx, { ...row, repo_id: repoId, owner_id: null, is_system_webhook: 0, created_unix: now, updated_unix: now });
  }
  const repo = await reposDb.getRepoById(trx, repoId);
  if (repo) await deps.events.emit(trx, { type: 'repository', action: 'created', repo: { repo, owner }, sender });
}
