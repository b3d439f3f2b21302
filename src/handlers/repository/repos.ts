import { type Handler, requireDoer } from '../kit.js';
import { validation } from '../../domain/errors.js';
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
  });
  return { status: 200, body: toApiRepo(edited, ctx.doer, ctx.services.config) };
};

export const repoDelete: Handler<'repoDelete'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.repos.remove(access);
  return { status: 204, body: undefined };
};

const SORTS = {
  alpha: 'alpha',
  created: 'created',
  updated: 'updated',
  size: 'size',
  git_size: 'size',
  lfs_size: 'size',
  id: 'id',
  stars: 'stars',
  forks: 'forks',
} as const;
const MODES = ['', 'fork', 'source', 'mirror', 'collaborative'];

/** Gitea's search answers {"ok": true, "data": [...]}; only repositories the caller may see. */
export const repoSearch: Handler<'repoSearch'> = async (ctx) => {
  const q = ctx.query;
  const mode = q.mode ?? '';
  if (!MODES.includes(mode)) throw validation(`Invalid search mode: "${mode}"`);
  // Gitea: without sort, alphabetical; with sort, order defaults to asc and unknown values are 422.
  let sort: (typeof SORTS)[keyof typeof SORTS] = 'alpha';
  let desc = false;
  if (q.sort) {
    const order = q.order || 'asc';
    if (order !== 'asc' && order !== 'desc') throw validation(`Invalid sort order: "${order}"`);
    if (!Object.hasOwn(SORTS, q.sort)) throw validation(`Invalid sort mode: "${q.sort}"`);
    sort = SORTS[q.sort as keyof typeof SORTS];
    desc = order === 'desc';
  }
  // private=false leaves out private repositories whatever the caller may see (Gitea's opts.Private).
  const includePrivate = q.private !== false;
  if (!includePrivate && q.is_private === true) {
    return { status: 200, body: { ok: true, data: [] }, total: 0, link: true };
  }
  const { repos, total } = await ctx.services.repos.search(
    ctx.actor,
    {
      keyword: q.q,
      includeDescription: q.includeDesc ?? false,
      ownerId: q.uid && q.uid > 0 ? q.uid : undefined,
      ownership: q.uid && q.uid > 0 ? (mode === 'collaborative' ? 'collaborative' : q.exclusive ? 'owned' : 'both') : undefined,
      starredBy: q.starredBy && q.starredBy > 0 ? q.starredBy : undefined,
      isPrivate: includePrivate ? q.is_private : false,
      isTemplate: q.template,
      isArchived: q.archived,
      isFork: mode === 'fork' ? true : mode === 'source' ? false : undefined,
      isMirror: mode === 'mirror' ? true : mode === 'source' || mode === 'collaborative' ? false : undefined,
      topic: q.topic ? q.q : undefined,
      priorityOwnerId: q.priority_owner_id && q.priority_owner_id > 0 ? q.priority_owner_id : undefined,
      orderBy: { column: sort, desc },
      ...(q.topic ? { keyword: undefined } : {}),
    },
    ctx.paging(),
  );
  return { status: 200, body: { ok: true, data: repos.map((r) => toApiRepo(r, ctx.doer, ctx.services.config)) }, total, link: true };
};
