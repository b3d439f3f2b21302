import { type Handler, type Schemas, requireDoer } from '../kit.js';
import { toApiTeam } from '../../convert/org.js';
import { toApiRepo } from '../../convert/repo.js';
import { toApiUser } from '../../convert/user.js';
import type { TeamInput } from '../../services/orgs.js';

function teamInput(b: Schemas['CreateTeamOption'] | Schemas['EditTeamOption']): TeamInput {
  return {
    name: b.name,
    description: b.description,
    permission: b.permission,
    units: b.units,
    unitsMap: b.units_map,
    includesAllRepositories: b.includes_all_repositories,
    canCreateOrgRepo: b.can_create_org_repo,
  };
}

export const orgListTeams: Handler<'orgListTeams'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const { teams, total } = await ctx.services.orgs.listTeams(org, requireDoer(ctx), ctx.paging());
  return { status: 200, body: teams.map((t) => toApiTeam(t, null, ctx.doer, ctx.services.config)), total, link: true };
};

export const orgCreateTeam: Handler<'orgCreateTeam'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const team = await ctx.services.orgs.createTeam(org, requireDoer(ctx), teamInput(ctx.body));
  return { status: 201, body: toApiTeam(team, org, ctx.doer, ctx.services.config) };
};

/** Gitea wraps the result: {"ok": true, "data": [...]}. */
export const teamSearch: Handler<'teamSearch'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const { teams, total } = await ctx.services.orgs.searchTeams(org, requireDoer(ctx), { keyword: ctx.query.q, includeDesc: ctx.query.include_desc }, ctx.paging());
  return { status: 200, body: { ok: true, data: teams.map((t) => toApiTeam(t, null, ctx.doer, ctx.services.config)) }, total, link: true };
};

export const orgGetTeam: Handler<'orgGetTeam'> = async (ctx) => {
  const { team, org } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor);
  return { status: 200, body: toApiTeam(team, org, ctx.doer, ctx.services.config) };
};

export const orgEditTeam: Handler<'orgEditTeam'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor, true);
  const edited = await ctx.services.orgs.editTeam(team, teamInput(ctx.body));
  return { status: 200, body: toApiTeam(edited, null, ctx.doer, ctx.services.config) };
};

export const orgDeleteTeam: Handler<'orgDeleteTeam'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor, true);
  await ctx.services.orgs.deleteTeam(team);
  return { status: 204, body: undefined };
};

export const orgListTeamMembers: Handler<'orgListTeamMembers'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor);
  const { users, total } = await ctx.services.orgs.listTeamMembers(team, ctx.paging());
  return { status: 200, body: users.map((u) => toApiUser(u, ctx.doer, ctx.services.config)), total, link: true };
};

export const orgListTeamMember: Handler<'orgListTeamMember'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor);
  const user = await ctx.services.orgs.teamMember(team, ctx.path.username);
  return { status: 200, body: toApiUser(user, ctx.doer, ctx.services.config) };
};

export const orgAddTeamMember: Handler<'orgAddTeamMember'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor, true);
  await ctx.services.orgs.addTeamMember(team, ctx.path.username);
  return { status: 204, body: undefined };
};

export const orgRemoveTeamMember: Handler<'orgRemoveTeamMember'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor, true);
  await ctx.services.orgs.removeTeamMember(team, ctx.path.username);
  return { status: 204, body: undefined };
};

export const orgListTeamRepos: Handler<'orgListTeamRepos'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor);
  const { repos, total } = await ctx.services.orgs.listTeamRepos(team, ctx.actor, ctx.paging());
  return { status: 200, body: repos.map((r) => toApiRepo(r, ctx.doer, ctx.services.config)), total, link: true };
};

export const orgListTeamRepo: Handler<'orgListTeamRepo'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor);
  const access = await ctx.services.orgs.getTeamRepo(team, ctx.path.org, ctx.path.repo, ctx.actor);
  return { status: 200, body: toApiRepo(access, ctx.doer, ctx.services.config) };
};

export const orgAddTeamRepository: Handler<'orgAddTeamRepository'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor);
  await ctx.services.orgs.setTeamRepo(team, ctx.path.org, ctx.path.repo, ctx.actor, true);
  return { status: 204, body: undefined };
};

export const orgRemoveTeamRepository: Handler<'orgRemoveTeamRepository'> = async (ctx) => {
  const { team } = await ctx.services.orgs.resolveTeam(ctx.path.id, ctx.actor);
  await ctx.services.orgs.setTeamRepo(team, ctx.path.org, ctx.path.repo, ctx.actor, false);
  return { status: 204, body: undefined };
};

export const userListTeams: Handler<'userListTeams'> = async (ctx) => {
  const me = requireDoer(ctx);
  const { teams, total } = await ctx.services.orgs.listUserTeams(me, ctx.paging(), !!ctx.actor.scopes?.publicOnly);
  return { status: 200, body: teams.map(({ team, org }) => toApiTeam(team, org, me, ctx.services.config)), total, link: true };
};
