import { type Handler, requireDoer } from '../kit.js';
import { toApiUser } from '../../convert/user.js';

export const orgListMembers: Handler<'orgListMembers'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const { users, total } = await ctx.services.orgs.listMembers(org, ctx.actor, ctx.paging());
  return { status: 200, body: users.map((u) => toApiUser(u, ctx.doer, ctx.services.config)), total, link: true };
};

export const orgIsMember: Handler<'orgIsMember'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor).catch(ctx.services.orgs.emptyNotFound);
  const answer = await ctx.services.orgs.checkMember(org, requireDoer(ctx), ctx.path.username);
  if (answer === 'yes') return { status: 204, body: undefined };
  // Gitea sends callers outside the organization to the public membership check.
  const base = new URL(ctx.services.config.server.rootUrl).pathname.replace(/\/$/, '');
  const location = `${base}/api/v1/orgs/${encodeURIComponent(org.name)}/public_members/${encodeURIComponent(ctx.path.username)}`;
  return { status: 303, body: undefined, headers: { Location: location } };
};

export const orgDeleteMember: Handler<'orgDeleteMember'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  await ctx.services.orgs.removeMember(org, requireDoer(ctx), ctx.path.username);
  return { status: 204, body: undefined };
};

export const orgListPublicMembers: Handler<'orgListPublicMembers'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const { users, total } = await ctx.services.orgs.listPublicMembers(org, ctx.paging());
  return { status: 200, body: users.map((u) => toApiUser(u, ctx.doer, ctx.services.config)), total, link: true };
};

export const orgIsPublicMember: Handler<'orgIsPublicMember'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  await ctx.services.orgs.checkPublicMember(org, ctx.path.username);
  return { status: 204, body: undefined };
};

export const orgPublicizeMember: Handler<'orgPublicizeMember'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  await ctx.services.orgs.setPublicMember(org, requireDoer(ctx), ctx.path.username, true);
  return { status: 204, body: undefined };
};

export const orgConcealMember: Handler<'orgConcealMember'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  await ctx.services.orgs.setPublicMember(org, requireDoer(ctx), ctx.path.username, false);
  return { status: 204, body: undefined };
};
