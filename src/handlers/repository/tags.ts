import { type Handler, requireDoer } from '../kit.js';
import { toApiTag } from '../../convert/tag.js';

const fullName = (a: { owner: { name: string }; repo: { name: string } }) => `${a.owner.name}/${a.repo.name}`;

export const repoListTags: Handler<'repoListTags'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { tags, total } = await ctx.services.tags.list(access, ctx.paging());
  return { status: 200, body: tags.map((t) => toApiTag(t, fullName(access), ctx.services.config)), total };
};

export const repoGetTag: Handler<'repoGetTag'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const tag = await ctx.services.tags.get(access, ctx.path.tag);
  return { status: 200, body: toApiTag(tag, fullName(access), ctx.services.config) };
};

export const repoCreateTag: Handler<'repoCreateTag'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const tag = await ctx.services.tags.create(access, requireDoer(ctx), ctx.body.tag_name, ctx.body.target?.trim(), ctx.body.message);
  return { status: 201, body: toApiTag(tag, fullName(access), ctx.services.config) };
};

export const repoDeleteTag: Handler<'repoDeleteTag'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.tags.remove(access, ctx.path.tag, requireDoer(ctx));
  return { status: 204, body: undefined };
};
