import type { Selectable } from 'kysely';
import type { Db } from './index.js';
import type { ProtectedBranchTable } from './schema.js';
import type { ProtectionFields, ProtectionRecord } from '../domain/protection.js';

// Branch protection rules (Gitea's protected_branch table).

const ids = (s: string): number[] => (JSON.parse(s) as unknown[]).map(Number);
const strings = (s: string): string[] => (JSON.parse(s) as unknown[]).map(String);

const toRecord = (r: Selectable<ProtectedBranchTable>): ProtectionRecord => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  ruleName: r.rule_name,
  canPush: Number(r.can_push) === 1,
  enableWhitelist: Number(r.enable_whitelist) === 1,
  whitelistUserIds: ids(r.whitelist_user_ids),
  whitelistTeamIds: ids(r.whitelist_team_ids),
  whitelistDeployKeys: Number(r.whitelist_deploy_keys) === 1,
  enableMergeWhitelist: Number(r.enable_merge_whitelist) === 1,
  mergeWhitelistUserIds: ids(r.merge_whitelist_user_ids),
  mergeWhitelistTeamIds: ids(r.merge_whitelist_team_ids),
  enableStatusCheck: Number(r.enable_status_check) === 1,
  statusCheckContexts: strings(r.status_check_contexts),
  enableApprovalsWhitelist: Number(r.enable_approvals_whitelist) === 1,
  approvalsWhitelistUserIds: ids(r.approvals_whitelist_user_ids),
  approvalsWhitelistTeamIds: ids(r.approvals_whitelist_team_ids),
  requiredApprovals: Number(r.required_approvals),
  blockOnRejectedReviews: Number(r.block_on_rejected_reviews) === 1,
  blockOnOfficialReviewRequests: Number(r.block_on_official_review_requests) === 1,
  blockOnOutdatedBranch: Number(r.block_on_outdated_branch) === 1,
  dismissStaleApprovals: Number(r.dismiss_stale_approvals) === 1,
  ignoreStaleApprovals: Number(r.ignore_stale_approvals) === 1,
  requireSignedCommits: Number(r.require_signed_commits) === 1,
  protectedFilePatterns: r.protected_file_patterns,
  unprotectedFilePatterns: r.unprotected_file_patterns,
  createdUnix: Number(r.created_unix),
  updatedUnix: Number(r.updated_unix),
});

const b = (v: boolean) => (v ? 1 : 0);
const toRow = (f: ProtectionFields) => ({
  rule_name: f.ruleName,
  can_push: b(f.canPush),
  enable_whitelist: b(f.enableWhitelist),
  whitelist_user_ids: JSON.stringify(f.whitelistUserIds),
  whitelist_team_ids: JSON.stringify(f.whitelistTeamIds),
  whitelist_deploy_keys: b(f.whitelistDeployKeys),
  enable_merge_whitelist: b(f.enableMergeWhitelist),
  merge_whitelist_user_ids: JSON.stringify(f.mergeWhitelistUserIds),
  merge_whitelist_team_ids: JSON.stringify(f.mergeWhitelistTeamIds),
  enable_status_check: b(f.enableStatusCheck),
  status_check_contexts: JSON.stringify(f.statusCheckContexts),
  enable_approvals_whitelist: b(f.enableApprovalsWhitelist),
  approvals_whitelist_user_ids: JSON.stringify(f.approvalsWhitelistUserIds),
  approvals_whitelist_team_ids: JSON.stringify(f.approvalsWhitelistTeamIds),
  required_approvals: f.requiredApprovals,
  block_on_rejected_reviews: b(f.blockOnRejectedReviews),
  block_on_official_review_requests: b(f.blockOnOfficialReviewRequests),
  block_on_outdated_branch: b(f.blockOnOutdatedBranch),
  dismiss_stale_approvals: b(f.dismissStaleApprovals),
  ignore_stale_approvals: b(f.ignoreStaleApprovals),
  require_signed_commits: b(f.requireSignedCommits),
  protected_file_patterns: f.protectedFilePatterns,
  unprotected_file_patterns: f.unprotectedFilePatterns,
});

/** Every rule of a repository, in id order (callers sort with domain/protection's sortRules). */
export async function listProtectedBranches(db: Db, repoId: number): Promise<ProtectionRecord[]> {
  const rows = await db.selectFrom('protected_branch').selectAll().where('repo_id', '=', repoId).orderBy('id').execute();
  return rows.map(toRecord);
}

/** The rule named exactly `ruleName`. */
export async function getProtectedBranch(db: Db, repoId: number, ruleName: string): Promise<ProtectionRecord | undefined> {
  const row = await db.selectFrom('protected_branch').selectAll().where('repo_id', '=', repoId).where('rule_name', '=', ruleName).executeTakeFirst();
  return row && toRecord(row);
}

/** Inserts a rule; a duplicate (repo, rule_name) fails on the unique constraint. */
export async function insertProtectedBranch(db: Db, repoId: number, f: ProtectionFields, now: number): Promise<ProtectionRecord> {
  const row = await db
    .insertInto('protected_branch')
    .values({ repo_id: repoId, ...toRow(f), created_unix: now, updated_unix: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Replaces the settings of rule `id`. */
export async function updateProtectedBranch(db: Db, id: number, f: ProtectionFields, now: number): Promise<ProtectionRecord> {
  const row = await db.updateTable('protected_branch').set({ ...toRow(f), updated_unix: now }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function deleteProtectedBranch(db: Db, id: number): Promise<void> {
  await db.deleteFrom('protected_branch').where('id', '=', id).execute();
}
