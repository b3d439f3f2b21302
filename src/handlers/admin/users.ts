import { type Handler, requireDoer } from '../kit.js';
import { toApiUser } from '../../convert/user.js';
import { toApiPublicKey } from '../../convert/keys.js';

export const adminCreateUser: Handler<'adminCreateUser'> = async (ctx) => {
  const b = ctx.body;
  const user = await ctx.services.users.createUser({
    username: b.username,
    email: b.email,
    password: b.password,
    fullName: b.full_name,
    loginName: b.login_name,
    sourceId: b.source_id,
    mustChangePassword: b.must_change_password,
    restricted: b.restricted,
    visibility: b.visibility,
    createdAt: b.created_at,
  });
  return { status: 201, body: toApiUser(user, ctx.doer, ctx.services.config) };
};

export const adminEditUser: Handler<'adminEditUser'> = async (ctx) => {
  const b = ctx.body;
  const target = await ctx.services.users.resolveAny(ctx.path.username);
  const user = await ctx.services.users.editUser(target, {
    loginName: b.login_name,
    sourceId: b.source_id ?? 0,
    email: b.email,
    fullName: b.full_name,
    password: b.password,
    mustChangePassword: b.must_change_password,
    website: b.website,
    location: b.location,
    description: b.description,
    active: b.active,
    admin: b.admin,
    allowGitHook: b.allow_git_hook,
    allowImportLocal: b.allow_import_local,
    maxRepoCreation: b.max_repo_creation,
    prohibitLogin: b.prohibit_login,
    allowCreateOrganization: b.allow_create_organization,
    restricted: b.restricted,
    visibility: b.visibility,
  });
  return { status: 200, body: toApiUser(user, ctx.doer, ctx.services.config) };
};

export const adminDeleteUser: Handler<'adminDeleteUser'> = async (ctx) => {
  const target = await ctx.services.users.resolveAny(ctx.path.username);
  const purge = ctx.query.purge ?? false;
  await ctx.services.users.assertDeletable(target, requireDoer(ctx), purge);
  if (purge) {
    // Gitea's order: the user's repositories, then organizations left without an owner, then the account.
    await ctx.services.repos.removeAllOwnedBy(target);
    await ctx.services.orgs.purgeMember(target);
  }
  await ctx.services.users.deleteUser(target, requireDoer(ctx), purge);
  return { status: 204, body: undefined };
};

export const adminSearchUsers: Handler<'adminSearchUsers'> = async (ctx) => {
  const { users, total } = await ctx.services.users.adminList({ sourceId: ctx.query.source_id, loginName: ctx.query.login_name }, ctx.paging());
  return { status: 200, body: users.map((u) => toApiUser(u, ctx.doer, ctx.services.config)), total, link: true };
};

export const adminRenameUser: Handler<'adminRenameUser'> = async (ctx) => {
  const target = await ctx.services.users.resolveAny(ctx.path.username);
  await ctx.services.users.renameUser(target, ctx.body.new_username);
  return { status: 204, body: undefined };
};

export const adminCreatePublicKey: Handler<'adminCreatePublicKey'> = async (ctx) => {
  const owner = await ctx.services.users.resolveAny(ctx.path.username);
  const key = await ctx.services.keys.add(owner, ctx.body.title, ctx.body.key, ctx.body.read_only ?? false);
  return { status: 201, body: toApiPublicKey(key, owner, ctx.doer, ctx.services.config) };
};

export const adminDeleteUserPublicKey: Handler<'adminDeleteUserPublicKey'> = async (ctx) => {
  const owner = await ctx.services.users.resolveAny(ctx.path.username);
  await ctx.services.keys.remove(owner, ctx.path.id);
  return { status: 204, body: undefined };
};
