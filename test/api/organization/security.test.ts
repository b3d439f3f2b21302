// Security review of organizations, teams and access (BEHAVIOUR.md 5, 6.3; SECURITY.md): what an attacker
// inside or outside an organization must not reach or change.
import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer, type TestUser } from '../../helpers/server.js';
import { addTeamMember, createOrg, createTeam, ownersTeam, type ApiOrg, type ApiTeam } from '../../helpers/orgs.js';

interface Perms {
  admin: boolean;
  push: boolean;
  pull: boolean;
}

describeDb('organization security', () => {
  let s: TestServer;
  let owner: TestUser;
  let teamAdmin: TestUser;
  let stranger: TestUser;
  let org: ApiOrg;
  let adminTeam: ApiTeam;
  let err: (message: string) => { message: string; url: string };
  const as = (u: TestUser) => ({ token: u.token });

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    teamAdmin = await s.createUser();
    stranger = await s.createUser();
    org = await createOrg(s, owner);
    adminTeam = await createTeam(s, owner, org.name, { name: 'admins', permission: 'admin' });
    await addTeamMember(s, owner, adminTeam.id, teamAdmin);
    expect((await s.client.post(`/orgs/${org.name}/repos`, { name: 'secret', private: true }, as(owner))).status).toBe(201);
  });
  afterAll(async () => s?.close());

  it('a member of an admin team cannot make themself owner or change the organization', async () => {
    const owners = await ownersTeam(s, owner, org.name);
    expect(await s.client.put(`/teams/${owners.id}/members/${teamAdmin.name}`, undefined, as(teamAdmin))).toMatchObject({ status: 403, body: err('Must be a team member') });
    const edit = await s.client.patch(`/teams/${adminTeam.id}`, { name: 'admins', permission: 'admin', includes_all_repositories: true }, as(teamAdmin));
    expect(edit).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
    const create = await s.client.post(`/orgs/${org.name}/teams`, { name: 'mine', permission: 'admin' }, as(teamAdmin));
    expect(create).toMatchObject({ status: 403, body: err('Must be an organization owner') });
    expect((await s.client.patch(`/orgs/${org.name}`, { visibility: 'public' }, as(teamAdmin))).status).toBe(403);
    expect((await s.client.delete(`/orgs/${org.name}`, as(teamAdmin))).status).toBe(403);
    expect((await s.client.delete(`/teams/${owners.id}`, as(teamAdmin))).status).toBe(403);
    // Even the owner cannot give a team owner mode.
    const owned = await s.client.post(`/orgs/${org.name}/teams`, { name: 'owner2', permission: 'owner' }, as(owner));
    expect(owned).toMatchObject({ status: 422 });
  });

  it('a team member cannot link a repository of another organization to their team', async () => {
    const other = await createOrg(s, teamAdmin);
    expect((await s.client.post(`/orgs/${other.name}/repos`, { name: 'foreign', private: true }, as(teamAdmin))).status).toBe(201);
    const r = await s.client.put(`/teams/${adminTeam.id}/repos/${other.name}/foreign`, undefined, as(teamAdmin));
    expect(r).toMatchObject({ status: 404 });
    const teams = await s.client.get<ApiTeam[]>(`/repos/${other.name}/foreign/teams`, as(teamAdmin));
    expect(teams.body.map((t) => t.name)).toEqual(['Owners']);
  });

  it('non-members reach no team by id', async () => {
    for (const [method, path] of [
      ['get', `/teams/${adminTeam.id}`],
      ['get', `/teams/${adminTeam.id}/members`],
      ['get', `/teams/${adminTeam.id}/repos`],
      ['put', `/teams/${adminTeam.id}/members/${stranger.name}`],
      ['patch', `/teams/${adminTeam.id}`],
      ['delete', `/teams/${adminTeam.id}`],
    ] as const) {
      const r = method === 'patch' ? await s.client.patch(path, { name: 'admins', description: 'x' }, as(stranger)) : method === 'put' ? await s.client.put(path, undefined, as(stranger)) : await s.client[method](path, as(stranger));
      expect([method, path, r.status]).toEqual([method, path, 404]);
    }
  });

  it('a private organization is not revealed through the permissions of one of its members', async () => {
    const priv = await createOrg(s, owner, { visibility: 'private' });
    const r = await s.client.get(`/users/${owner.name}/orgs/${priv.name}/permissions`, as(stranger));
    expect(r).toMatchObject({ status: 404, body: err('The target couldn\'t be found.') });
    // The member themself, and the site admin, still see it.
    expect((await s.client.get(`/users/${owner.name}/orgs/${priv.name}/permissions`, as(owner))).status).toBe(200);
    expect((await s.client.get(`/users/${owner.name}/orgs/${priv.name}/permissions`, as(s.admin))).status).toBe(200);
  });

  it('a public-only token lists no repository of a limited organization', async () => {
    const limited = await createOrg(s, owner, { visibility: 'limited' });
    expect((await s.client.post(`/orgs/${limited.name}/repos`, { name: 'lim-pub' }, as(owner))).status).toBe(201);
    const token = await s.createToken(stranger.name, ['public-only', 'read:repository', 'read:user', 'read:organization'], 'pubonly');
    const search = await s.client.get<{ data: { full_name: string }[] }>(`/repos/search?q=lim-pub`, { token });
    expect(search.status).toBe(200);
    expect(search.body.data.map((r) => r.full_name)).toEqual([]);
    // The same user with a full token sees it.
    const full = await s.client.get<{ data: { full_name: string }[] }>(`/repos/search?q=lim-pub`, as(stranger));
    expect(full.body.data.map((r) => r.full_name)).toEqual([`${limited.name}/lim-pub`]);
    expect((await s.client.get(`/repos/${limited.name}/lim-pub`, { token })).status).toBe(403);
    for (const path of [`/users/${limited.name}`, `/users/${limited.name}/repos`, `/orgs/${limited.name}/repos`]) {
      const r = await s.client.get(path, { token });
      expect([path, r.status, r.body]).toEqual([path, 403, err('token scope is limited to public orgs')]);
    }
    expect((await s.client.get(`/users/${limited.name}/repos`, as(stranger))).status).toBe(200);
  });

  it('a public-only token lists no team of a non-public organization', async () => {
    const member = await s.createUser();
    const priv = await createOrg(s, owner, { visibility: 'private' });
    const team = await createTeam(s, owner, priv.name, { name: 'hidden' });
    await addTeamMember(s, owner, team.id, member);
    const token = await s.createToken(member.name, ['public-only', 'read:user', 'read:organization'], 'pubonly');
    const r = await s.client.get<ApiTeam[]>('/user/teams', { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    expect((await s.client.get<ApiTeam[]>('/user/teams', as(member))).body.map((t) => t.id)).toEqual([team.id]);
  });

  it('lowering a team from admin to read takes the repository admin rights away', async () => {
    const member = await s.createUser();
    const team = await createTeam(s, owner, org.name, { name: 'downgraded', permission: 'admin' });
    await addTeamMember(s, owner, team.id, member);
    expect((await s.client.put(`/teams/${team.id}/repos/${org.name}/secret`, undefined, as(owner))).status).toBe(204);
    const before = await s.client.get<{ permissions: Perms }>(`/repos/${org.name}/secret`, as(member));
    expect(before.body.permissions).toEqual({ admin: true, push: true, pull: true });
    const edited = await s.client.patch<ApiTeam>(`/teams/${team.id}`, { name: 'downgraded', permission: 'read' }, as(owner));
    expect(edited.status).toBe(200);
    expect(edited.body.permission).toBe('read');
    expect(edited.body.units_map['repo.code']).toBe('read');
    const after = await s.client.get<{ permissions: Perms }>(`/repos/${org.name}/secret`, as(member));
    expect(after.body.permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await s.client.patch(`/repos/${org.name}/secret`, { description: 'mine now' }, as(member))).status).toBe(403);
  });

  it('a code unit at admin in a team below admin gives write, not repository admin (as in Gitea)', async () => {
    const member = await s.createUser();
    const team = await createTeam(s, owner, org.name, { name: 'unitadmin', permission: undefined, units: undefined, units_map: { 'repo.code': 'admin', 'repo.issues': 'read' } });
    expect(team.permission).toBe('read');
    await addTeamMember(s, owner, team.id, member);
    expect((await s.client.put(`/teams/${team.id}/repos/${org.name}/secret`, undefined, as(owner))).status).toBe(204);
    const r = await s.client.get<{ permissions: Perms }>(`/repos/${org.name}/secret`, as(member));
    expect(r.body.permissions).toEqual({ admin: false, push: true, pull: true });
    expect((await s.client.delete(`/repos/${org.name}/secret`, as(member))).status).toBe(403);
  });

  it('a removed team member and a deleted team lose access at once', async () => {
    const a = await s.createUser();
    const b = await s.createUser();
    const t1 = await createTeam(s, owner, org.name, { name: 'gone1' });
    const t2 = await createTeam(s, owner, org.name, { name: 'gone2' });
    await addTeamMember(s, owner, t1.id, a);
    await addTeamMember(s, owner, t2.id, b);
    for (const t of [t1, t2]) expect((await s.client.put(`/teams/${t.id}/repos/${org.name}/secret`, undefined, as(owner))).status).toBe(204);
    expect((await s.client.get(`/repos/${org.name}/secret`, as(a))).status).toBe(200);
    expect((await s.client.get(`/repos/${org.name}/secret`, as(b))).status).toBe(200);
    expect((await s.client.delete(`/teams/${t1.id}/members/${a.name}`, as(owner))).status).toBe(204);
    expect((await s.client.delete(`/teams/${t2.id}`, as(owner))).status).toBe(204);
    for (const u of [a, b]) {
      expect((await s.client.get(`/repos/${org.name}/secret`, as(u))).status).toBe(404);
      const found = await s.client.get<{ data: unknown[] }>(`/repos/search?q=secret`, as(u));
      expect(found.body.data).toEqual([]);
      expect((await s.client.get(`/orgs/${org.name}/teams`, as(u))).status).toBe(403);
    }
  });

  it('org label ids of another organization are 404', async () => {
    const other = await createOrg(s, stranger);
    const label = await s.client.post<{ id: number }>(`/orgs/${other.name}/labels`, { name: 'x', color: 'ff0000' }, as(stranger));
    expect(label.status).toBe(201);
    expect((await s.client.get(`/orgs/${org.name}/labels/${label.body.id}`, as(owner))).status).toBe(404);
    expect((await s.client.patch(`/orgs/${org.name}/labels/${label.body.id}`, { name: 'y' }, as(owner))).status).toBe(404);
    expect((await s.client.delete(`/orgs/${org.name}/labels/${label.body.id}`, as(owner))).status).toBe(404);
    expect((await s.client.get<{ name: string }>(`/orgs/${other.name}/labels/${label.body.id}`, as(stranger))).body.name).toBe('x');
  });
  it('a private organization shows nothing of itself to outsiders, anywhere', async () => {
    const priv = await createOrg(s, owner, { visibility: 'private' });
    const repo = await s.client.post<{ id: number }>(`/orgs/${priv.name}/repos`, { name: 'pubinpriv' }, as(owner));
    expect(repo.status).toBe(201);
    expect((await s.client.post(`/orgs/${priv.name}/labels`, { name: 'l', color: '00ff00' }, as(owner))).status).toBe(201);
    expect((await s.client.put(`/orgs/${priv.name}/public_members/${owner.name}`, undefined, as(owner))).status).toBe(204);
    const notFound = { status: 404, body: err("The target couldn't be found.") };
    for (const path of [
      `/orgs/${priv.name}`,
      `/users/${priv.name}`,
      `/orgs/${priv.name}/repos`,
      `/users/${priv.name}/repos`,
      `/orgs/${priv.name}/labels`,
      `/orgs/${priv.name}/members`,
      `/orgs/${priv.name}/public_members`,
      `/orgs/${priv.name}/teams`,
      `/repos/${priv.name}/pubinpriv`,
      `/repositories/${repo.body.id}`,
    ]) {
      const r = await s.client.get(path, as(stranger));
      expect([path, r.status]).toEqual([path, 404]);
      const anon = await s.client.get(path);
      // Anonymous callers get 404, or 401 on routes that need a sign-in.
      expect([401, 404]).toContain(anon.status);
    }
    expect(await s.client.get(`/orgs/${priv.name}`, as(stranger))).toMatchObject(notFound);
    const names = (list: { username?: string; name?: string; full_name?: string }[]) => list.map((o) => o.username ?? o.full_name ?? o.name);
    expect(names((await s.client.get('/orgs?limit=50', as(stranger))).body)).not.toContain(priv.name);
    expect(names((await s.client.get(`/users/${owner.name}/orgs`, as(stranger))).body)).not.toContain(priv.name);
    const search = await s.client.get<{ data: { full_name: string }[] }>(`/repos/search?q=pubinpriv`, as(stranger));
    expect(search.body.data).toEqual([]);
    const byUid = await s.client.get<{ data: { full_name: string }[] }>(`/repos/search?uid=${priv.id}`, as(stranger));
    expect(byUid.body.data).toEqual([]);
    const byMember = await s.client.get<{ data: { full_name: string }[] }>(`/repos/search?uid=${owner.id}&q=pubinpriv`, as(stranger));
    expect(byMember.body.data).toEqual([]);
    // The owner sees all of it.
    expect((await s.client.get<{ data: { full_name: string }[] }>(`/repos/search?q=pubinpriv`, as(owner))).body.data.map((r) => r.full_name)).toEqual([`${priv.name}/pubinpriv`]);
  });

  it('a restricted user sees only the organizations, and the repositories of the teams, they belong to', async () => {
    const restricted = await s.createUser({ restricted: true });
    const pub = await createOrg(s, owner);
    expect((await s.client.post(`/orgs/${pub.name}/repos`, { name: 'open' }, as(owner))).status).toBe(201);
    expect((await s.client.get(`/orgs/${pub.name}`, as(restricted))).status).toBe(404);
    expect((await s.client.get(`/repos/${pub.name}/open`, as(restricted))).status).toBe(404);
    expect((await s.client.get<{ data: unknown[] }>(`/repos/search?q=open`, as(restricted))).body.data).toEqual([]);
    expect((await s.client.get<unknown[]>('/orgs', as(restricted))).body).toEqual([]);
    const team = await createTeam(s, owner, pub.name, { name: 'r', permission: 'read', units: ['repo.code'] });
    await addTeamMember(s, owner, team.id, restricted);
    expect((await s.client.get(`/orgs/${pub.name}`, as(restricted))).status).toBe(200);
    // Membership alone gives no repository; the team's repositories do.
    expect((await s.client.get(`/repos/${pub.name}/open`, as(restricted))).status).toBe(404);
    expect((await s.client.put(`/teams/${team.id}/repos/${pub.name}/open`, undefined, as(owner))).status).toBe(204);
    const r = await s.client.get<{ permissions: Perms }>(`/repos/${pub.name}/open`, as(restricted));
    expect(r.body.permissions).toEqual({ admin: false, push: false, pull: true });
  });

  it('a team without the code unit gives no code access', async () => {
    const member = await s.createUser();
    const team = await createTeam(s, owner, org.name, { name: 'issuesonly', permission: 'write', units: ['repo.issues'] });
    await addTeamMember(s, owner, team.id, member);
    expect((await s.client.put(`/teams/${team.id}/repos/${org.name}/secret`, undefined, as(owner))).status).toBe(204);
    expect((await s.client.get(`/repos/${org.name}/secret/contents`, as(member))).status).toBe(404);
  });
  it('repository search by uid does not reveal a concealed organization membership', async () => {
    const member = await s.createUser();
    const pub = await createOrg(s, owner);
    expect((await s.client.post(`/orgs/${pub.name}/repos`, { name: 'concealed-open' }, as(owner))).status).toBe(201);
    const team = await createTeam(s, owner, pub.name, { name: 'c' });
    await addTeamMember(s, owner, team.id, member);
    expect((await s.client.put(`/teams/${team.id}/repos/${pub.name}/concealed-open`, undefined, as(owner))).status).toBe(204);
    const found = async (u: TestUser, mode = '') =>
      (await s.client.get<{ data: { full_name: string }[] }>(`/repos/search?uid=${member.id}${mode}`, as(u))).body.data.map((r) => r.full_name);
    expect(await found(stranger)).toEqual([]);
    expect(await found(stranger, '&mode=collaborative')).toEqual([]);
    // The member themself and the site admin see it; so does everyone once the membership is public.
    expect(await found(member)).toEqual([`${pub.name}/concealed-open`]);
    expect(await found(s.admin)).toEqual([`${pub.name}/concealed-open`]);
    expect((await s.client.put(`/orgs/${pub.name}/public_members/${member.name}`, undefined, as(member))).status).toBe(204);
    expect(await found(stranger)).toEqual([`${pub.name}/concealed-open`]);
  });
  it('two owners removing each other at once leave one owner', async () => {
    for (const how of ['team', 'org'] as const) {
      const a = await s.createUser();
      const b = await s.createUser();
      const o = await createOrg(s, a);
      const owners = await ownersTeam(s, a, o.name);
      await addTeamMember(s, a, owners.id, b);
      const remove = (doer: TestUser, target: TestUser) =>
        how === 'team' ? s.client.delete(`/teams/${owners.id}/members/${target.name}`, as(doer)) : s.client.delete(`/orgs/${o.name}/members/${target.name}`, as(doer));
      const results = await Promise.all([remove(a, b), remove(b, a)]);
      // The other request is refused: as the last owner (422) or, when it comes second, because its
      // doer is no longer an owner (404 on team routes, 403 on organization routes).
      expect(results.filter((r) => r.status === 204)).toHaveLength(1);
      const refused = results.find((r) => r.status !== 204)!;
      if (refused.status === 422) expect(refused.body).toMatchObject({ message: expect.stringMatching(/^user is the last member of owner team \[uid: \d+\]$/) });
      else if (how === 'team') expect(refused).toMatchObject({ status: 404, body: err("The target couldn't be found.") });
      else expect(refused).toMatchObject({ status: 403, body: err('Must be an organization owner') });
      const members = await s.client.get<{ login: string }[]>(`/teams/${owners.id}/members`, as(s.admin));
      expect(members.body).toHaveLength(1);
    }
  });
  it('a public-only token lists only the public repositories of a team', async () => {
    const member = await s.createUser();
    const pub = await createOrg(s, owner);
    const team = await createTeam(s, owner, pub.name, { name: 'mixed' });
    await addTeamMember(s, owner, team.id, member);
    for (const [name, priv] of [['open-one', false], ['closed-one', true]] as const) {
      expect((await s.client.post(`/orgs/${pub.name}/repos`, { name, private: priv }, as(owner))).status).toBe(201);
      expect((await s.client.put(`/teams/${team.id}/repos/${pub.name}/${name}`, undefined, as(owner))).status).toBe(204);
    }
    const token = await s.createToken(member.name, ['public-only', 'read:organization', 'read:repository'], 'pubonly');
    const limitedView = await s.client.get<{ name: string }[]>(`/teams/${team.id}/repos`, { token });
    expect(limitedView.status).toBe(200);
    expect(limitedView.body.map((r) => r.name)).toEqual(['open-one']);
    expect(limitedView.headers.get('x-total-count')).toBe('1');
    expect((await s.client.get<{ name: string }[]>(`/teams/${team.id}/repos`, as(member))).body.map((r) => r.name)).toEqual(['closed-one', 'open-one']);
  });
  it('the permissions of a concealed member are those of a non-member for outsiders', async () => {
    const member = await s.createUser();
    const pub = await createOrg(s, owner);
    const team = await createTeam(s, owner, pub.name, { name: 'w' });
    await addTeamMember(s, owner, team.id, member);
    const path = `/users/${member.name}/orgs/${pub.name}/permissions`;
    const none = { is_owner: false, is_admin: false, can_write: false, can_read: false, can_create_repository: false };
    const member_ = { ...none, can_write: true, can_read: true };
    expect((await s.client.get(path, as(stranger))).body).toEqual(none);
    expect((await s.client.get(path, as(member))).body).toEqual(member_);
    expect((await s.client.get(path, as(owner))).body).toEqual(member_);
    expect((await s.client.get(path, as(s.admin))).body).toEqual(member_);
    expect((await s.client.put(`/orgs/${pub.name}/public_members/${member.name}`, undefined, as(member))).status).toBe(204);
    expect((await s.client.get(path, as(stranger))).body).toEqual(member_);
  });
  it('a read team cannot write through the API', async () => {
    const member = await s.createUser();
    expect((await s.client.post(`/orgs/${org.name}/repos`, { name: 'readonly', private: true, auto_init: true }, as(owner))).status).toBe(201);
    const team = await createTeam(s, owner, org.name, { name: 'ro', permission: 'read', units: ['repo.code', 'repo.issues', 'repo.pulls'] });
    await addTeamMember(s, owner, team.id, member);
    expect((await s.client.put(`/teams/${team.id}/repos/${org.name}/readonly`, undefined, as(owner))).status).toBe(204);
    expect((await s.client.get(`/repos/${org.name}/readonly/contents/README.md`, as(member))).status).toBe(200);
    const write = await s.client.post(`/repos/${org.name}/readonly/contents/new.txt`, { content: Buffer.from('x').toString('base64') }, as(member));
    expect(write.status).toBe(403);
    expect((await s.client.post(`/repos/${org.name}/readonly/branches`, { new_branch_name: 'mine' }, as(member))).status).toBe(403);
    expect((await s.client.put(`/teams/${team.id}/repos/${org.name}/readonly`, undefined, as(member))).status).toBe(403);
    expect((await s.client.put(`/repos/${org.name}/readonly/collaborators/${member.name}`, { permission: 'admin' }, as(member))).status).toBe(403);
  });
});
