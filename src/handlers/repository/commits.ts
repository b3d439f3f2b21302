import type { Handler, HandlerContext } from '../kit.js';
import { toApiCommit } from '../../convert/commit.js';
import type { CommitDetail } from '../../services/commits.js';

const fullName = (a: { owner: { name: string }; repo: { name: string } }) => `${a.owner.name}/${a.repo.name}`;

/** Gitea's stat, verification and files switches: each is on unless given as false. */
const detailOf = (q: { stat?: boolean; verification?: boolean; files?: boolean }): CommitDetail => ({
  stat: q.stat !== false,
  verification: q.verification !== false,
  files: q.files !== false,
});

export const repoGetAllCommits: Handler<'repoGetAllCommits'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const detail = detailOf(ctx.query);
  const { commits, total, page, limit } = await ctx.services.commits.list(
    access,
    { sha: ctx.query.sha, path: ctx.query.path, not: ctx.query.not, ...detail },
    ctx.paging(),
  );
  const pageCount = Math.ceil(total / limit);
  const name = fullName(access);
  return {
    status: 200,
    body: commits.map((c) => toApiCommit(c, name, detail.verification, ctx.services.config)),
    total,
    link: true,
    // Gitea keeps these legacy headers for older clients.
    headers: {
      'X-Page': String(page),
      'X-PerPage': String(limit),
      'X-Total': String(total),
      'X-PageCount': String(pageCount),
      'X-HasMore': String(page < pageCount),
      'Access-Control-Expose-Headers': 'X-Total-Count, Link, X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore',
    },
  };
};

async function singleCommit(ctx: HandlerContext<'repoGetSingleCommit' | 'repoGetSingleCommitByPath'>) {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const detail = detailOf(ctx.query);
  const commit = await ctx.services.commits.get(access, ctx.path.sha, detail);
  return { status: 200 as const, body: toApiCommit(commit, fullName(access), detail.verification, ctx.services.config) };
}

export const repoGetSingleCommit: Handler<'repoGetSingleCommit'> = (ctx) => singleCommit(ctx);

/** `GET /repos/{owner}/{repo}/commits/{sha}`: the mission's contract adds it beside /git/commits/{sha}. */
export const repoGetSingleCommitByPath: Handler<'repoGetSingleCommitByPath'> = (ctx) => singleCommit(ctx);

export const repoDownloadCommitDiffOrPatch: Handler<'repoDownloadCommitDiffOrPatch'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const type: string = ctx.path.diffType;
  if (type !== 'diff' && type !== 'patch') {
    // The router splits any name with a dot (a tag v1.2, a..b) here; Gitea routes only .diff and .patch to this
    // operation, so anything else is a commit name for repoGetSingleCommit.
    const commit = await ctx.services.commits.get(access, `${ctx.path.sha}.${type}`, detailOf({}));
    const body = JSON.stringify(toApiCommit(commit, fullName(access), true, ctx.services.config));
    return { status: 200, body, headers: { 'Content-Type': 'application/json;charset=utf-8' } };
  }
  const text = await ctx.services.commits.diff(access, ctx.path.sha, type);
  return { status: 200, body: text.toString('utf8'), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
