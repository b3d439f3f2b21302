import { type Handler, requireDoer } from '../kit.js';
import { toApiUser } from '../../convert/user.js';
import { notFound } from '../../domain/errors.js';
import { modeName } from '../../services/social.js';

export const repoListCollaborators: Handler<'repoListCollaborators'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { users, total } = await ctx.services.social.collaborators(access, ctx.paging());
  return { status: 200, body: users.map((c) => toApiUser(c.user, ctx.doer, ctx.services.config)), total };
};

export const repoCheckCollaborator: Handler<'repoCheckCollaborator'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  if (!(await ctx.services.social.isCollaborator(access, ctx.path.collaborator))) throw notFound();
  return { status: 204, body: undefined };
};

export const repoAddCollaborator: Handler<'repoAddCollaborator'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.social.addCollaborator(access, ctx.path.collaborator, ctx.body.permission);
  return { status: 204, body: undefined };
};

export const repoDeleteCollaborator: Handler<'repoDeleteCollaborator'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.social.removeCollaborator(access, ctx.path.collaborator);
  return { status: 204, body: undefined };
};

export const repoGetRepoPermissions: Handler<'repoGetRepoPermissions'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const { user, mode } = await ctx.services.social.permissionOf(access, requireDoer(ctx), ctx.path.collaborator);
  return { status: 200, body: { permission: modeName(mode), role_name: modeName(mode), user: toApiUser(user, ctx.doer, ctx.services.config) } };
};
