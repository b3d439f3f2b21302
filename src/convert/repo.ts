import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import { AccessMode, type Repository } from '../domain/repo.js';
import type { User } from '../domain/user.js';
import type { Team } from '../domain/org.js';
import { isoTime, ZERO_TIME } from './time.js';
import { toApiUser } from './user.js';
import { toApiTeam } from './org.js';

type ApiRepository = Schemas['Repository'];
/** Fields Gitea leaves out when they do not apply (omitempty). */
type Optional = 'parent' | 'repo_transfer' | 'external_tracker' | 'external_wiki';

export interface RepoView {
  readonly repo: Repository;
  readonly owner: User;
  /** The viewer's access mode on the repository. */
  readonly mode: number;
  readonly parent?: RepoView | undefined;
  /** A pending transfer (Gitea shows it while the repository's status is "pending transfer"). */
  readonly transfer?: { readonly doer: User; readonly recipient: User; readonly teams?: readonly Team[] } | undefined;
}

/** The Repository JSON with `permissions` for the viewer (Gitea's convert.ToRepo). */
export function toApiRepo(view: RepoView, viewer: User | null, config: Config): ApiRepository {
  const { repo, owner, mode } = view;
  const s = repo.settings;
  const root = config.server.rootUrl;
  const fullName = `${owner.name}/${repo.name}`;
  const host = new URL(root).hostname;
  const base: Complete<Omit<ApiRepository, Optional>> = {
    id: repo.id,
    owner: toApiUser(owner, mode > AccessMode.none ? viewer : null, config),
    name: repo.name,
    full_name: fullName,
    description: repo.description,
    empty: repo.isEmpty,
    private: repo.isPrivate,
    fork: repo.isFork,
    template: repo.isTemplate,
    mirror: repo.isMirror,
    size: Math.floor(repo.size / 1024),
    language: '',
    languages_url: `${root}api/v1/repos/${fullName}/languages`,
    html_url: `${root}${fullName}`,
    url: `${root}api/v1/repos/${fullName}`,
    link: '',
    ssh_url: `git@${host}:${fullName}.git`,
    clone_url: `${root}${fullName}.git`,
    original_url: repo.originalUrl,
    website: repo.website,
    stars_count: repo.numStars,
    forks_count: repo.numForks,
    watchers_count: repo.numWatches,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    open_pr_counter: repo.numPulls - repo.numClosedPulls,
    release_counter: repo.numReleases,
    default_branch: repo.defaultBranch,
    archived: repo.isArchived,
    created_at: isoTime(repo.createdUnix),
    updated_at: isoTime(repo.updatedUnix),
    archived_at: repo.archivedUnix ? isoTime(repo.archivedUnix) : isoTime(0),
    permissions: { admin: mode >= AccessMode.admin, push: mode >= AccessMode.write, pull: mode >= AccessMode.read },
    has_issues: s.hasIssues,
    internal_tracker: {
      enable_time_tracker: s.internalTracker.enableTimeTracker,
      allow_only_contributors_to_track_time: s.internalTracker.allowOnlyContributorsToTrackTime,
      enable_issue_dependencies: s.internalTracker.enableIssueDependencies,
    },
    has_wiki: s.hasWiki,
    has_pull_requests: s.hasPullRequests,
    has_projects: s.hasProjects,
    projects_mode: 'all',
    has_releases: s.hasReleases,
    has_packages: s.hasPackages,
    has_actions: s.hasActions,
    ignore_whitespace_conflicts: s.ignoreWhitespaceConflicts,
    allow_merge_commits: s.allowMergeCommits,
    allow_rebase: s.allowRebase,
    allow_rebase_explicit: s.allowRebaseExplicit,
    allow_squash_merge: s.allowSquashMerge,
    allow_fast_forward_only_merge: s.allowFastForwardOnlyMerge,
    allow_rebase_update: s.allowRebaseUpdate,
    default_delete_branch_after_merge: s.defaultDeleteBranchAfterMerge,
    default_merge_style: s.defaultMergeStyle,
    default_allow_maintainer_edit: s.defaultAllowMaintainerEdit,
    avatar_url: '',
    // Gitea: a public repository of a private user is "internal".
    internal: !repo.isPrivate && owner.visibility === 'private',
    mirror_interval: s.mirrorInterval,
    mirror_updated: s.mirrorUpdatedUnix ? isoTime(s.mirrorUpdatedUnix) : ZERO_TIME,
    object_format_name: repo.objectFormatName === 'sha256' ? 'sha256' : 'sha1',
  };
  const out: ApiRepository = { ...base };
  if (view.parent) out.parent = toApiRepo(view.parent, viewer, config);
  if (s.externalTracker) {
    out.external_tracker = {
      external_tracker_url: s.externalTracker.url,
      external_tracker_format: s.externalTracker.format,
      external_tracker_style: s.externalTracker.style,
      external_tracker_regexp_pattern: s.externalTracker.regexpPattern,
    };
  }
  // Gitea converts both users without a viewer (ToUser(ctx, u, nil)); teams only for an organization recipient.
  if (view.transfer) {
    out.repo_transfer = {
      doer: toApiUser(view.transfer.doer, null, config),
      recipient: toApiUser(view.transfer.recipient, null, config),
      teams: (view.transfer.teams ?? []).map((t) => toApiTeam(t, null, null, config)),
    };
  }
  if (s.externalWiki) out.external_wiki = { external_wiki_url: s.externalWiki.url };
  return out;
}
