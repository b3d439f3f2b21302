import { type Handler, requireDoer } from '../kit.js';
import { toApiRepo } from '../../convert/repo.js';
import { createRepoInput } from './shared.js';

export const createCurrentUserRepo: Handler<'createCurrentUserRepo'> = async (ctx) => {
  const me = requireDoer(ctx);
  const created = await ctx.services.repos.create(me, me, createRepoInput(ctx.body));
  return { status: 201, body: toApiRepo(created, me, ctx.services.config) };
};

export const repoGet: Handler<'repoGet'> = async (ctx) => {
  const [access] = await ctx.services.repos.withParents([await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor)], ctx.actor);
  return { status: 200, body: toApiRepo(access!, ctx.doer, ctx.services.config) };
};

export const repoGetByID: Handler<'repoGetByID'> = async (ctx) => {
  const [access] = await ctx.services.repos.withParents([await ctx.services.repos.resolveById(ctx.path.id, ctx.actor)], ctx.actor);
  return { status: 200, body: toApiRepo(access!, ctx.doer, ctx.services.config) };
};

export const repoEdit: Handler<'repoEdit'> = async (ctx) => {
  const b = ctx.body;
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const settings: Record<string, unknown> = {
    hasIssues: b.has_issues,
    hasWiki: b.has_wiki,
    hasPullRequests: b.has_pull_requests,
    hasProjects: b.has_projects,
    hasReleases: b.has_releases,
    hasPackages: b.has_packages,
    hasActions: b.has_actions,
    ignoreWhitespaceConflicts: b.ignore_whitespace_conflicts,
    allowMergeCommits: b.allow_merge_commits,
    allowRebase: b.allow_rebase,
    allowRebaseExplicit: b.allow_rebase_explicit,
    allowSquashMerge: b.allow_squash_merge,
    allowFastForwardOnlyMerge: b.allow_fast_forward_only_merge,
    allowRebaseUpdate: b.allow_rebase_update,
    defaultDeleteBranchAfterMerge: b.default_delete_branch_after_merge,
    defaultMergeStyle: b.default_merge_style,
    defaultAllowMaintainerEdit: b.default_allow_maintainer_edit,
    mirrorInterval: b.mirror_interval,
  };
  for (const k of Object.keys(settings)) if (settings[k] === undefined) delete settings[k];
  const edited = await ctx.services.repos.edit(access, {
    name: b.name,
    description: b.description,
    website: b.website,
    private: b.private,
    template: b.template,
    archived: b.archived,
    defaultBranch: b.default_branch,
    settings,
    enablePrune: b.enable_prune,
  });
  return { status: 200, body: toApiRepo(edited, ctx.doer, ctx.services.config) };
};

export const repoDelete: Handler<'repoDelete'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.repos.remove(access, ctx.doer ?? undefined);
  return { status: 204, body: undefined };
};

/** Gitea's search answers {"ok": true, "data": [...]}; only repositories the caller may see. */
export const repoSearch: Handler<'repoSearch'> = async (ctx) => {
  const q = ctx.query;
  const { repos, total } = await ctx.services.repos.searchByQuery(
    ctx.actor,
    {
      q: q.q,
      topic: q.topic,
      includeDesc: q.includeDesc,
      uid: q.uid,
      priorityOwnerId: q.priority_owner_id,
      starredBy: q.starredBy,
      private: q.private,
      isPrivate: q.is_private,
      template: q.template,
      archived: q.archived,
      mode: q.mode,
      exclusive: q.exclusive,
      sort: q.sort,
      order: q.order,
    },
    ctx.paging(),
  );
  return { status: 200, body: { ok: true, data: repos.map((r) => toApiRepo(r, ctx.doer, ctx.services.config)) }, total, link: true };
};
