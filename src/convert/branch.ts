import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import type { GitBranch, GitPerson } from '../git/branches.js';

const person = (p: GitPerson): Complete<Schemas['PayloadUser']> => ({ name: p.name, email: p.email, username: '' });
const rfc3339 = (d: string) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Gitea's Branch JSON; protection fields stay at their defaults until branch protection exists. */
export function toApiBranch(b: GitBranch, fullName: string, canPush: boolean, config: Config): Schemas['Branch'] {
  return {
    name: b.name,
    commit: {
      id: b.commit.sha,
      message: b.commit.message,
      url: `${config.server.rootUrl}${fullName}/commit/${b.commit.sha}`,
      author: person(b.commit.author),
      committer: person(b.commit.committer),
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
      timestamp: rfc3339(b.commit.committer.date),
      added: null,
      removed: null,
      modified: null,
    },
    protected: false,
    required_approvals: 0,
    enable_status_check: false,
    status_check_contexts: [],
    user_can_push: canPush,
    user_can_merge: canPush,
    effective_branch_protection_name: '',
  };
}
