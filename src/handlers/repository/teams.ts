import type { Handler } from '../kit.js';
import { toApiTeam } from '../../convert/org.js';

export const repoListTeams: Handler<'repoListTeams'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const teams = await ctx.services.orgs.repoTeams(access);
  return { status: 200, body: teams.map((t) => toApiTeam(t, null, ctx.doer, ctx.services.config)) };
};

export const repoCheckTeam: Handler<'repoCheckTeam'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const team = await ctx.services.orgs.repoTeam(access, ctx.path.team);
  return { status: 200, body: toApiTeam(team, null, ctx.doer, ctx.services.config) };
};

export const repoAddTeam: Handler<'repoAddTeam'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.orgs.changeRepoTeam(access, ctx.path.team, true);
  return { status: 204, body: undefined };
};

export const repoDeleteTeam: Handler<'repoDeleteTeam'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.orgs.changeRepoTeam(access, ctx.path.team, false);
  return { status: 204, body: undefined };
};
