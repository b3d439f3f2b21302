import type { Handler } from '../kit.js';
import { toApiAnnotatedTag, toApiBlob, toApiReference, toApiTree } from '../../convert/gitdata.js';

const fullName = (a: { owner: { name: string }; repo: { name: string } }) => `${a.owner.name}/${a.repo.name}`;

export const repoListAllGitRefs: Handler<'repoListAllGitRefs'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const refs = await ctx.services.gitData.refs(access);
  return { status: 200, body: refs.map((r) => toApiReference(r, fullName(access), ctx.services.config)) };
};

export const repoListGitRefs: Handler<'repoListGitRefs'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const refs = await ctx.services.gitData.refs(access, ctx.path.ref);
  const body = refs.map((r) => toApiReference(r, fullName(access), ctx.services.config));
  // Gitea answers the object itself when the one match is exactly the name asked for (clients rely on it).
  if (body.length === 1 && body[0]!.ref === `refs/${ctx.path.ref}`) return { status: 200, body: body[0]! };
  return { status: 200, body };
};

export const GetTree: Handler<'GetTree'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const tree = await ctx.services.gitData.tree(access, ctx.path.sha, { recursive: ctx.query.recursive ?? false, page: ctx.query.page, perPage: ctx.query.per_page });
  return { status: 200, body: toApiTree(tree, fullName(access), ctx.services.config), total: tree.total };
};

export const GetBlob: Handler<'GetBlob'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const blob = await ctx.services.gitData.blob(access, ctx.path.sha);
  return { status: 200, body: toApiBlob(blob, fullName(access), ctx.services.config) };
};

export const GetAnnotatedTag: Handler<'GetAnnotatedTag'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const tag = await ctx.services.gitData.annotatedTag(access, ctx.path.sha);
  return { status: 200, body: toApiAnnotatedTag(tag, fullName(access), ctx.services.config) };
};
