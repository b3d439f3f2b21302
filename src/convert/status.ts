import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import { combinedState } from '../domain/status.js';
import type { StatusView } from '../domain/status.js';
import { toApiRepo, type RepoView } from './repo.js';
import { isoTime } from './time.js';
import { toApiUser } from './user.js';

/** Gitea's CommitStatus JSON: id is the per-commit index, and updated_at repeats created_at (as in 1.22). */
export function toApiCommitStatus(v: StatusView, fullName: string, config: Config): Schemas['CommitStatus'] {
  const s = v.status;
  const base: Complete<Omit<Schemas['CommitStatus'], 'creator'>> = {
    id: s.index,
    status: s.state,
    target_url: s.targetUrl,
    description: s.description,
    url: `${config.server.rootUrl}api/v1/repos/${fullName}/statuses/${s.sha}`,
    context: s.context,
    created_at: isoTime(s.createdUnix),
    updated_at: isoTime(s.createdUnix),
  };
  return v.creator ? { ...base, creator: toApiUser(v.creator, null, config) } : base;
}

/**
 * Gitea's CombinedStatus: the worst state of the latest status per context; without statuses every
 * field at its zero value (no repository, statuses null). url and commit_url stay empty as in 1.22.
 */
export function toApiCombinedStatus(
  latest: { statuses: readonly StatusView[] },
  repo: RepoView,
  fullName: string,
  viewer: Parameters<typeof toApiRepo>[1],
  config: Config,
): Schemas['CombinedStatus'] {
  if (latest.statuses.length === 0) return { state: '', sha: '', total_count: 0, statuses: null, commit_url: '', url: '' };
  return {
    state: combinedState(latest.statuses.map((v) => v.status.state)),
    sha: latest.statuses[0]!.status.sha,
    total_count: latest.statuses.length,
    statuses: latest.statuses.map((v) => toApiCommitStatus(v, fullName, config)),
    repository: toApiRepo(repo, viewer, config),
    commit_url: '',
    url: '',
  };
}
