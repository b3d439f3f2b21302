import { requireDoer, type Handler } from '../kit.js';
import { toApiRepo } from '../../convert/repo.js';
import { AppError } from '../../domain/errors.js';

export const repoMigrate: Handler<'repoMigrate'> = async (ctx) => {
  const b = ctx.body;
  if (!b) throw new AppError('validation', '[CloneAddr]: Required; [RepoName]: Required');
  const access = await ctx.services.migrations.migrate(requireDoer(ctx), {
    cloneAddr: b.clone_addr,
    repoName: b.repo_name,
    repoOwner: b.repo_owner,
    uid: b.uid,
    service: b.service,
    authUsername: b.auth_username,
    authPassword: b.auth_password,
    authToken: b.auth_token,
    mirror: b.mirror,
    mirrorInterval: b.mirror_interval,
    private: b.private,
    description: b.description,
  });
  // Gitea renders the new repository with owner permissions for the caller.
  return { status: 201, body: toApiRepo(access, ctx.doer, ctx.services.config) };
};

export const repoMirrorSync: Handler<'repoMirrorSync'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.migrations.requestSync(access);
  return { status: 200, body: undefined };
};
