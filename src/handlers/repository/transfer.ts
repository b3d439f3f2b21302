import { type Handler, requireDoer } from '../kit.js';
import { toApiRepo } from '../../convert/repo.js';

export const repoTransfer: Handler<'repoTransfer'> = async (ctx) => {
  const me = requireDoer(ctx);
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { pending, access: after } = await ctx.services.transfers.start(access, me, { newOwner: ctx.body.new_owner, teamIds: ctx.body.team_ids });
  const body = toApiRepo(after, me, ctx.services.config);
  // Gitea answers 201 while the transfer waits for the recipient and 202 when it is done (its swagger lists 202 only).
  return pending ? { status: 201, body } : { status: 202, body };
};

export const acceptRepoTransfer: Handler<'acceptRepoTransfer'> = async (ctx) => {
  const me = requireDoer(ctx);
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const after = await ctx.services.transfers.accept(access, me, ctx.actor);
  return { status: 202, body: toApiRepo(after, me, ctx.services.config) };
};

export const rejectRepoTransfer: Handler<'rejectRepoTransfer'> = async (ctx) => {
  const me = requireDoer(ctx);
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const after = await ctx.services.transfers.reject(access, me, ctx.actor);
  return { status: 200, body: toApiRepo(after, me, ctx.services.config) };
};

export const generateRepo: Handler<'generateRepo'> = async (ctx) => {
  const me = requireDoer(ctx);
  const template = await ctx.services.repos.resolve(ctx.path.template_owner, ctx.path.template_repo, ctx.actor);
  const b = ctx.body;
  const created = await ctx.services.generate.generate(template, me, {
    owner: b.owner,
    name: b.name,
    description: b.description,
    private: b.private,
    defaultBranch: b.default_branch,
    gitContent: b.git_content,
    topics: b.topics,
    gitHooks: b.git_hooks,
    webhooks: b.webhooks,
    avatar: b.avatar,
    labels: b.labels,
    protectedBranch: b.protected_branch,
  });
  return { status: 201, body: toApiRepo(created, me, ctx.services.config) };
};
