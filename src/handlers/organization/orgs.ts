import { type Handler, type Schemas, requireDoer } from '../kit.js';
import { toApiOrg, toApiOrgPermissions } from '../../convert/org.js';
import { toApiRepo } from '../../convert/repo.js';
import { createRepoInput } from '../repository/shared.js';
import type { OrgInput } from '../../services/orgs.js';

function orgInput(b: Schemas['CreateOrgOption'] | Schemas['EditOrgOption']): OrgInput {
  return {
    username: 'username' in b ? b.username : undefined,
    fullName: b.full_name,
    email: b.email,
    description: b.description,
    website: b.website,
    location: b.location,
    visibility: b.visibility,
    repoAdminChangeTeamAccess: b.repo_admin_change_team_access,
  };
}

export const orgGetAll: Handler<'orgGetAll'> = async (ctx) => {
  const { orgs, total } = await ctx.services.orgs.listAll(ctx.actor, ctx.paging());
  return { status: 200, body: orgs.map((o) => toApiOrg(o, ctx.doer, ctx.services.config)), total, link: true };
};

export const orgCreate: Handler<'orgCreate'> = async (ctx) => {
  const org = await ctx.services.orgs.create(requireDoer(ctx), orgInput(ctx.body));
  return { status: 201, body: toApiOrg(org, ctx.doer, ctx.services.config) };
};

export const orgGet: Handler<'orgGet'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  return { status: 200, body: toApiOrg(org, ctx.doer, ctx.services.config) };
};

export const orgEdit: Handler<'orgEdit'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const edited = await ctx.services.orgs.edit(org, requireDoer(ctx), orgInput(ctx.body));
  return { status: 200, body: toApiOrg(edited, ctx.doer, ctx.services.config) };
};

export const orgDelete: Handler<'orgDelete'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  await ctx.services.orgs.remove(org, requireDoer(ctx));
  return { status: 204, body: undefined };
};

export const orgListRepos: Handler<'orgListRepos'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const { repos, total } = await ctx.services.repos.search(ctx.actor, { ownerId: org.id, ownership: 'owned', orderBy: { column: 'alpha', desc: false } }, ctx.paging());
  return { status: 200, body: repos.map((r) => toApiRepo(r, ctx.doer, ctx.services.config)), total, link: true };
};

export const createOrgRepo: Handler<'createOrgRepo'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const created = await ctx.services.orgs.createRepo(org, requireDoer(ctx), createRepoInput(ctx.body));
  return { status: 201, body: toApiRepo(created, ctx.doer, ctx.services.config) };
};

export const createOrgRepoDeprecated: Handler<'createOrgRepoDeprecated'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrgForCreate(ctx.path.org, ctx.actor);
  const created = await ctx.services.orgs.createRepo(org, requireDoer(ctx), createRepoInput(ctx.body));
  return { status: 201, body: toApiRepo(created, ctx.doer, ctx.services.config) };
};

export const orgListCurrentUserOrgs: Handler<'orgListCurrentUserOrgs'> = async (ctx) => {
  const me = requireDoer(ctx);
  const { orgs, total } = await ctx.services.orgs.listForUser(me, ctx.actor, ctx.paging());
  return { status: 200, body: orgs.map((o) => toApiOrg(o, me, ctx.services.config)), total, link: true };
};

export const orgListUserOrgs: Handler<'orgListUserOrgs'> = async (ctx) => {
  const user = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor);
  const { orgs, total } = await ctx.services.orgs.listForUser(user, ctx.actor, ctx.paging());
  return { status: 200, body: orgs.map((o) => toApiOrg(o, ctx.doer, ctx.services.config)), total, link: true };
};

export const orgGetUserPermissions: Handler<'orgGetUserPermissions'> = async (ctx) => {
  const user = await ctx.services.users.resolveVisible(ctx.path.username, ctx.actor);
  // Unlike Gitea (which checks only the target user's view), the caller must see the organization too:
  // otherwise anyone could confirm a private organization and its members' roles.
  await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const org = await ctx.services.orgs.resolveOrgFor(ctx.path.org, user);
  return { status: 200, body: toApiOrgPermissions(await ctx.services.orgs.permissionsOf(user, org, ctx.doer)) };
};

export const adminGetAllOrgs: Handler<'adminGetAllOrgs'> = async (ctx) => {
  const { orgs, total } = await ctx.services.orgs.adminListAll(ctx.paging());
  return { status: 200, body: orgs.map((o) => toApiOrg(o, ctx.doer, ctx.services.config)), total, link: true };
};

export const adminCreateOrg: Handler<'adminCreateOrg'> = async (ctx) => {
  const owner = await ctx.services.users.resolveAny(ctx.path.username);
  const org = await ctx.services.orgs.create(owner, orgInput(ctx.body), true);
  return { status: 201, body: toApiOrg(org, ctx.doer, ctx.services.config) };
};
