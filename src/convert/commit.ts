import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import type { GitPerson } from '../git/branches.js';
import type { CommitView } from '../domain/commit.js';
import { ZERO_TIME } from './time.js';
import { toApiUser } from './user.js';

/** Go's RFC 3339 form of a git date: the recorded offset kept, a zero offset written `Z`. */
export const gitDate = (iso: string): string => iso.replace(/[+-]00:00$/u, 'Z');

const person = (p: GitPerson): Complete<Schemas['CommitUser']> => ({ name: p.name, email: p.email, date: gitDate(p.date) });

// Gitea's ToVerification for a commit without a signature; signatures are not checked (yet).
const UNSIGNED: Schemas['PayloadCommitVerification'] = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' };

/**
 * Gitea's Commit JSON (convert.ToCommit). Accounts are shown as to an anonymous viewer, as Gitea does;
 * like Gitea, commit.tree names the commit itself (its tree endpoint accepts a commit).
 */
export function toApiCommit(v: CommitView, fullName: string, verification: boolean, config: Config): Schemas['Commit'] {
  const c = v.commit;
  const api = `${config.server.rootUrl}api/v1/repos/${fullName}`;
  const url = `${api}/git/commits/${c.sha}`;
  const created = gitDate(c.committer.date);
  const repoCommit: Schemas['RepoCommit'] = {
    url,
    author: person(c.author),
    committer: person(c.committer),
    message: c.message,
    tree: { url: `${api}/git/trees/${c.sha}`, sha: c.sha, created },
    ...(verification ? { verification: UNSIGNED } : {}),
  };
  return {
    url,
    sha: c.sha,
    created,
    html_url: `${config.server.rootUrl}${fullName}/commit/${c.sha}`,
    commit: repoCommit,
    ...(v.author ? { author: toApiUser(v.author, null, config) } : {}),
    ...(v.committer ? { committer: toApiUser(v.committer, null, config) } : {}),
    parents: c.parents.map((p) => ({ url: `${api}/git/commits/${p}`, sha: p, created: ZERO_TIME })),
    files: c.files ? c.files.map((f) => ({ filename: f.filename, status: f.status })) : null,
    ...(c.stats ? { stats: { total: c.stats.additions + c.stats.deletions, additions: c.stats.additions, deletions: c.stats.deletions } } : {}),
  };
}
