import { requireDoer, type Handler, type HandlerContext } from '../kit.js';
import { toApiCombinedStatus, toApiCommitStatus } from '../../convert/status.js';

const fullName = (a: { owner: { name: string }; repo: { name: string } }) => `${a.owner.name}/${a.repo.name}`;

export const repoCreateStatus: Handler<'repoCreateStatus'> = async (ctx) => {
  const me = requireDoer(ctx);
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const b = ctx.body;
  const created = await ctx.services.statuses.create(access, me, ctx.path.sha, {
    state: b.state ?? '',
    targetUrl: b.target_url,
    description: b.description,
    context: b.context,
  });
  return { status: 201, body: toApiCommitStatus(created, fullName(access), ctx.services.config) };
};

export const repoListStatuses: Handler<'repoListStatuses'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { statuses, total } = await ctx.services.statuses.list(access, ctx.path.sha, { sort: ctx.query.sort, state: ctx.query.state }, ctx.paging());
  const name = fullName(access);
  return { status: 200, body: statuses.map((s) => toApiCommitStatus(s, name, ctx.services.config)), total, link: true };
};

/** The combined status; the mission's contract answers it on both /status and /statuses of a ref. */
async function combined(ctx: HandlerContext<'repoGetCombinedStatusByRef' | 'repoListStatusesByRef'>) {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const latest = await ctx.services.statuses.latest(access, ctx.path.ref, ctx.paging());
  const body = toApiCombinedStatus(latest, access, fullName(access), ctx.doer, ctx.services.config);
  // Gitea sets X-Total-Count (the number of contexts) only when there is a status.
  return latest.statuses.length === 0 ? { status: 200 as const, body } : { status: 200 as const, body, total: latest.total };
}

export const repoGetCombinedStatusByRef: Handler<'repoGetCombinedStatusByRef'> = (ctx) => combined(ctx);

export const repoListStatusesByRef: Handler<'repoListStatusesByRef'> = (ctx) => combined(ctx);
