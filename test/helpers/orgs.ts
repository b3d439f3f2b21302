import { expect } from '@jest/globals';
import { uniqueName, type TestServer, type TestUser } from './server.js';

export interface ApiOrg {
  id: number;
  name: string;
  username: string;
  full_name: string;
  email: string;
  description: string;
  website: string;
  location: string;
  visibility: string;
  repo_admin_change_team_access: boolean;
  avatar_url: string;
}

export interface ApiTeam {
  id: number;
  name: string;
  description: string;
  permission: string;
  units: string[];
  units_map: Record<string, string>;
  includes_all_repositories: boolean;
  can_create_org_repo: boolean;
  organization?: ApiOrg;
}

/** Creates an organization through the API, owned by `owner`. */
export async function createOrg(s: TestServer, owner: TestUser, body: Record<string, unknown> = {}): Promise<ApiOrg> {
  const r = await s.client.post<ApiOrg>('/orgs', { username: uniqueName('org'), ...body }, { token: owner.token });
  expect(r.status).toBe(201);
  return r.body;
}

/** Creates a team through the API (default: write on code, issues and pulls). */
export async function createTeam(s: TestServer, owner: TestUser, org: string, body: Record<string, unknown> = {}): Promise<ApiTeam> {
  const r = await s.client.post<ApiTeam>(`/orgs/${org}/teams`, { name: uniqueName('team'), permission: 'write', units: ['repo.code', 'repo.issues', 'repo.pulls'], ...body }, { token: owner.token });
  expect(r.status).toBe(201);
  return r.body;
}

export async function addTeamMember(s: TestServer, owner: TestUser, teamId: number, user: TestUser): Promise<void> {
  expect((await s.client.put(`/teams/${teamId}/members/${user.name}`, undefined, { token: owner.token })).status).toBe(204);
}

export async function ownersTeam(s: TestServer, owner: TestUser, org: string): Promise<ApiTeam> {
  const r = await s.client.get<ApiTeam[]>(`/orgs/${org}/teams`, { token: owner.token });
  expect(r.status).toBe(200);
  const t = r.body.find((x) => x.name === 'Owners');
  expect(t).toBeDefined();
  return t!;
}
