import { requireDoer, type Handler } from '../kit.js';
import { toFileCommitResponse, UNSIGNED } from '../../convert/contents.js';

export const repoApplyDiffPatch: Handler<'repoApplyDiffPatch'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const b = ctx.body;
  const result = await ctx.services.contents.applyDiffPatch(access, ctx.actor, requireDoer(ctx), {
    branch: b.branch,
    newBranch: b.new_branch,
    message: b.message,
    author: b.author,
    committer: b.committer,
    dates: b.dates,
    signoff: b.signoff,
    content: b.content,
  });
  // Gitea 1.22 answers 201 here (its description says 200) with no file content.
  return {
    status: 201,
    body: {
      content: null,
      commit: toFileCommitResponse(result.commit, result.parents, `${access.owner.name}/${access.repo.name}`, ctx.services.config),
      verification: UNSIGNED,
    },
  };
};
