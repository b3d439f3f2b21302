import type { Handler } from '../kit.js';
import { toApiCommit } from '../../convert/commit.js';

const fullName = (a: { owner: { name: string }; repo: { name: string } }) => `${a.owner.name}/${a.repo.name}`;

export const repoCompareDiff: Handler<'repoCompareDiff'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  // Gitea converts the commits with stat, verification and files on.
  const commits = await ctx.services.codeInfo.compare(access, ctx.path.basehead, { stat: true, verification: true, files: true });
  const name = fullName(access);
  return {
    status: 200,
    body: { total_commits: commits.length, commits: commits.map((c) => toApiCommit(c, name, true, ctx.services.config)) },
  };
};

export const repoGetNote: Handler<'repoGetNote'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const verification = ctx.query.verification !== false;
  const note = await ctx.services.codeInfo.note(access, ctx.path.sha, { stat: true, verification, files: ctx.query.files !== false });
  return { status: 200, body: { message: note.message, commit: toApiCommit(note.commit, fullName(access), verification, ctx.services.config) } };
};
