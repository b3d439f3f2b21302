import { AppError } from '../domain/errors.js';
import type { BranchRefRule } from '../git/hooks.js';
import {
  canUserMerge,
  canUserPush,
  filePatterns,
  firstMatchingRule,
  ruleMatcher,
  sortRules,
  type BranchProtectionInfo,
  type ProtectionFields,
  type ProtectionRecord,
} from '../domain/protection.js';
import { AccessMode } from '../domain/repo.js';
import type { Actor } from '../domain/user.js';
import * as protectionsDb from '../db/protections.js';
import * as usersDb from '../db/users.js';
import * as orgsDb from '../db/orgs.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { RepoAccess, RepoService } from './repos.js';

/** The body of a create or edit, as the API names it; absent fields are left alone on edit. */
export interface ProtectionOptions {
  readonly rule_name?: string | undefined;
  readonly branch_name?: string | undefined;
  readonly enable_push?: boolean | undefined;
  readonly enable_push_whitelist?: boolean | undefined;
  readonly push_whitelist_usernames?: readonly string[] | undefined;
  readonly push_whitelist_teams?: readonly string[] | undefined;
  readonly push_whitelist_deploy_keys?: boolean | undefined;
  readonly enable_merge_whitelist?: boolean | undefined;
  readonly merge_whitelist_usernames?: readonly string[] | undefined;
  readonly merge_whitelist_teams?: readonly string[] | undefined;
  readonly enable_status_check?: boolean | undefined;
  readonly status_check_contexts?: readonly string[] | undefined;
  readonly required_approvals?: number | undefined;
  readonly enable_approvals_whitelist?: boolean | undefined;
  readonly approvals_whitelist_username?: readonly string[] | undefined;
  readonly approvals_whitelist_teams?: readonly string[] | undefined;
  readonly block_on_rejected_reviews?: boolean | undefined;
  readonly block_on_official_review_requests?: boolean | undefined;
  readonly block_on_outdated_branch?: boolean | undefined;
  readonly dismiss_stale_approvals?: boolean | undefined;
  readonly ignore_stale_approvals?: boolean | undefined;
  readonly require_signed_commits?: boolean | undefined;
  readonly protected_file_patterns?: string | undefined;
  readonly unprotected_file_patterns?: string | undefined;
}

/** A rule with the names of the users in its allow lists (sorted by name, as Gitea's GetUserNamesByIDs). */
export interface ProtectionView {
  readonly rule: ProtectionRecord;
  readonly pushUsers: readonly string[];
  readonly mergeUsers: readonly string[];
  readonly approvalUsers: readonly string[];
  readonly pushTeams: readonly string[];
  readonly mergeTeams: readonly string[];
  readonly approvalTeams: readonly string[];
}

/** One rule as the pre-receive hook applies it (see git/hooks.ts). */
export type HookRule = BranchRefRule;

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

export function createProtectionService(deps: ServiceDeps, repos: RepoService) {
  const { db } = deps;

  /** Gitea's reqAdmin on the branch_protections routes, reads included. */
  function requireAdmin(access: RepoAccess): void {
    if (access.mode < AccessMode.admin) throw new AppError('forbidden', 'user should be an owner or a collaborator with admin write of a repository');
  }
  function requireNotArchived(access: RepoAccess): void {
    if (access.repo.isArchived) throw new AppError('locked', `<Repository ${access.repo.id}:${access.owner.name}/${access.repo.name}> is archived`);
  }

  async function view(rule: ProtectionRecord): Promise<ProtectionView> {
    const all = [...new Set([...rule.whitelistUserIds, ...rule.mergeWhitelistUserIds, ...rule.approvalsWhitelistUserIds])];
    const users = new Map((await usersDb.getUsersByIds(db, all)).map((u) => [u.id, u.name]));
    const names = (ids: readonly number[]) => ids.map((id) => users.get(id)).filter((n): n is string => n !== undefined).sort();
    const allTeams = [...new Set([...rule.whitelistTeamIds, ...rule.mergeWhitelistTeamIds, ...rule.approvalsWhitelistTeamIds])];
    const teams = new Map((await orgsDb.getTeamsByIds(db, allTeams)).map((t) => [t.id, t.name]));
    const teamNames = (ids: readonly number[]) => ids.map((id) => teams.get(id)).filter((n): n is string => n !== undefined).sort();
    return {
      rule,
      pushUsers: names(rule.whitelistUserIds),
      mergeUsers: names(rule.mergeWhitelistUserIds),
      approvalUsers: names(rule.approvalsWhitelistUserIds),
      pushTeams: teamNames(rule.whitelistTeamIds),
      mergeTeams: teamNames(rule.mergeWhitelistTeamIds),
      approvalTeams: teamNames(rule.approvalsWhitelistTeamIds),
    };
  }

  /** The caller's teams in the repository's organization (team allow lists), none for user repositories. */
  async function callerTeamIds(access: RepoAccess, actor: Actor): Promise<number[]> {
    if (!actor.user || !access.owner.isOrganization) return [];
    return (await orgsDb.teamsOfUserInOrg(db, access.owner.id, actor.user.id)).map((t) => t.id);
  }

  /**
   * Gitea's GetUserIDsByNames (an unknown name is 422) followed by updateUserWhitelist: when the list
   * changed, users without at least `minMode` on the repository are dropped silently.
   */
  async function userIds(access: RepoAccess, names: readonly string[] | undefined, current: readonly number[], minMode: number): Promise<readonly number[]> {
    if (names === undefined) return current;
    const users = [];
    for (const name of names) {
      const u = await usersDb.getUserByName(db, name);
      if (!u) throw new AppError('validation', `user does not exist [uid: 0, name: ${name}]`);
      users.push(u);
    }
    const wanted = [...new Set(users.map((u) => u.id))];
    if (sameIds(wanted, current)) return current;
    const kept: number[] = [];
    for (const u of users) {
      if (kept.includes(u.id)) continue;
      if ((await repos.accessMode(access.repo, access.owner, u)) >= minMode) kept.push(u.id);
    }
    return kept;
  }

  /**
   * Team allow lists (Gitea's GetTeamIDsByNames + updateTeamWhitelist): repositories of users have no teams
   * (ignored, as Gitea does); an unknown team is 422; when the list changed, teams without read access to
   * the repository are dropped silently.
   */
  async function teamIds(access: RepoAccess, names: readonly string[] | undefined, current: readonly number[]): Promise<readonly number[]> {
    if (names === undefined || !access.owner.isOrganization) return current;
    const wanted: number[] = [];
    for (const name of names) {
      const team = await orgsDb.getTeamByName(db, access.owner.id, name);
      if (!team) throw new AppError('validation', `team does not exist [org_id ${access.owner.id}, team_id 0, name: ${name}]`);
      if (!wanted.includes(team.id)) wanted.push(team.id);
    }
    if (sameIds(wanted, current)) return current;
    const kept: number[] = [];
    for (const team of await orgsDb.getTeamsByIds(db, wanted)) {
      if (team.mode >= AccessMode.read && (await orgsDb.hasTeamRepo(db, team, access.repo.id))) kept.push(team.id);
    }
    return kept;
  }

  async function list(access: RepoAccess): Promise<ProtectionView[]> {
    requireAdmin(access);
    return Promise.all(sortRules(await protectionsDb.listProtectedBranches(db, access.repo.id)).map(view));
  }

  async function find(access: RepoAccess, name: string): Promise<ProtectionRecord> {
    requireAdmin(access);
    const rule = await protectionsDb.getProtectedBranch(db, access.repo.id, name);
    if (!rule) throw new AppError('not_found', "The target couldn't be found.");
    return rule;
  }

  const get = async (access: RepoAccess, name: string): Promise<ProtectionView> => view(await find(access, name));

  /** Gitea's CreateBranchProtection. */
  async function create(access: RepoAccess, o: ProtectionOptions): Promise<ProtectionView> {
    requireAdmin(access);
    requireNotArchived(access);
    const ruleName = o.rule_name || o.branch_name || '';
    if (ruleName === '') throw new AppError('bad_request', 'both rule_name and branch_name are empty');
    if (await protectionsDb.getProtectedBranch(db, access.repo.id, ruleName)) throw new AppError('forbidden', 'Branch protection already exist');
    const push = o.enable_push ?? false;
    const pushList = push && (o.enable_push_whitelist ?? false);
    const fields: ProtectionFields = {
      ruleName,
      canPush: push,
      enableWhitelist: pushList,
      whitelistDeployKeys: pushList && (o.push_whitelist_deploy_keys ?? false),
      whitelistUserIds: await userIds(access, o.push_whitelist_usernames ?? [], [], AccessMode.write),
      whitelistTeamIds: await teamIds(access, o.push_whitelist_teams ?? [], []),
      enableMergeWhitelist: o.enable_merge_whitelist ?? false,
      mergeWhitelistUserIds: await userIds(access, o.merge_whitelist_usernames ?? [], [], AccessMode.write),
      mergeWhitelistTeamIds: await teamIds(access, o.merge_whitelist_teams ?? [], []),
      enableStatusCheck: o.enable_status_check ?? false,
      statusCheckContexts: o.status_check_contexts ?? [],
      enableApprovalsWhitelist: o.enable_approvals_whitelist ?? false,
      approvalsWhitelistUserIds: await userIds(access, o.approvals_whitelist_username ?? [], [], AccessMode.read),
      approvalsWhitelistTeamIds: await teamIds(access, o.approvals_whitelist_teams ?? [], []),
      requiredApprovals: Math.max(0, o.required_approvals ?? 0),
      blockOnRejectedReviews: o.block_on_rejected_reviews ?? false,
      blockOnOfficialReviewRequests: o.block_on_official_review_requests ?? false,
      blockOnOutdatedBranch: o.block_on_outdated_branch ?? false,
      dismissStaleApprovals: o.dismiss_stale_approvals ?? false,
      ignoreStaleApprovals: o.ignore_stale_approvals ?? false,
      requireSignedCommits: o.require_signed_commits ?? false,
      protectedFilePatterns: o.protected_file_patterns ?? '',
      unprotectedFilePatterns: o.unprotected_file_patterns ?? '',
    };
    let rule: ProtectionRecord;
    try {
      rule = await protectionsDb.insertProtectedBranch(db, access.repo.id, fields, unixNow(deps));
    } catch (e) {
      // A concurrent create of the same rule name lost the race on the unique constraint.
      if (await protectionsDb.getProtectedBranch(db, access.repo.id, ruleName)) throw new AppError('forbidden', 'Branch protection already exist');
      throw e;
    }
    return view(rule);
  }

  /** Gitea's EditBranchProtection: only the fields sent change. */
  async function edit(access: RepoAccess, name: string, o: ProtectionOptions): Promise<ProtectionView> {
    const cur = await find(access, name);
    requireNotArchived(access);
    let { canPush, enableWhitelist, whitelistDeployKeys } = cur;
    if (o.enable_push !== undefined) {
      if (!o.enable_push) {
        canPush = false;
        enableWhitelist = false;
        whitelistDeployKeys = false;
      } else {
        canPush = true;
        if (o.enable_push_whitelist !== undefined) {
          if (!o.enable_push_whitelist) {
            enableWhitelist = false;
            whitelistDeployKeys = false;
          } else {
            enableWhitelist = true;
            if (o.push_whitelist_deploy_keys !== undefined) whitelistDeployKeys = o.push_whitelist_deploy_keys;
          }
        }
      }
    }
    const fields: ProtectionFields = {
      ruleName: cur.ruleName,
      canPush,
      enableWhitelist,
      whitelistDeployKeys,
      whitelistUserIds: await userIds(access, o.push_whitelist_usernames, cur.whitelistUserIds, AccessMode.write),
      whitelistTeamIds: await teamIds(access, o.push_whitelist_teams, cur.whitelistTeamIds),
      enableMergeWhitelist: o.enable_merge_whitelist ?? cur.enableMergeWhitelist,
      mergeWhitelistUserIds: await userIds(access, o.merge_whitelist_usernames, cur.mergeWhitelistUserIds, AccessMode.write),
      mergeWhitelistTeamIds: await teamIds(access, o.merge_whitelist_teams, cur.mergeWhitelistTeamIds),
      enableStatusCheck: o.enable_status_check ?? cur.enableStatusCheck,
      statusCheckContexts: o.status_check_contexts ?? cur.statusCheckContexts,
      enableApprovalsWhitelist: o.enable_approvals_whitelist ?? cur.enableApprovalsWhitelist,
      approvalsWhitelistUserIds: await userIds(access, o.approvals_whitelist_username, cur.approvalsWhitelistUserIds, AccessMode.read),
      approvalsWhitelistTeamIds: await teamIds(access, o.approvals_whitelist_teams, cur.approvalsWhitelistTeamIds),
      // Gitea ignores a negative value on edit.
      requiredApprovals: o.required_approvals !== undefined && o.required_approvals >= 0 ? o.required_approvals : cur.requiredApprovals,
      blockOnRejectedReviews: o.block_on_rejected_reviews ?? cur.blockOnRejectedReviews,
      blockOnOfficialReviewRequests: o.block_on_official_review_requests ?? cur.blockOnOfficialReviewRequests,
      blockOnOutdatedBranch: o.block_on_outdated_branch ?? cur.blockOnOutdatedBranch,
      dismissStaleApprovals: o.dismiss_stale_approvals ?? cur.dismissStaleApprovals,
      ignoreStaleApprovals: o.ignore_stale_approvals ?? cur.ignoreStaleApprovals,
      requireSignedCommits: o.require_signed_commits ?? cur.requireSignedCommits,
      protectedFilePatterns: o.protected_file_patterns ?? cur.protectedFilePatterns,
      unprotectedFilePatterns: o.unprotected_file_patterns ?? cur.unprotectedFilePatterns,
    };
    return view(await protectionsDb.updateProtectedBranch(db, cur.id, fields, unixNow(deps)));
  }

  async function remove(access: RepoAccess, name: string): Promise<void> {
    const rule = await find(access, name);
    await protectionsDb.deleteProtectedBranch(db, rule.id);
  }

  /**
   * The rule that applies to each branch, evaluated for the caller (Gitea's ToBranch); the rules are
   * loaded once, so a branch list costs one query.
   */
  async function forBranches(access: RepoAccess, actor: Actor): Promise<(branch: string) => BranchProtectionInfo | undefined> {
    const rules = sortRules(await protectionsDb.listProtectedBranches(db, access.repo.id));
    const myTeams = rules.length ? await callerTeamIds(access, actor) : [];
    return (branch) => {
      const rule = rules.length ? firstMatchingRule(rules, branch) : undefined;
      if (!rule) return undefined;
      const user = actor.user;
      return {
        ruleName: rule.ruleName,
        requiredApprovals: rule.requiredApprovals,
        enableStatusCheck: rule.enableStatusCheck,
        statusCheckContexts: rule.statusCheckContexts,
        userCanPush: user ? canUserPush(rule, user.id, access.mode, AccessMode.write, myTeams) : false,
        userCanMerge: user ? canUserMerge(rule, user.id, access.mode, AccessMode.write, myTeams) : false,
        showRuleName: access.mode >= AccessMode.admin,
      };
    };
  }

  /** Whether some rule protects `branch` (deleting it is then refused). */
  async function isProtected(repoId: number, branch: string): Promise<boolean> {
    return firstMatchingRule(await protectionsDb.listProtectedBranches(db, repoId), branch) !== undefined;
  }

  /**
   * The rules the pre-receive hook applies to a push by `actor`, in match order; empty when the
   * repository has none (the hook is then not run at all).
   */
  async function hookRules(access: RepoAccess, actor: Actor): Promise<HookRule[]> {
    const rules = sortRules(await protectionsDb.listProtectedBranches(db, access.repo.id));
    const myTeams = rules.length ? await callerTeamIds(access, actor) : [];
    return rules.map((r) => {
      const m = ruleMatcher(r.ruleName);
      return {
        name: r.ruleName,
        glob: 'glob' in m ? m.glob : null,
        push: actor.user ? canUserPush(r, actor.user.id, access.mode, AccessMode.write, myTeams) : false,
        protectedFiles: filePatterns(r.protectedFilePatterns),
        unprotectedFiles: filePatterns(r.unprotectedFilePatterns),
      };
    });
  }

  return { list, get, create, edit, remove, forBranches, isProtected, hookRules };
}

export type ProtectionService = ReturnType<typeof createProtectionService>;
