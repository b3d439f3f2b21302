import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import type { GitBranch, GitPerson } from '../git/branches.js';
import type { BranchProtectionInfo } from '../domain/protection.js';

const person = (p: GitPerson): Complete<Schemas['PayloadUser']> => ({ name: p.name, email: p.email, username: '' });
const rfc3339 = (d: string) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Gitea's Branch JSON. `canPush` is the caller's write access; `protection`, the rule that applies to the
 * branch evaluated for the caller, overrides it (Gitea's ToBranch).
 */
export function toApiBranch(b: GitBranch, fullName: string, canPush: boolean, config: Config, protection?: BranchProtectionInfo): Schemas['Branch'] {
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
    protected: protection !== undefined,
    required_approvals: protection?.requiredApprovals ?? 0,
    enable_status_check: protection?.enableStatusCheck ?? false,
    status_check_contexts: protection ? [...protection.statusCheckContexts] : [],
    user_can_push: protection ? protection.userCanPush : canPush,
    user_can_merge: protection ? protection.userCanMerge : canPush,
    effective_branch_protection_name: protection?.showRuleName ? protection.ruleName : '',
  };
}
