/** Gitea/Gogs payloads (BEHAVIOUR 7.12), built once when the event is recorded so they reflect that moment. */
import type { Config } from '../config/index.js';
import { toApiRepo } from '../convert/repo.js';
import { toApiUser } from '../convert/user.js';
import type { GitCommit } from '../git/commits.js';
import { AccessMode, type RepoWithOwner } from '../domain/repo.js';
import type { User } from '../domain/user.js';
import type { HookEvent, IssueCommentPayload, IssuePayload, PreparedEvent, PullRequestPayload } from './types.js';

/** Users in payloads are rendered for no particular viewer (Gitea passes a nil doer). */
const user = (u: User, config: Config) => toApiUser(u, null, config);
const repoJson = (r: RepoWithOwner, mode: number, config: Config) => toApiRepo({ repo: r.repo, owner: r.owner, mode }, null, config);

export function payloadCommit(c: GitCommit, r: RepoWithOwner, config: Config, usernames: ReadonlyMap<string, string>) {
  const files = c.files ?? [];
  const person = (p: GitCommit['author']) => ({ name: p.name, email: p.email, username: usernames.get(p.email.toLowerCase()) ?? '' });
  return {
    id: c.sha,
    message: c.message,
    url: `${config.server.rootUrl}${r.owner.name}/${r.repo.name}/commit/${c.sha}`,
    author: person(c.author),
    committer: person(c.committer),
    verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
    timestamp: c.committer.date,
    added: files.filter((f) => f.status === 'added').map((f) => f.filename),
    removed: files.filter((f) => f.status === 'removed').map((f) => f.filename),
    modified: files.filter((f) => f.status === 'modified').map((f) => f.filename),
  };
}

const shortBranch = (ref: string): string | null => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null);

/** Emails of commit authors and committers (lower case), to map them to account names. */
export function commitEmails(e: HookEvent): string[] {
  if (e.type !== 'push') return [];
  const commits = e.headCommit ? [...e.commits, e.headCommit] : e.commits;
  return [...new Set(commits.flatMap((c) => [c.author.email.toLowerCase(), c.committer.email.toLowerCase()]))];
}

/** The event type, routing data and payload of an event. */
export function prepareEvent(e: HookEvent, config: Config, usernames: ReadonlyMap<string, string>): PreparedEvent {
  switch (e.type) {
    case 'push': {
      const commits = e.commits.map((c) => payloadCommit(c, e.repo, config, usernames));
      const compare = e.compareFrom && commits.length ? `${e.repo.owner.name}/${e.repo.repo.name}/compare/${e.compareFrom}...${e.after}` : '';
      return {
        eventType: 'push',
        repoId: e.repo.repo.id,
        ownerId: e.repo.owner.id,
        branch: shortBranch(e.ref),
        emptyPush: commits.length === 0,
        payload: {
          ref: e.ref,
          before: e.before,
          after: e.after,
          compare_url: `${config.server.rootUrl}${compare}`,
          commits,
          total_commits: e.totalCommits,
          head_commit: commits[0] ?? (e.headCommit ? payloadCommit(e.headCommit, e.repo, config, usernames) : null),
          repository: repoJson(e.repo, e.repoMode ?? AccessMode.owner, config),
          pusher: user(e.pusher, config),
          sender: user(e.pusher, config),
        },
      };
    }
    case 'create':
      return {
        eventType: 'create',
        repoId: e.repo.repo.id,
        ownerId: e.repo.owner.id,
        branch: e.refType === 'branch' ? e.ref : null,
        emptyPush: false,
        // Gitea renders the repository of a create event with no access at all.
        payload: { sha: e.sha, ref: e.ref, ref_type: e.refType, repository: repoJson(e.repo, AccessMode.none, config), sender: user(e.sender, config) },
      };
    case 'delete':
      return {
        eventType: 'delete',
        repoId: e.repo.repo.id,
        ownerId: e.repo.owner.id,
        branch: e.refType === 'branch' ? e.ref : null,
        emptyPush: false,
        payload: { ref: e.ref, ref_type: e.refType, pusher_type: 'user', repository: repoJson(e.repo, AccessMode.owner, config), sender: user(e.sender, config) },
      };
    case 'fork':
      return {
        eventType: 'fork',
        repoId: e.source.repo.id,
        ownerId: e.source.owner.id,
        branch: null,
        emptyPush: false,
        // Gitea's naming: forkee is the source, repository the new fork.
        payload: { forkee: repoJson(e.source, e.senderMode, config), repository: repoJson(e.fork, e.senderMode, config), sender: user(e.sender, config) },
      };
    case 'issues':
    case 'issue_assign':
    case 'issue_label':
    case 'issue_milestone': {
      const payload: IssuePayload = {
        action: e.action,
        number: e.number,
        ...(e.changes ? { changes: e.changes } : {}),
        issue: e.issue,
        repository: repoJson(e.repo, e.repoMode, config),
        sender: user(e.sender, config),
        commit_id: e.commitId ?? '',
      };
      return { eventType: e.type, repoId: e.repo.repo.id, ownerId: e.repo.owner.id, branch: null, emptyPush: false, payload: { ...payload } };
    }
    case 'issue_comment':
    case 'pull_request_comment': {
      const payload: IssueCommentPayload = {
        action: e.action,
        issue: e.issue,
        ...(e.pullRequest !== undefined ? { pull_request: e.pullRequest } : {}),
        comment: e.comment,
        ...(e.changes ? { changes: e.changes } : {}),
        repository: repoJson(e.repo, e.repoMode, config),
        sender: user(e.sender, config),
        is_pull: e.type === 'pull_request_comment',
      };
      return { eventType: e.type, repoId: e.repo.repo.id, ownerId: e.repo.owner.id, branch: null, emptyPush: false, payload: { ...payload } };
    }
    case 'pull_request':
    case 'pull_request_assign':
    case 'pull_request_label':
    case 'pull_request_milestone':
    case 'pull_request_sync':
    case 'pull_request_review_request':
    case 'pull_request_review_approved':
    case 'pull_request_review_rejected':
    case 'pull_request_review_comment': {
      const payload: PullRequestPayload = {
        action: e.action,
        number: e.number,
        ...(e.changes ? { changes: e.changes } : {}),
        pull_request: e.pullRequest as PullRequestPayload['pull_request'],
        ...(e.requestedReviewer ? { requested_reviewer: user(e.requestedReviewer, config) } : {}),
        repository: repoJson(e.repo, e.repoMode, config),
        sender: user(e.sender, config),
        commit_id: e.commitId ?? '',
        ...(e.review ? { review: e.review } : {}),
      };
      return { eventType: e.type, repoId: e.repo.repo.id, ownerId: e.repo.owner.id, branch: null, emptyPush: false, payload: { ...payload } };
    }
    case 'repository':
      return {
        eventType: 'repository',
        repoId: e.repo.repo.id,
        ownerId: e.repo.owner.id,
        branch: null,
        emptyPush: false,
        payload: { action: e.action, repository: repoJson(e.repo, AccessMode.owner, config), organization: user(e.repo.owner, config), sender: user(e.sender, config) },
      };
  }
}
