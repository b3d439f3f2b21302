import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import type { User } from '../domain/user.js';
import { modeName, type Label, type OrgPermissions, type Team } from '../domain/org.js';
import { avatarUrl } from './user.js';

/** Organization JSON (Gitea's convert.ToOrganization); anonymous viewers get an empty e-mail. */
export function toApiOrg(org: User, viewer: User | null, config: Config): Complete<Schemas['Organization']> {
  return {
    id: org.id,
    name: org.name,
    username: org.name,
    full_name: org.fullName,
    email: viewer ? org.email : '',
    avatar_url: avatarUrl(org, config),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: org.visibility,
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
  };
}

/**
 * Team JSON. `org` is given where Gitea fills `organization` (get, create, the caller's teams); lists
 * of an organization's teams leave it out (Gitea sends null there).
 */
export function toApiTeam(team: Team, org: User | null, viewer: User | null, config: Config): Schemas['Team'] {
  const units = Object.keys(team.units).filter((u) => (team.units[u] ?? 0) > 0).sort();
  const out: Schemas['Team'] = {
    id: team.id,
    name: team.name,
    description: team.description,
    includes_all_repositories: team.includesAllRepositories,
    permission: modeName(team.mode),
    units,
    units_map: Object.fromEntries(units.map((u) => [u, modeName(team.units[u] ?? 0)])),
    can_create_org_repo: team.canCreateOrgRepo,
  };
  if (org) out.organization = toApiOrg(org, viewer, config);
  return out;
}

export function toApiLabel(label: Label, org: User, config: Config): Complete<Schemas['Label']> {
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.archivedUnix > 0,
    color: label.color.replace(/^#/, ''),
    description: label.description,
    url: `${config.server.rootUrl}api/v1/orgs/${encodeURIComponent(org.name)}/labels/${label.id}`,
  };
}

export function toApiOrgPermissions(p: OrgPermissions): Complete<Schemas['OrganizationPermissions']> {
  return {
    is_owner: p.isOwner,
    is_admin: p.isAdmin,
    can_write: p.canWrite,
    can_read: p.canRead,
    can_create_repository: p.canCreateRepository,
  };
}
