// Teams and membership: orgListTeams, orgCreateTeam, teamSearch, orgGetTeam, orgEditTeam, orgDeleteTeam,
// orgListTeamMembers, orgListTeamMember, orgAddTeamMember, orgRemoveTeamMember, orgListTeamRepos, orgListTeamRepo,
// orgAddTeamRepository, orgRemoveTeamRepository, userListTeams, orgListMembers, orgIsMember, orgDeleteMember,
// orgIsPublicMember, orgPublicizeMember, orgConcealMember, repoListTeams, repoCheckTeam, repoAddTeam, repoDeleteTeam;
// team access to repositories (BEHAVIOUR.md 5.3-5.5, 6.3).
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { addTeamMember, createOrg, createTeam, ownersTeam, type ApiOrg, type ApiTeam } from '../../helpers/orgs.js';
import { createGitCli } from '../../helpers/gitcli.js';

describeDb('teams and membership', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let writer: TestUser;
  let stranger: TestUser;
  let org: ApiOrg;
  let readTeam: ApiTeam;
  let writeTeam: ApiTeam;
  let err: (message: string) => { message: string; url: string };
  const as = (u: TestUser) => ({ token: u.token });
  const b64 = (t: string) => Buffer.from(t).toString('base64');

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    reader = await s.createUser();
    writer = await s.createUser();
    stranger = await s.createUser();
    org = await createOrg(s, owner);
    readTeam = await createTeam(s, owner, org.name, { name: 'readers', permission: 'read', units: ['repo.code', 'repo.issues'] });
    writeTeam = await createTeam(s, owner, org.name, { name: 'writers', description: 'they write', units_map: { 'repo.code': 'write', 'repo.pulls': 'read' } });
    await addTeamMember(s, owner, readTeam.id, reader);
    await addTeamMember(s, owner, writeTeam.id, writer);
    expect((await s.client.post(`/orgs/${org.name}/repos`, { name: 'code', private: true, auto_init: true }, as(owner))).status).toBe(201);
    for (const t of [readTeam, writeTeam]) expect((await s.client.put(`/teams/${t.id}/repos/${org.name}/code`, undefined, as(owner))).status).toBe(204);
  });
  afterAll(async () => s?.close());

  describe('orgCreateTeam', () => {
    it('answers 201 with the organization and Gitea unit rules', async () => {
      expect(readTeam).toEqual({
        id: expect.any(Number),
        name: 'readers',
        description: '',
        permission: 'read',
        units: ['repo.code', 'repo.issues'],
        units_map: { 'repo.code': 'read', 'repo.issues': 'read' },
        includes_all_repositories: false,
        can_create_org_repo: false,
        organization: expect.objectContaining({ id: org.id, name: org.name }),
      });
      // units_map wins; the team mode becomes the lowest non-none mode of the map.
      expect(writeTeam).toMatchObject({ permission: 'read', units_map: { 'repo.code': 'write', 'repo.pulls': 'read' } });
      const admin = await createTeam(s, owner, org.name, { permission: 'admin', units: undefined });
      expect(admin.permission).toBe('admin');
      expect(admin.units_map['repo.code']).toBe('admin');
      expect(admin.units_map['repo.ext_wiki']).toBe('read');
      // Unknown units are ignored.
      const odd = await createTeam(s, owner, org.name, { permission: 'write', units: ['repo.code', 'repo.nope'] });
      expect(odd.units).toEqual(['repo.code']);
    });

    it('refuses duplicates, bad names, missing units and non-owners', async () => {
      const dup = await s.client.post(`/orgs/${org.name}/teams`, { name: 'READERS', permission: 'read', units: ['repo.code'] }, as(owner));
      expect(dup.status).toBe(422);
      expect(dup.body).toEqual(err(`team already exists [org_id: ${org.id}, name: READERS]`));
      const bad = await s.client.post(`/orgs/${org.name}/teams`, { name: 'no spaces', permission: 'read', units: ['repo.code'] }, as(owner));
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(err('[Name]: AlphaDashDot'));
      const noUnits = await s.client.post(`/orgs/${org.name}/teams`, { name: uniqueName('t'), permission: 'read' }, as(owner));
      expect(noUnits.status).toBe(422);
      expect(noUnits.body).toEqual(err('units permission should not be empty'));
      const member = await s.client.post(`/orgs/${org.name}/teams`, { name: uniqueName('t'), permission: 'read', units: ['repo.code'] }, as(reader));
      expect(member.status).toBe(403);
      expect(member.body).toEqual(err('Must be an organization owner'));
      expect((await s.client.post(`/orgs/${org.name}/teams`, { name: uniqueName('t'), permission: 'read', units: ['repo.code'] }, as(stranger))).status).toBe(403);
    });
  });

  describe('team access to repositories', () => {
    it('the permissions object follows the team modes', async () => {
      const r = await s.client.get(`/repos/${org.name}/code`, as(reader));
      expect(r.status).toBe(200);
      expect(r.body.permissions).toEqual({ admin: false, push: false, pull: true });
      const w = await s.client.get(`/repos/${org.name}/code`, as(writer));
      expect(w.body.permissions).toEqual({ admin: false, push: true, pull: true });
      const o = await s.client.get(`/repos/${org.name}/code`, as(owner));
      expect(o.body.permissions).toEqual({ admin: true, push: true, pull: true });
      expect((await s.client.get(`/repos/${org.name}/code`, as(stranger))).status).toBe(404);
      const listed = await s.client.get<{ full_name: string; permissions: unknown }[]>('/user/repos', as(writer));
      expect(listed.body.map((x) => [x.full_name, x.permissions])).toEqual([[`${org.name}/code`, { admin: false, push: true, pull: true }]]);
    });

    it('a read team cannot write through the API; a write team can', async () => {
      const denied = await s.client.post(`/repos/${org.name}/code/contents/r.txt`, { content: b64('r') }, as(reader));
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(err('user should have a permission to write to this branch'));
      const ok = await s.client.post(`/repos/${org.name}/code/contents/w.txt`, { content: b64('w') }, as(writer));
      expect(ok.status).toBe(201);
      const edit = await s.client.patch(`/repos/${org.name}/code`, { description: 'x' }, as(writer));
      expect(edit.status).toBe(403);
    });

    it('an admin team makes its members repository owners; removing the repository takes access away', async () => {
      const u = await s.createUser();
      const admins = await createTeam(s, owner, org.name, { permission: 'admin' });
      await addTeamMember(s, owner, admins.id, u);
      expect((await s.client.get(`/repos/${org.name}/code`, as(u))).status).toBe(404);
      expect((await s.client.put(`/teams/${admins.id}/repos/${org.name}/code`, undefined, as(owner))).status).toBe(204);
      expect((await s.client.get(`/repos/${org.name}/code`, as(u))).body.permissions).toEqual({ admin: true, push: true, pull: true });
      expect((await s.client.get(`/teams/${admins.id}/repos/${org.name}/code`, as(u))).status).toBe(200);
      expect((await s.client.delete(`/teams/${admins.id}/repos/${org.name}/code`, as(owner))).status).toBe(204);
      expect((await s.client.get(`/repos/${org.name}/code`, as(u))).status).toBe(404);
      expect((await s.client.get(`/teams/${admins.id}/repos/${org.name}/code`, as(u))).status).toBe(404);
    });

    it('orgAddTeamRepository needs admin access to the repository', async () => {
      const r = await s.client.put(`/teams/${writeTeam.id}/repos/${org.name}/code`, undefined, as(writer));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('Must have admin-level access to the repository'));
      expect((await s.client.put(`/teams/${writeTeam.id}/repos/${org.name}/missing`, undefined, as(owner))).status).toBe(404);
    });

    it('branch protection push allow lists take team names and let their members push', async () => {
      const branch = (await s.client.get(`/repos/${org.name}/code`, as(owner))).body.default_branch as string;
      const noRepo = await createTeam(s, owner, org.name, { permission: 'write', units: ['repo.code'] });
      const other = await createTeam(s, owner, org.name, { permission: 'write', units: ['repo.code'] });
      const u = await s.createUser();
      await addTeamMember(s, owner, other.id, u);
      expect((await s.client.put(`/teams/${other.id}/repos/${org.name}/code`, undefined, as(owner))).status).toBe(204);
      const unknown = await s.client.post(`/repos/${org.name}/code/branch_protections`, { rule_name: branch, enable_push: true, enable_push_whitelist: true, push_whitelist_teams: ['ghosts'] }, as(owner));
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(err(`team does not exist [org_id ${org.id}, team_id 0, name: ghosts]`));
      const r = await s.client.post(
        `/repos/${org.name}/code/branch_protections`,
        { rule_name: branch, enable_push: true, enable_push_whitelist: true, push_whitelist_teams: ['writers', noRepo.name] },
        as(owner),
      );
      expect(r.status).toBe(201);
      // A team without access to the repository is dropped silently (Gitea's updateTeamWhitelist).
      expect(r.body.push_whitelist_teams).toEqual(['writers']);
      const mine = await s.client.get(`/repos/${org.name}/code/branches/${branch}`, as(writer));
      expect(mine.body).toMatchObject({ protected: true, user_can_push: true });
      const theirs = await s.client.get(`/repos/${org.name}/code/branches/${branch}`, as(u));
      expect(theirs.body).toMatchObject({ protected: true, user_can_push: false });
      expect((await s.client.get(`/repos/${org.name}/code/branch_protections/${branch}`, as(owner))).body.push_whitelist_teams).toEqual(['writers']);
      expect((await s.client.delete(`/repos/${org.name}/code/branch_protections/${branch}`, as(owner))).status).toBe(204);
    });

    it('orgListTeamRepos lists the team repositories; includes-all teams list every repository', async () => {
      const r = await s.client.get<{ full_name: string }[]>(`/teams/${readTeam.id}/repos`, as(reader));
      expect(r.status).toBe(200);
      expect(r.body.map((x) => x.full_name)).toEqual([`${org.name}/code`]);
      expect(r.headers.get('x-total-count')).toBe('1');
      const owners = await ownersTeam(s, owner, org.name);
      const all = await s.client.get<{ full_name: string }[]>(`/teams/${owners.id}/repos`, as(owner));
      expect(all.body.map((x) => x.full_name)).toEqual([`${org.name}/code`]);
    });
  });

  describe('git over HTTP', () => {
    it('read teams clone but cannot push; write teams push', async () => {
      const git = await createGitCli();
      try {
        const remote = (u: TestUser) => {
          const url = new URL(`${s.url}/${org.name}/code.git`);
          url.username = u.name;
          url.password = u.token;
          return url.toString();
        };
        const dir = await git.dir('clone');
        await git.ok(['clone', remote(reader), dir]);
        await git.commit(dir, { 'from-git.txt': 'x' }, 'from git');
        const denied = await git.run(['push', remote(reader), 'HEAD:refs/heads/by-reader'], { cwd: dir });
        expect(denied.code).not.toBe(0);
        const pushed = await git.run(['push', remote(writer), 'HEAD:refs/heads/by-writer'], { cwd: dir });
        expect(pushed.code).toBe(0);
        expect((await s.client.get(`/repos/${org.name}/code/branches/by-writer`, as(reader))).status).toBe(200);
        expect((await s.client.get(`/repos/${org.name}/code/branches/by-reader`, as(reader))).status).toBe(404);
        const outsider = await git.run(['ls-remote', remote(stranger)]);
        expect(outsider.code).not.toBe(0);
      } finally {
        await git.close();
      }
    });
  });

  describe('team guards and reads', () => {
    it('orgGetTeam: team members, owners and admins; other members 403; outsiders 404', async () => {
      const r = await s.client.get<ApiTeam>(`/teams/${readTeam.id}`, as(reader));
      expect(r.status).toBe(200);
      expect(r.body.organization?.name).toBe(org.name);
      expect((await s.client.get(`/teams/${readTeam.id}`, as(owner))).status).toBe(200);
      expect((await s.client.get(`/teams/${readTeam.id}`, as(s.admin))).status).toBe(200);
      const other = await s.client.get(`/teams/${readTeam.id}`, as(writer));
      expect(other.status).toBe(403);
      expect(other.body).toEqual(err('Must be a team member'));
      expect((await s.client.get(`/teams/${readTeam.id}`, as(stranger))).status).toBe(404);
      expect((await s.client.get(`/teams/${readTeam.id}`)).status).toBe(401);
      expect((await s.client.get('/teams/999999', as(s.admin))).status).toBe(404);
    });

    it('orgListTeamMembers and orgListTeamMember', async () => {
      const r = await s.client.get<{ login: string }[]>(`/teams/${readTeam.id}/members`, as(reader));
      expect(r.body.map((u) => u.login)).toEqual([reader.name]);
      expect(r.headers.get('x-total-count')).toBe('1');
      const one = await s.client.get(`/teams/${readTeam.id}/members/${reader.name}`, as(owner));
      expect(one.status).toBe(200);
      expect(one.body.login).toBe(reader.name);
      expect((await s.client.get(`/teams/${readTeam.id}/members/${writer.name}`, as(owner))).status).toBe(404);
    });

    it('userListTeams lists the caller teams with their organization', async () => {
      const r = await s.client.get<ApiTeam[]>('/user/teams', as(writer));
      expect(r.status).toBe(200);
      expect(r.body.map((t) => [t.name, t.organization?.name])).toEqual([['writers', org.name]]);
      expect((await s.client.get<ApiTeam[]>('/user/teams', as(stranger))).body).toEqual([]);
    });

    it('teamSearch matches names and, with include_desc, descriptions', async () => {
      const byName = await s.client.get<{ ok: boolean; data: ApiTeam[] }>(`/orgs/${org.name}/teams/search?q=writ`, as(owner));
      expect(byName.body.data.map((t) => t.name)).toEqual(['writers']);
      const byDesc = await s.client.get<{ ok: boolean; data: ApiTeam[] }>(`/orgs/${org.name}/teams/search?q=they&include_desc=true`, as(owner));
      expect(byDesc.body.data.map((t) => t.name)).toEqual(['writers']);
      const none = await s.client.get<{ ok: boolean; data: ApiTeam[] }>(`/orgs/${org.name}/teams/search?q=they`, as(owner));
      expect(none.body).toEqual({ ok: true, data: [] });
    });
  });

  describe('orgEditTeam and orgDeleteTeam', () => {
    it('owners edit; team members who are not owners get 404 on owner-only team routes', async () => {
      const t = await createTeam(s, owner, org.name, { permission: 'read', units: ['repo.code'] });
      const u = await s.createUser();
      await addTeamMember(s, owner, t.id, u);
      expect((await s.client.patch(`/teams/${t.id}`, { name: t.name, description: 'x' }, as(u))).status).toBe(404);
      const r = await s.client.patch<ApiTeam>(`/teams/${t.id}`, { name: `${t.name}2`, description: 'new', permission: 'write', units: ['repo.code'], includes_all_repositories: true, can_create_org_repo: true }, as(owner));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: `${t.name}2`, description: 'new', permission: 'write', includes_all_repositories: true, can_create_org_repo: true, units_map: { 'repo.code': 'write' } });
      expect((await s.client.get(`/repos/${org.name}/code`, as(u))).body.permissions).toEqual({ admin: false, push: true, pull: true });
      expect((await s.client.delete(`/teams/${t.id}`, as(u))).status).toBe(404);
      expect((await s.client.delete(`/teams/${t.id}`, as(owner))).status).toBe(204);
      expect((await s.client.get(`/teams/${t.id}`, as(owner))).status).toBe(404);
      // Left in no team, the user left the organization.
      expect((await s.client.get(`/orgs/${org.name}/members/${u.name}`, as(owner))).status).toBe(404);
      expect((await s.client.get(`/repos/${org.name}/code`, as(u))).status).toBe(404);
    });

    it('the Owners team keeps its permission and cannot be deleted', async () => {
      const owners = await ownersTeam(s, owner, org.name);
      const r = await s.client.patch<ApiTeam>(`/teams/${owners.id}`, { name: 'Owners', permission: 'read', can_create_org_repo: false, description: 'the owners' }, as(owner));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ permission: 'owner', can_create_org_repo: true, includes_all_repositories: true, description: 'the owners' });
      const del = await s.client.delete(`/teams/${owners.id}`, as(owner));
      expect(del.status).toBe(422);
      expect(del.body).toEqual(err('cannot delete the Owners team'));
      const rename = await s.client.patch(`/teams/${owners.id}`, { name: 'Bosses' }, as(owner));
      expect(rename.status).toBe(422);
    });
  });

  describe('repoListTeams, repoCheckTeam, repoAddTeam, repoDeleteTeam', () => {
    it('list and check the teams of a repository; 405 for a user repository', async () => {
      const r = await s.client.get<ApiTeam[]>(`/repos/${org.name}/code/teams`, as(reader));
      expect(r.status).toBe(200);
      expect(r.body.map((t) => t.name)).toEqual(expect.arrayContaining(['Owners', 'readers', 'writers']));
      expect(r.body[0]!.name).toBe('Owners');
      for (const t of r.body) expect(t).not.toHaveProperty('organization');
      const one = await s.client.get<ApiTeam>(`/repos/${org.name}/code/teams/readers`, as(reader));
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: readTeam.id, name: 'readers' });
      const lonely = await createTeam(s, owner, org.name, { permission: 'read', units: ['repo.code'] });
      expect((await s.client.get(`/repos/${org.name}/code/teams/${lonely.name}`, as(owner))).status).toBe(404);
      expect((await s.client.get(`/repos/${org.name}/code/teams/ghosts`, as(owner))).status).toBe(404);
      expect((await s.client.get(`/repos/${org.name}/code/teams`, as(stranger))).status).toBe(404);
      const mine = await s.client.post('/user/repos', { name: uniqueName('solo') }, as(owner));
      const notOrg = await s.client.get(`/repos/${mine.body.full_name}/teams`, as(owner));
      expect(notOrg.status).toBe(405);
      expect(notOrg.body).toEqual(err('repo is not owned by an organization'));
    });

    it('owners add and remove teams; repository admins only with repo_admin_change_team_access', async () => {
      const t = await createTeam(s, owner, org.name, { permission: 'read', units: ['repo.code'] });
      const admin = await s.createUser();
      const adminTeam = await createTeam(s, owner, org.name, { permission: 'write', units: ['repo.code'] });
      await addTeamMember(s, owner, adminTeam.id, admin);
      expect((await s.client.put(`/repos/${org.name}/code/collaborators/${admin.name}`, { permission: 'admin' }, as(owner))).status).toBe(204);
      const denied = await s.client.put(`/repos/${org.name}/code/teams/${t.name}`, undefined, as(admin));
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(err('user is nor repo admin nor owner'));
      const notAdmin = await s.client.put(`/repos/${org.name}/code/teams/${t.name}`, undefined, as(writer));
      expect(notAdmin.status).toBe(403);
      expect(notAdmin.body).toEqual(err('user should be an owner or a collaborator with admin write of a repository'));
      expect((await s.client.patch(`/orgs/${org.name}`, { repo_admin_change_team_access: true }, as(owner))).status).toBe(200);
      expect((await s.client.put(`/repos/${org.name}/code/teams/${t.name}`, undefined, as(admin))).status).toBe(204);
      const again = await s.client.put(`/repos/${org.name}/code/teams/${t.name}`, undefined, as(owner));
      expect(again.status).toBe(422);
      expect(again.body).toEqual(err(`team '${t.name}' is already added to repo`));
      expect((await s.client.get(`/repos/${org.name}/code/teams/${t.name}`, as(owner))).status).toBe(200);
      expect((await s.client.delete(`/repos/${org.name}/code/teams/${t.name}`, as(owner))).status).toBe(204);
      const gone = await s.client.delete(`/repos/${org.name}/code/teams/${t.name}`, as(owner));
      expect(gone.status).toBe(422);
      expect(gone.body).toEqual(err(`team '${t.name}' was not added to repo`));
      expect((await s.client.put(`/repos/${org.name}/code/teams/ghosts`, undefined, as(owner))).status).toBe(404);
      expect((await s.client.patch(`/orgs/${org.name}`, { repo_admin_change_team_access: false }, as(owner))).status).toBe(200);
    });
  });

  describe('members', () => {
    it('orgIsMember: 204 / 404 for members and admins; outsiders are sent to the public check', async () => {
      expect((await s.client.get(`/orgs/${org.name}/members/${reader.name}`, as(writer))).status).toBe(204);
      const no = await s.client.get(`/orgs/${org.name}/members/${stranger.name}`, as(writer));
      expect(no.status).toBe(404);
      // The contract: the "no" of this check has an empty body.
      expect(no.text).toBe('');
      expect(no.headers.get('content-length')).toBe('0');
      expect((await s.client.get(`/orgs/${org.name}/members/${reader.name}`, as(s.admin))).status).toBe(204);
      const redirected = await s.client.get(`/orgs/${org.name}/members/${reader.name}`, as(stranger));
      expect(redirected.status).toBe(303);
      expect(redirected.headers.get('location')).toBe(`/api/v1/orgs/${org.name}/public_members/${reader.name}`);
      const self = await s.client.get(`/orgs/${org.name}/members/${stranger.name}`, as(stranger));
      expect([self.status, self.text]).toEqual([404, '']);
      expect((await s.client.get(`/orgs/${org.name}/members/${reader.name}`)).status).toBe(401);
      const noOrg = await s.client.get(`/orgs/${org.name}-missing/members/${reader.name}`, as(writer));
      expect([noOrg.status, noOrg.text]).toEqual([404, '']);
    });

    it('publicize and conceal: the member themself, an owner or an admin; others 403', async () => {
      expect((await s.client.get(`/orgs/${org.name}/public_members/${reader.name}`)).status).toBe(404);
      const other = await s.client.put(`/orgs/${org.name}/public_members/${reader.name}`, undefined, as(writer));
      expect(other.status).toBe(403);
      expect(other.body).toEqual(err('Cannot publicize another member'));
      const outsider = await s.client.put(`/orgs/${org.name}/public_members/${reader.name}`, undefined, as(stranger));
      expect(outsider.status).toBe(403);
      expect(outsider.body).toEqual(err('Must be an organization member'));
      expect((await s.client.put(`/orgs/${org.name}/public_members/${reader.name}`, undefined, as(reader))).status).toBe(204);
      expect((await s.client.get(`/orgs/${org.name}/public_members/${reader.name}`)).status).toBe(204);
      const pub = await s.client.get<{ login: string }[]>(`/orgs/${org.name}/public_members`);
      expect(pub.body.map((u) => u.login)).toEqual([reader.name]);
      const concealOther = await s.client.delete(`/orgs/${org.name}/public_members/${reader.name}`, as(writer));
      expect(concealOther.status).toBe(403);
      expect(concealOther.body).toEqual(err('Cannot conceal another member'));
      expect((await s.client.delete(`/orgs/${org.name}/public_members/${reader.name}`, as(owner))).status).toBe(204);
      expect((await s.client.get(`/orgs/${org.name}/public_members/${reader.name}`)).status).toBe(404);
      expect((await s.client.put(`/orgs/${org.name}/public_members/${writer.name}`, undefined, as(s.admin))).status).toBe(204);
      expect((await s.client.delete(`/orgs/${org.name}/public_members/${writer.name}`, as(writer))).status).toBe(204);
      expect((await s.client.put(`/orgs/${org.name}/public_members/${stranger.name}`, undefined, as(owner))).status).toBe(404);
    });

    it('orgDeleteMember removes the user from every team; the last owner stays', async () => {
      const u = await s.createUser();
      await addTeamMember(s, owner, readTeam.id, u);
      await addTeamMember(s, owner, writeTeam.id, u);
      const denied = await s.client.delete(`/orgs/${org.name}/members/${u.name}`, as(reader));
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(err('Must be an organization owner'));
      expect((await s.client.delete(`/orgs/${org.name}/members/${u.name}`, as(owner))).status).toBe(204);
      expect((await s.client.get(`/orgs/${org.name}/members/${u.name}`, as(owner))).status).toBe(404);
      expect((await s.client.get(`/teams/${writeTeam.id}/members/${u.name}`, as(owner))).status).toBe(404);
      expect((await s.client.delete(`/orgs/${org.name}/members/${u.name}`, as(owner))).status).toBe(404);
      const last = await s.client.delete(`/orgs/${org.name}/members/${owner.name}`, as(owner));
      expect(last.status).toBe(422);
      expect(last.body).toEqual(err(`user is the last member of owner team [uid: ${owner.id}]`));
      const owners = await ownersTeam(s, owner, org.name);
      const leave = await s.client.delete(`/teams/${owners.id}/members/${owner.name}`, as(owner));
      expect(leave.status).toBe(422);
      // With a second owner, the first may go.
      const second = await s.createUser();
      await addTeamMember(s, owner, owners.id, second);
      expect((await s.client.get(`/users/${second.name}/orgs/${org.name}/permissions`, as(second))).body.is_owner).toBe(true);
      expect((await s.client.delete(`/teams/${owners.id}/members/${second.name}`, as(owner))).status).toBe(204);
      expect((await s.client.get(`/orgs/${org.name}/members/${second.name}`, as(owner))).status).toBe(404);
    });

    it('a private user is visible to the members of their organizations (Gitea IsUserVisibleToViewer)', async () => {
      const hidden = await s.createUser({ visibility: 'private' });
      expect((await s.client.get(`/users/${hidden.name}`, as(reader))).status).toBe(404);
      await addTeamMember(s, owner, writeTeam.id, hidden);
      expect((await s.client.get(`/users/${hidden.name}`, as(reader))).status).toBe(200);
      expect((await s.client.get(`/users/${hidden.name}`, as(stranger))).status).toBe(404);
      expect((await s.client.delete(`/teams/${writeTeam.id}/members/${hidden.name}`, as(owner))).status).toBe(204);
      expect((await s.client.get(`/users/${hidden.name}`, as(reader))).status).toBe(404);
    });

    it('orgAddTeamMember: owners only; unknown users 404', async () => {
      expect((await s.client.put(`/teams/${readTeam.id}/members/${stranger.name}`, undefined, as(reader))).status).toBe(404);
      expect((await s.client.put(`/teams/${readTeam.id}/members/${uniqueName('ghost')}`, undefined, as(owner))).status).toBe(404);
      expect((await s.client.put(`/teams/${readTeam.id}/members/${org.name}`, undefined, as(owner))).status).toBe(404);
    });
  });

  describe('forks, transfers and templates into organizations', () => {
    it('createFork with organization: members allowed to create repositories; others 403; unknown 422', async () => {
      const src = await s.client.post('/user/repos', { name: uniqueName('src'), auto_init: true }, as(stranger));
      const path = `/repos/${src.body.full_name}/forks`;
      const f = await s.client.post(path, { organization: org.name }, as(owner));
      expect(f.status).toBe(202);
      expect(f.body).toMatchObject({ full_name: `${org.name}/${src.body.name}`, fork: true });
      const notMember = await s.client.post(path, { organization: org.name, name: 'x1' }, as(stranger));
      expect(notMember.status).toBe(403);
      expect(notMember.body).toEqual(err(`User is no Member of Organisation '${org.name}'`));
      await s.client.post('/user/repos', { name: 'pub' }, as(owner));
      const src2 = await s.client.post('/user/repos', { name: uniqueName('src'), auto_init: true }, as(owner));
      const noRight = await s.client.post(`/repos/${src2.body.full_name}/forks`, { organization: org.name }, as(reader));
      expect(noRight.status).toBe(403);
      const ghost = uniqueName('ghost');
      const unknown = await s.client.post(path, { organization: ghost }, as(owner));
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(err(`org does not exist [id: 0, name: ${ghost}]`));
    });

    it('repoTransfer to an organization with team_ids: at once for those who may create repositories there', async () => {
      const repo = await s.client.post('/user/repos', { name: uniqueName('mv'), private: true }, as(owner));
      const badTeam = await s.client.post(`/repos/${repo.body.full_name}/transfer`, { new_owner: org.name, team_ids: [999999] }, as(owner));
      expect(badTeam.status).toBe(422);
      expect(badTeam.body).toEqual(err('team 999999 not found'));
      const otherOrg = await createOrg(s, owner);
      const foreign = await ownersTeam(s, owner, otherOrg.name);
      const wrongOrg = await s.client.post(`/repos/${repo.body.full_name}/transfer`, { new_owner: org.name, team_ids: [foreign.id] }, as(owner));
      expect(wrongOrg.status).toBe(403);
      const moved = await s.client.post(`/repos/${repo.body.full_name}/transfer`, { new_owner: org.name, team_ids: [readTeam.id] }, as(owner));
      expect(moved.status).toBe(202);
      expect(moved.body.full_name).toBe(`${org.name}/${repo.body.name}`);
      expect((await s.client.get(`/repos/${org.name}/${repo.body.name}`, as(reader))).body.permissions).toEqual({ admin: false, push: false, pull: true });
      expect((await s.client.get(`/repos/${org.name}/${repo.body.name}`, as(writer))).status).toBe(404);
      const mine = await s.client.post('/user/repos', { name: uniqueName('mv') }, as(stranger));
      const toUser = await s.client.post(`/repos/${mine.body.full_name}/transfer`, { new_owner: reader.name, team_ids: [] }, as(stranger));
      expect(toUser.status).toBe(422);
      expect(toUser.body).toEqual(err('Teams can only be added to organization-owned repositories'));
      const priv = await createOrg(s, owner, { visibility: 'private' });
      const hidden = await s.client.post(`/repos/${mine.body.full_name}/transfer`, { new_owner: priv.name }, as(stranger));
      expect(hidden.status).toBe(404);
    });

    it('a pending transfer to an organization lists its teams and is accepted by an owner', async () => {
      const repo = await s.client.post('/user/repos', { name: uniqueName('pend') }, as(stranger));
      const r = await s.client.post(`/repos/${repo.body.full_name}/transfer`, { new_owner: org.name, team_ids: [writeTeam.id] }, as(stranger));
      expect(r.status).toBe(201);
      expect(r.body.repo_transfer.teams.map((t: ApiTeam) => t.name)).toEqual(['writers']);
      expect((await s.client.post(`/repos/${repo.body.full_name}/transfer/accept`, undefined, as(reader))).status).toBe(403);
      const ok = await s.client.post(`/repos/${repo.body.full_name}/transfer/accept`, undefined, as(owner));
      expect(ok.status).toBe(202);
      expect((await s.client.get(`/repos/${org.name}/${repo.body.name}`, as(writer))).body.permissions).toEqual({ admin: false, push: true, pull: true });
    });

    it('generateRepo into an organization needs the right to create repositories there', async () => {
      const tpl = await s.client.post('/user/repos', { name: uniqueName('tpl'), auto_init: true, template: true }, as(writer));
      const denied = await s.client.post(`/repos/${tpl.body.full_name}/generate`, { owner: org.name, name: 'gen', git_content: true }, as(writer));
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(err('Given user is not allowed to create repository in organization.'));
      const tpl2 = await s.client.post('/user/repos', { name: uniqueName('tpl'), auto_init: true, template: true }, as(owner));
      const ok = await s.client.post(`/repos/${tpl2.body.full_name}/generate`, { owner: org.name, name: 'gen', git_content: true }, as(owner));
      expect(ok.status).toBe(201);
      expect(ok.body.full_name).toBe(`${org.name}/gen`);
    });
  });
});
