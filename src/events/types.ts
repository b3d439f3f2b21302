/**
 * The event map: what the services report, with everything a payload needs computed before the transaction
 * (git data read first, so the transaction that writes the outbox rows stays short).
 */
import type { GitCommit } from '../git/commits.js';
import type { HookEventType } from '../domain/webhook.js';
import type { RepoWithOwner } from '../domain/repo.js';
import type { User } from '../domain/user.js';

export interface PushEvent {
  readonly type: 'push';
  readonly repo: RepoWithOwner;
  readonly pusher: User;
  /** Full ref name (refs/heads/x, refs/tags/y). */
  readonly ref: string;
  readonly before: string;
  readonly after: string;
  /** Newest first, at most FEED_MAX_COMMIT_NUM (5). */
  readonly commits: readonly GitCommit[];
  readonly totalCommits: number;
  /** The compare range start (`<from>...<after>`), empty for pushes without new commits. */
  readonly compareFrom: string;
  /**
   * The new tip of a branch update that brought no new commits (a branch created at an existing commit, a
   * rewind): Gitea still sends it as head_commit. Unused when `commits` is not empty (its first is the tip).
   */
  readonly headCommit?: GitCommit;
  /** Access mode the repository JSON is rendered with (owner level; the test delivery uses none). */
  readonly repoMode?: number;
}

export interface CreateEvent {
  readonly type: 'create';
  readonly repo: RepoWithOwner;
  readonly sender: User;
  /** Short name. */
  readonly ref: string;
  readonly refType: 'branch' | 'tag';
  readonly sha: string;
}

export interface DeleteEvent {
  readonly type: 'delete';
  readonly repo: RepoWithOwner;
  readonly sender: User;
  readonly ref: string;
  readonly refType: 'branch' | 'tag';
}

export interface ForkEvent {
  readonly type: 'fork';
  /** The repository that was forked (its hooks receive the event). */
  readonly source: RepoWithOwner;
  readonly fork: RepoWithOwner;
  readonly sender: User;
  /** The forking user's access mode on the source. */
  readonly senderMode: number;
}

export interface RepositoryEvent {
  readonly type: 'repository';
  readonly action: 'created' | 'deleted';
  readonly repo: RepoWithOwner;
  readonly sender: User;
}

/**
 * Issue and pull request events, for their services when they land: the issue/PR/comment JSON comes from their
 * converters, the rest (repository, sender, commit_id, review-request fields) is filled here.
 */
export interface IssueEvent {
  readonly type: 'issues' | 'issue_assign' | 'issue_label' | 'issue_milestone';
  readonly repo: RepoWithOwner;
  /** Access mode the repository JSON is rendered with (the poster's or the actor's, see BEHAVIOUR 7.12). */
  readonly repoMode: number;
  readonly sender: User;
  readonly action: IssueAction;
  readonly number: number;
  readonly issue: unknown;
  readonly changes?: ChangesPayload;
  /** The commit whose message closed/reopened the issue; omitted means ''. */
  readonly commitId?: string;
}

export interface IssueCommentEvent {
  readonly type: 'issue_comment' | 'pull_request_comment';
  readonly repo: RepoWithOwner;
  readonly repoMode: number;
  readonly sender: User;
  readonly action: 'created' | 'edited' | 'deleted';
  readonly issue: unknown;
  readonly pullRequest?: unknown;
  readonly comment: unknown;
  readonly changes?: ChangesPayload;
}

export interface PullRequestEvent {
  readonly type:
    | 'pull_request' | 'pull_request_assign' | 'pull_request_label' | 'pull_request_milestone' | 'pull_request_sync'
    | 'pull_request_review_request' | 'pull_request_review_approved' | 'pull_request_review_rejected' | 'pull_request_review_comment';
  readonly repo: RepoWithOwner;
  readonly repoMode: number;
  readonly sender: User;
  readonly action: IssueAction;
  readonly number: number;
  /** The PullRequest JSON; for review requests it carries `requested_reviewers` (every requested reviewer). */
  readonly pullRequest: unknown;
  /** review_requested / review_request_removed: the user concerned. */
  readonly requestedReviewer?: User;
  readonly changes?: ChangesPayload;
  readonly commitId?: string;
  readonly review?: { readonly type: string; readonly content: string };
}

export type HookEvent = PushEvent | CreateEvent | DeleteEvent | ForkEvent | RepositoryEvent | IssueEvent | IssueCommentEvent | PullRequestEvent;

/* Payloads of events whose sources (issues, pull requests) do not exist yet. Defined so that their emitters,
 * when they land, fill the fields Gitea sends: a close/reopen carries commit_id ('' when no commit caused it);
 * review requests use review_requested / review_request_removed with requested_reviewer and the reviewers. */
export type IssueAction =
  | 'opened' | 'closed' | 'reopened' | 'edited' | 'assigned' | 'unassigned' | 'label_updated' | 'label_cleared'
  | 'milestoned' | 'demilestoned' | 'synchronized' | 'reviewed' | 'review_requested' | 'review_request_removed';

export interface ChangesPayload {
  readonly title?: { readonly from: string };
  readonly body?: { readonly from: string };
  readonly ref?: { readonly from: string };
}

export interface IssuePayload {
  readonly action: IssueAction;
  readonly number: number;
  readonly changes?: ChangesPayload;
  readonly issue: unknown;
  readonly repository: unknown;
  readonly sender: unknown;
  /** The commit whose message closed or reopened the issue; '' otherwise. */
  readonly commit_id: string;
}

export interface IssueCommentPayload {
  readonly action: 'created' | 'edited' | 'deleted';
  readonly issue: unknown;
  readonly pull_request?: unknown;
  readonly comment: unknown;
  readonly changes?: ChangesPayload;
  readonly repository: unknown;
  readonly sender: unknown;
  readonly is_pull: boolean;
}

export interface PullRequestPayload {
  readonly action: IssueAction;
  readonly number: number;
  readonly changes?: ChangesPayload;
  readonly pull_request: unknown & { readonly requested_reviewers?: readonly unknown[] };
  /** The user whose review was requested or whose request was removed (review request actions). */
  readonly requested_reviewer?: unknown;
  readonly repository: unknown;
  readonly sender: unknown;
  readonly commit_id: string;
  readonly review?: { readonly type: string; readonly content: string };
}

/** What a hook task carries: the event type (X-Gitea-Event-Type) and the Gitea payload. */
export interface PreparedEvent {
  readonly eventType: HookEventType;
  /** Repository the event is about (null for events without one). */
  readonly repoId: number | null;
  /** Owner whose hooks also receive it. */
  readonly ownerId: number;
  /** Branch name for the branch filter (push/create/delete of a branch), else null. */
  readonly branch: string | null;
  /** Push without commits: not sent to chat hook types (Gitea). */
  readonly emptyPush: boolean;
  readonly payload: Record<string, unknown>;
}
