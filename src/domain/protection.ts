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

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * A glob in gobwas/glob's syntax with `/` as separator, as a RegExp source: `*` stays within a path
 * segment, `**` crosses segments, `?` is one non-separator character, `[a-z]` / `[!a-z]` classes,
 * `{a,b}` alternatives, `\x` a literal x. Undefined when the glob does not parse (Gitea then matches the
 * rule name literally).
 */
export function globToRegExpSource(glob: string, separators = '/'): string | undefined {
  const sep = separators.replace(/[\\\]^[-]/g, '\\$&');
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      if (i + 1 >= glob.length) return undefined;
      out += escapeRe(glob[++i]!);
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i++;
      } else out += `[^${sep}]*`;
    } else if (c === '?') out += `[^${sep}]`;
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) return undefined;
      let body = glob.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      if (body === '') return undefined;
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^[]/g, '\\$&')}]`;
      i = end;
    } else if (c === '{') {
      depth++;
      out += '(?:';
    } else if (c === '}') {
      if (depth === 0) return undefined;
      depth--;
      out += ')';
    } else if (c === ',' && depth > 0) out += '|';
    else if (c === ']') return undefined;
    else out += escapeRe(c);
  }
  if (depth !== 0) return undefined;
  return `^${out}$`;
}

/**
 * Gitea's protected / unprotected file patterns: `;`-separated, lower-cased globs with `.` and `/` both as
 * separators (so `*.lock` matches `yarn.lock` but not `a/yarn.lock`, and `*` never crosses a dot). Invalid
 * globs are skipped, as Gitea does. Matched against lower-cased paths.
 */
export function filePatternSources(patterns: string): string[] {
  const out: string[] = [];
  for (const expr of patterns.toLowerCase().split(';')) {
    const g = expr.trim();
    if (g === '') continue;
    const src = globToRegExpSource(g, './');
    if (src !== undefined) out.push(src);
  }
  return out;
}

/** How a rule matches branch names, as RegExp source and flags (plain names: case-insensitive equality). */
export function ruleMatcher(ruleName: string): { source: string; flags: string } {
  if (!isGlobRule(ruleName)) return { source: `^${escapeRe(ruleName)}$`, flags: 'i' };
  return { source: globToRegExpSource(ruleName) ?? `^${escapeRe(ruleName)}$`, flags: '' };
}

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
  for (const r of sortRules(rules)) {
    const m = ruleMatcher(r.ruleName);
    if (new RegExp(m.source, m.flags).test(branch)) return r;
  }
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
