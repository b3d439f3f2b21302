import type { User } from './user.js';

/** Access levels, ordered (Gitea's perm.AccessMode). */
export const AccessMode = { none: 0, read: 1, write: 2, admin: 3, owner: 4 } as const;
export type AccessModeValue = (typeof AccessMode)[keyof typeof AccessMode];

/** Settings kept in one JSON column: rarely queried, always read with the repository. */
export interface RepoSettings {
  hasIssues: boolean;
  hasWiki: boolean;
  hasPullRequests: boolean;
  hasProjects: boolean;
  hasReleases: boolean;
  hasPackages: boolean;
  hasActions: boolean;
  ignoreWhitespaceConflicts: boolean;
  allowMergeCommits: boolean;
  allowRebase: boolean;
  allowRebaseExplicit: boolean;
  allowSquashMerge: boolean;
  allowFastForwardOnlyMerge: boolean;
  allowRebaseUpdate: boolean;
  defaultDeleteBranchAfterMerge: boolean;
  defaultMergeStyle: string;
  defaultAllowMaintainerEdit: boolean;
  internalTracker: { enableTimeTracker: boolean; allowOnlyContributorsToTrackTime: boolean; enableIssueDependencies: boolean };
  externalTracker: { url: string; format: string; style: string; regexpPattern: string } | null;
  externalWiki: { url: string } | null;
  issueLabels: string;
  mirrorInterval: string;
  /** Last successful mirror sync (unix seconds); only mirrors have it. */
  mirrorUpdatedUnix?: number;
}

export const DEFAULT_REPO_SETTINGS: RepoSettings = {
  hasIssues: true,
  hasWiki: true,
  hasPullRequests: true,
  hasProjects: true,
  hasReleases: true,
  hasPackages: true,
  hasActions: false,
  ignoreWhitespaceConflicts: false,
  allowMergeCommits: true,
  allowRebase: true,
  allowRebaseExplicit: true,
  allowSquashMerge: true,
  allowFastForwardOnlyMerge: true,
  allowRebaseUpdate: true,
  defaultDeleteBranchAfterMerge: false,
  defaultMergeStyle: 'merge',
  defaultAllowMaintainerEdit: false,
  internalTracker: { enableTimeTracker: true, allowOnlyContributorsToTrackTime: true, enableIssueDependencies: true },
  externalTracker: null,
  externalWiki: null,
  issueLabels: '',
  mirrorInterval: '',
};

export interface Repository {
  readonly id: number;
  readonly ownerId: number;
  readonly name: string;
  readonly lowerName: string;
  readonly description: string;
  readonly website: string;
  readonly originalUrl: string;
  readonly defaultBranch: string;
  readonly objectFormatName: string;
  readonly trustModel: string;
  readonly isPrivate: boolean;
  readonly isEmpty: boolean;
  readonly isArchived: boolean;
  readonly isMirror: boolean;
  readonly isFork: boolean;
  readonly isTemplate: boolean;
  readonly forkId: number;
  readonly templateId: number;
  readonly numWatches: number;
  readonly numStars: number;
  readonly numForks: number;
  readonly numIssues: number;
  readonly numClosedIssues: number;
  readonly numPulls: number;
  readonly numClosedPulls: number;
  readonly numMilestones: number;
  readonly numClosedMilestones: number;
  readonly numReleases: number;
  readonly size: number;
  readonly numCommits: number;
  readonly createdUnix: number;
  readonly updatedUnix: number;
  readonly archivedUnix: number;
  /** Gitea's RepositoryStatus: 0 ready, 1 being migrated, 2 pending transfer. */
  readonly status: number;
  readonly settings: RepoSettings;
}

/** A repository with its owner, as most callers need both. */
export interface RepoWithOwner {
  readonly repo: Repository;
  readonly owner: User;
}

/** Gitea's repository name rule: alphanumerics, '-', '_', '.'; not "." or ".."; reserved names. */
const REPO_NAME = /^[-\w.]+$/;
const RESERVED_REPO_NAMES = new Set(['.', '..', '-']);
const RESERVED_REPO_PATTERNS = ['.git', '.rss', '.atom', '.wiki'];
export const MAX_REPO_NAME_LENGTH = 100;

/** Returns Gitea's error text for an unusable repository name, or null. */
export function repoNameProblem(name: string): string | null {
  if (name === '' || [...name].length > MAX_REPO_NAME_LENGTH || !REPO_NAME.test(name)) {
    return `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`;
  }
  const lower = name.toLowerCase();
  if (RESERVED_REPO_NAMES.has(lower)) return `name is reserved [name: ${name}]`;
  for (const suffix of RESERVED_REPO_PATTERNS) if (lower.endsWith(suffix)) return `name pattern is not allowed [pattern: *${suffix}]`;
  return null;
}
