import { compileGlob } from './glob.js';
/** Branch protection rules (Gitea's ProtectedBranch) and how a rule name matches branch names. */

export interface ProtectionRecord {
  readonly id: number;
  readonly repoId: number;
  readonly ruleName: string;
  readonly canPush: boolean;
  readonly enableWhitelist: boolean;
  readonly whitelistUserIds: readonly number[];
  readonly whitelistTeamIds: readonly number[];
  readonly whitelistDeployKeys: boolean;
  readonly enableMergeWhitelist: boolean;
  readonly mergeWhitelistUserIds: readonly number[];
  readonly mergeWhitelistTeamIds: readonly number[];
  readonly enableStatusCheck: boolean;
  readonly statusCheckContexts: readonly string[];
  readonly enableApprovalsWhitelist: boolean;
  readonly approvalsWhitelistUserIds: readonly number[];
  readonly approvalsWhitelistTeamIds: readonly number[];
  readonly requiredApprovals: number;
  readonly blockOnRejectedReviews: boolean;
  readonly blockOnOfficialReviewRequests: boolean;
  readonly blockOnOutdatedBranch: boolean;
  readonly dismissStaleApprovals: boolean;
  readonly ignoreStaleApprovals: boolean;
  readonly requireSignedCommits: boolean;
  readonly protectedFilePatterns: string;
  readonly unprotectedFilePatterns: string;
  readonly createdUnix: number;
  readonly updatedUnix: number;
}

/** The fields a create or edit sets (everything but identity and times). */
export type ProtectionFields = Omit<ProtectionRecord, 'id' | 'repoId' | 'createdUnix' | 'updatedUnix'>;

// gobwas/glob's special characters: a rule name with none of them is a plain branch name.
const SPECIAL = /[*?[\]{}\\]/;

/** Gitea's IsRuleNameSpecial: whether a rule name is a glob pattern rather than a branch name. */
export const isGlobRule = (ruleName: string): boolean => SPECIAL.test(ruleName);

/**
 * How a rule matches branch names: a gobwas glob with `/` as separator (see glob.ts: linear-time matching, since
 * repository administrators choose the pattern), or, for a plain name or a glob that does not parse (Gitea then
 * compares literally), the name itself compared without regard to case (Gitea's EqualFold).
 */
export type RuleMatcher = { readonly glob: string } | { readonly literal: string };

export function ruleMatcher(ruleName: string): RuleMatcher {
  if (isGlobRule(ruleName) && compileGlob(ruleName, '/') !== null) return { glob: ruleName };
  return { literal: ruleName.toLowerCase() };
}

/** Whether `ruleName` applies to `branch`. */
export function ruleMatches(ruleName: string, branch: string): boolean {
  const m = ruleMatcher(ruleName);
  return 'glob' in m ? compileGlob(m.glob, '/')!.test(branch) : m.literal === branch.toLowerCase();
}

/**
 * Gitea's protected / unprotected file patterns: `;`-separated, lower-cased globs with `.` and `/` both as
 * separators (so `*.lock` matches `yarn.lock` but not `a/yarn.lock`, and `*` never crosses a dot). Invalid
 * globs are skipped, as Gitea does. Matched against lower-cased paths (with {@link FILE_GLOB_SEPARATORS}).
 */
export function filePatterns(patterns: string): string[] {
  const out: string[] = [];
  for (const expr of patterns.toLowerCase().split(';')) {
    const g = expr.trim();
    if (g !== '' && compileGlob(g, FILE_GLOB_SEPARATORS) !== null) out.push(g);
  }
  return out;
}

export const FILE_GLOB_SEPARATORS = './';

/** Gitea's rule order: plain branch names first, then glob rules, each by creation (then id). */
export function sortRules<T extends Pick<ProtectionRecord, 'ruleName' | 'createdUnix' | 'id'>>(rules: readonly T[]): T[] {
  return [...rules].sort((a, b) => {
    const ga = isGlobRule(a.ruleName);
    const gb = isGlobRule(b.ruleName);
    if (ga !== gb) return ga ? 1 : -1;
    return a.createdUnix - b.createdUnix || a.id - b.id;
  });
}

/** The first rule (in {@link sortRules} order) that applies to `branch`, if any. */
export function firstMatchingRule<T extends Pick<ProtectionRecord, 'ruleName' | 'createdUnix' | 'id'>>(rules: readonly T[], branch: string): T | undefined {
  for (const r of sortRules(rules)) if (ruleMatches(r.ruleName, branch)) return r;
  return undefined;
}

/** Gitea's CanUserPush for a signed-in user with access mode `mode` (teams are not supported yet). */
export function canUserPush(rule: ProtectionRecord, userId: number, mode: number, writeMode: number, teamIds: readonly number[] = []): boolean {
  if (!rule.canPush) return false;
  if (!rule.enableWhitelist) return mode >= writeMode;
  return rule.whitelistUserIds.includes(userId) || rule.whitelistTeamIds.some((t) => teamIds.includes(t));
}

/** Gitea's IsUserMergeWhitelisted. */
export function canUserMerge(rule: ProtectionRecord, userId: number, mode: number, writeMode: number, teamIds: readonly number[] = []): boolean {
  if (!rule.enableMergeWhitelist) return mode >= writeMode;
  return rule.mergeWhitelistUserIds.includes(userId) || rule.mergeWhitelistTeamIds.some((t) => teamIds.includes(t));
}

/** What the Branch JSON shows about the rule that applies to a branch, evaluated for the caller. */
export interface BranchProtectionInfo {
  readonly ruleName: string;
  readonly requiredApprovals: number;
  readonly enableStatusCheck: boolean;
  readonly statusCheckContexts: readonly string[];
  readonly userCanPush: boolean;
  readonly userCanMerge: boolean;
  /** Gitea shows effective_branch_protection_name to repository administrators only. */
  readonly showRuleName: boolean;
}
