import type { Complete, Schemas } from '../handlers/kit.js';
import { isGlobRule, type ProtectionRecord } from '../domain/protection.js';
import { isoTime } from './time.js';

/** A rule with the names of the users in its allow lists. */
export interface ProtectionWithNames {
  readonly rule: ProtectionRecord;
  readonly pushUsers: readonly string[];
  readonly mergeUsers: readonly string[];
  readonly approvalUsers: readonly string[];
  /** Team names of the allow lists (organization repositories only). */
  readonly pushTeams?: readonly string[];
  readonly mergeTeams?: readonly string[];
  readonly approvalTeams?: readonly string[];
}

/** Gitea's convert.ToBranchProtection; branch_name is the rule name for plain names, empty for globs. */
export function toApiBranchProtection(v: ProtectionWithNames): Complete<Schemas['BranchProtection']> {
  const r = v.rule;
  return {
    branch_name: isGlobRule(r.ruleName) ? '' : r.ruleName,
    rule_name: r.ruleName,
    enable_push: r.canPush,
    enable_push_whitelist: r.enableWhitelist,
    push_whitelist_usernames: [...v.pushUsers],
    push_whitelist_teams: [...(v.pushTeams ?? [])],
    push_whitelist_deploy_keys: r.whitelistDeployKeys,
    enable_merge_whitelist: r.enableMergeWhitelist,
    merge_whitelist_usernames: [...v.mergeUsers],
    merge_whitelist_teams: [...(v.mergeTeams ?? [])],
    enable_status_check: r.enableStatusCheck,
    status_check_contexts: [...r.statusCheckContexts],
    required_approvals: r.requiredApprovals,
    enable_approvals_whitelist: r.enableApprovalsWhitelist,
    approvals_whitelist_username: [...v.approvalUsers],
    approvals_whitelist_teams: [...(v.approvalTeams ?? [])],
    block_on_rejected_reviews: r.blockOnRejectedReviews,
    block_on_official_review_requests: r.blockOnOfficialReviewRequests,
    block_on_outdated_branch: r.blockOnOutdatedBranch,
    dismiss_stale_approvals: r.dismissStaleApprovals,
    ignore_stale_approvals: r.ignoreStaleApprovals,
    require_signed_commits: r.requireSignedCommits,
    protected_file_patterns: r.protectedFilePatterns,
    unprotected_file_patterns: r.unprotectedFilePatterns,
    created_at: isoTime(r.createdUnix),
    updated_at: isoTime(r.updatedUnix),
  };
}
