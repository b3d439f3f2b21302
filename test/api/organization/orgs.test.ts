// orgCreate, orgGet, orgEdit, orgDelete, orgGetAll, adminCreateOrg, adminGetAllOrgs, orgListCurrentUserOrgs,
// orgListUserOrgs, orgGetUserPermissions, createOrgRepo, createOrgRepoDeprecated and the organization labels
// (BEHAVIOUR.md 5.1, 5.2, 6.1).
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { addTeamMember, createOrg, createTeam, ownersTeam, type ApiOrg, type ApiTeam } from '../../helpers/orgs.js';

describeDb('organizations', () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  const as = (u: TestUser) => ({ token: u.token });

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    alice = await s.createUser();
    bob = await s.createUser();
    stranger = await s.createUser();
  });
  afterAll(async () => s?.close());

  describe('orgCreate', () => {
    it('answers 201 with the complete Organization and makes the creator the only owner', async () => {
      const name = uniqueName('org');
      const r = await s.client.post<ApiOrg>(
        '/orgs',
        { username: name, full_name: 'The Org', description: 'desc', website: 'https://example.com', location: 'here', visibility: 'limited', repo_admin_change_team_access: true },
        as(alice),
      );
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.any(Number),
        name,
        username: name,
        full_name: 'The Org',
        email: '',
        avatar_url: expect.stringContaining(`${s.url}/avatars/`),
        description: 'desc',
        website: 'https://example.com',
        location: 'here',
        visibility: 'limited',
        repo_admin_change_team_access: true,
      });
      const owners = await ownersTeam(s, alice, name);
      expect(owners).toMatchObject({ name: 'Owners', permission: 'owner', includes_all_repositories: true, can_create_org_repo: true });
      expect(owners.units).toContain('repo.code');
      expect(owners.units_map['repo.ext_issues']).toBe('read');
      const members = await s.client.get<{ login: string }[]>(`/teams/${owners.id}/members`, as(alice));
      expect(members.body.map((u) => u.login)).toEqual([alice.name]);
      const perms = await s.client.get(`/users/${alice.name}/orgs/${name}/permissions`, as(alice));
      expect(perms.body).toEqual({ is_owner: true, is_admin: true, can_write: true, can_read: true, can_create_repository: true });
    });

    it('defaults visibility to public', async () => {
      const org = await createOrg(s, alice);
      expect(org.visibility).toBe('public');
    });

    it('refuses taken, invalid and reserved names and bad fields with 422, leaving nothing behind', async () => {
      const taken = await s.client.post('/orgs', { username: bob.name }, as(alice));
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual(err(`user already exists [name: ${bob.name}]`));
      const bad = await s.client.post('/orgs', { username: 'bad name' }, as(alice));
      expect(bad.status).toBe(422);
      expect(bad.body.message).toContain('name is invalid');
      const reserved = await s.client.post('/orgs', { username: 'api' }, as(alice));
      expect(reserved.status).toBe(422);
      expect(reserved.body).toEqual(err('name is reserved [name: api]'));
      const web = await s.client.post('/orgs', { username: uniqueName('o'), website: 'ftp://x' }, as(alice));
      expect(web.status).toBe(422);
      expect(web.body).toEqual(err('[Website]: ValidUrl'));
      const vis = await s.client.post('/orgs', { username: uniqueName('o'), visibility: 'secret' }, as(alice));
      expect(vis.status).toBe(422);
      const missing = await s.client.post('/orgs', {}, as(alice));
      expect(missing.status).toBe(422);
      const name = uniqueName('o');
      await s.client.post('/orgs', { username: name, location: 'x'.repeat(51) }, as(alice));
      expect((await s.client.get(`/orgs/${name}`, as(alice))).status).toBe(404);
    });

    it('needs a signed-in caller allowed to create organizations', async () => {
      expect((await s.client.post('/orgs', { username: uniqueName('o') })).status).toBe(401);
      const limited = await s.createUser();
      const u = await s.app.services.users.resolveAny(limited.name);
      await s.app.services.users.editUser(u, { loginName: limited.name, sourceId: 0, allowCreateOrganization: false });
      const r = await s.client.post('/orgs', { username: uniqueName('o') }, as(limited));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('%!s(<nil>)'));
    });

    it('scopes: /user/orgs needs read:user and read:organization; /user/teams read:user', async () => {
      const orgOnly = await s.createToken(alice.name, ['read:organization']);
      const r = await s.client.get('/user/orgs', { token: orgOnly });
      expect(r.status).toBe(403);
      expect(r.body.message).toContain('read:user');
      const userOnly = await s.createToken(alice.name, ['read:user']);
      expect((await s.client.get('/user/teams', { token: userOnly })).status).toBe(200);
      expect((await s.client.get('/user/orgs', { token: userOnly })).status).toBe(403);
      const both = await s.createToken(alice.name, ['read:user', 'read:organization']);
      expect((await s.client.get('/user/orgs', { token: both })).status).toBe(200);
      const org = await createOrg(s, alice);
      expect((await s.client.get(`/orgs/${org.name}/teams`, { token: userOnly })).status).toBe(403);
      expect((await s.client.get(`/orgs/${org.name}/teams`, { token: orgOnly })).status).toBe(200);
      expect((await s.client.patch(`/orgs/${org.name}`, { full_name: 'x' }, { token: orgOnly })).status).toBe(403);
    });

    it('needs write:organization on tokens', async () => {
      const tok = await s.createToken(alice.name, ['write:user']);
      const r = await s.client.post('/orgs', { username: uniqueName('o') }, { token: tok });
      expect(r.status).toBe(403);
      expect(r.body.message).toContain('write:organization');
    });
  });

  describe('orgGet, orgEdit, orgDelete', () => {
    it('orgGet hides the e-mail from anonymous callers', async () => {
      const org = await createOrg(s, alice, { email: 'org@example.com' });
      expect((await s.client.get<ApiOrg>(`/orgs/${org.name}`, as(stranger))).body.email).toBe('org@example.com');
      expect((await s.client.get<ApiOrg>(`/orgs/${org.name}`)).body.email).toBe('');
      expect((await s.client.get(`/orgs/${uniqueName('none')}`)).status).toBe(404);
      // A user is not an organization.
      expect((await s.client.get(`/orgs/${bob.name}`, as(bob))).status).toBe(404);
    });

    it('orgEdit: owners change the fields sent; members get 403', async () => {
      const org = await createOrg(s, alice, { full_name: 'Before', description: 'keep' });
      const team = await createTeam(s, alice, org.name);
      await addTeamMember(s, alice, team.id, bob);
      const denied = await s.client.patch(`/orgs/${org.name}`, { full_name: 'x' }, as(bob));
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(err('Must be an organization owner'));
      const r = await s.client.patch<ApiOrg>(`/orgs/${org.name}`, { full_name: 'After', visibility: 'private', repo_admin_change_team_access: true }, as(alice));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ full_name: 'After', description: 'keep', visibility: 'private', repo_admin_change_team_access: true });
      const back = await s.client.patch<ApiOrg>(`/orgs/${org.name}`, { visibility: 'public' }, as(alice));
      expect(back.body.visibility).toBe('public');
      const bad = await s.client.patch(`/orgs/${org.name}`, { website: 'nope' }, as(alice));
      expect(bad.status).toBe(422);
      expect((await s.client.patch(`/orgs/${org.name}`, { full_name: 'x' }, as(s.admin))).status).toBe(200);
    });

    it('orgDelete: refused while the organization owns repositories, then 204', async () => {
      const org = await createOrg(s, alice);
      expect((await s.client.post(`/orgs/${org.name}/repos`, { name: 'r' }, as(alice))).status).toBe(201);
      const refused = await s.client.delete(`/orgs/${org.name}`, as(alice));
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(err(`user still has ownership of repositories [uid: ${org.id}]`));
      expect((await s.client.delete(`/repos/${org.name}/r`, as(alice))).status).toBe(204);
      const team = await createTeam(s, alice, org.name);
      await addTeamMember(s, alice, team.id, bob);
      expect((await s.client.delete(`/orgs/${org.name}`, as(bob))).status).toBe(403);
      expect((await s.client.delete(`/orgs/${org.name}`, as(alice))).status).toBe(204);
      expect((await s.client.get(`/orgs/${org.name}`, as(alice))).status).toBe(404);
      expect((await s.client.get(`/teams/${team.id}`, as(alice))).status).toBe(404);
      expect((await s.client.get<unknown[]>('/user/orgs', as(bob))).body).not.toContainEqual(expect.objectContaining({ id: org.id }));
    });
  });

  describe('admin operations', () => {
    it('adminCreateOrg makes the named user the owner; adminGetAllOrgs lists every organization', async () => {
      const name = uniqueName('adm');
      const r = await s.client.post<ApiOrg>(`/admin/users/${bob.name}/orgs`, { username: name, visibility: 'private' }, as(s.admin));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name, visibility: 'private' });
      const perms = await s.client.get(`/users/${bob.name}/orgs/${name}/permissions`, as(bob));
      expect(perms.body).toMatchObject({ is_owner: true });
      expect((await s.client.post(`/admin/users/${bob.name}/orgs`, { username: uniqueName('x') }, as(alice))).status).toBe(403);
      expect((await s.client.post(`/admin/users/${uniqueName('ghost')}/orgs`, { username: uniqueName('x') }, as(s.admin))).status).toBe(404);
      const all = await s.client.get<ApiOrg[]>('/admin/orgs?limit=50', as(s.admin));
      expect(all.status).toBe(200);
      expect(all.body.map((o) => o.name)).toContain(name);
      expect(Number(all.headers.get('x-total-count'))).toBeGreaterThanOrEqual(all.body.length);
      const denied = await s.client.get('/admin/orgs', as(alice));
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(err('user should be the site admin'));
    });
  });

  describe('deleting a member user', () => {
    it('is refused while the user belongs to organizations, unless purged', async () => {
      const u = await s.createUser();
      const org = await createOrg(s, alice);
      const team = await createTeam(s, alice, org.name);
      await addTeamMember(s, alice, team.id, u);
      const refused = await s.client.delete(`/admin/users/${u.name}`, as(s.admin));
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(err(`user still has membership of organizations [uid: ${u.id}]`));
      expect((await s.client.delete(`/admin/users/${u.name}?purge=true`, as(s.admin))).status).toBe(204);
      const members = await s.client.get<{ login: string }[]>(`/orgs/${org.name}/members`, as(alice));
      expect(members.body.map((m) => m.login)).toEqual([alice.name]);
    });

    it('purge deletes the organizations the user was the last owner of, with their repositories, and no other', async () => {
      const u = await s.createUser();
      const sole = await createOrg(s, u);
      expect((await s.client.post(`/orgs/${sole.name}/repos`, { name: 'code', auto_init: true }, as(u))).status).toBe(201);
      const repoDir = (await s.client.get<{ id: number }>(`/repos/${sole.name}/code`, as(u))).body.id;
      const shared = await createOrg(s, u);
      await addTeamMember(s, u, (await ownersTeam(s, u, shared.name)).id, alice);
      const member = await createOrg(s, alice);
      await addTeamMember(s, alice, (await createTeam(s, alice, member.name)).id, u);
      expect((await s.client.delete(`/admin/users/${u.name}?purge=true`, as(s.admin))).status).toBe(204);
      expect((await s.client.get(`/orgs/${sole.name}`, as(s.admin))).status).toBe(404);
      expect((await s.client.get(`/repos/${sole.name}/code`, as(s.admin))).status).toBe(404);
      expect(existsSync(join(s.app.config.repository.root, `${repoDir}.git`))).toBe(false);
      for (const kept of [shared, member]) {
        expect((await s.client.get(`/orgs/${kept.name}`, as(s.admin))).status).toBe(200);
        const members = await s.client.get<{ login: string }[]>(`/orgs/${kept.name}/members`, as(alice));
        expect(members.body.map((m) => m.login)).toEqual([alice.name]);
      }
    });

    it('refuses before removing anything', async () => {
      const repo = uniqueName('kept');
      expect((await s.client.post('/user/repos', { name: repo }, as(s.admin))).status).toBe(201);
      const r = await s.client.delete(`/admin/users/${s.admin.name}?purge=true`, as(s.admin));
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('you cannot delete yourself'));
      expect((await s.client.get(`/repos/${s.admin.name}/${repo}`, as(s.admin))).status).toBe(200);
    });
  });

  describe('orgListCurrentUserOrgs, orgListUserOrgs, orgGetUserPermissions', () => {
    it('lists memberships by name with paging headers; permissions follow the best team', async () => {
      const u = await s.createUser();
      const a = await createOrg(s, alice, { username: `a${uniqueName('o')}` });
      const b = await createOrg(s, alice, { username: `b${uniqueName('o')}` });
      const ta = await createTeam(s, alice, a.name, { permission: 'read', units: ['repo.code'] });
      const tb = await createTeam(s, alice, b.name, { permission: 'write', units: ['repo.code'], can_create_org_repo: true });
      await addTeamMember(s, alice, ta.id, u);
      await addTeamMember(s, alice, tb.id, u);
      const mine = await s.client.get<ApiOrg[]>('/user/orgs?limit=1', as(u));
      expect(mine.status).toBe(200);
      expect(mine.body.map((o) => o.name)).toEqual([a.name]);
      expect(mine.headers.get('x-total-count')).toBe('2');
      expect(mine.headers.get('link')).toContain('rel="next"');
      // Others see public memberships only.
      expect((await s.client.get<ApiOrg[]>(`/users/${u.name}/orgs`, as(stranger))).body).toEqual([]);
      expect((await s.client.put(`/orgs/${b.name}/public_members/${u.name}`, undefined, as(u))).status).toBe(204);
      const theirs = await s.client.get<ApiOrg[]>(`/users/${u.name}/orgs`, as(stranger));
      expect(theirs.body.map((o) => o.name)).toEqual([b.name]);
      expect((await s.client.get<ApiOrg[]>(`/users/${u.name}/orgs`, as(s.admin))).body.map((o) => o.name)).toEqual([a.name, b.name]);
      // Unlike Gitea, a concealed membership (in a) reads as none to outsiders; the public one (in b) shows.
      expect((await s.client.get(`/users/${u.name}/orgs/${a.name}/permissions`, as(stranger))).body).toEqual({
        is_owner: false,
        is_admin: false,
        can_write: false,
        can_read: false,
        can_create_repository: false,
      });
      expect((await s.client.get(`/users/${u.name}/orgs/${a.name}/permissions`, as(u))).body).toMatchObject({ can_read: true, can_write: false });
      expect((await s.client.get(`/users/${u.name}/orgs/${b.name}/permissions`, as(stranger))).body).toMatchObject({ can_write: true, can_create_repository: true });
      expect((await s.client.get(`/users/${u.name}/orgs/${b.name}/permissions`, as(u))).body).toEqual({
        is_owner: false,
        is_admin: false,
        can_write: true,
        can_read: true,
        can_create_repository: true,
      });
      expect((await s.client.get(`/users/${stranger.name}/orgs/${a.name}/permissions`, as(u))).body).toEqual({
        is_owner: false,
        is_admin: false,
        can_write: false,
        can_read: false,
        can_create_repository: false,
      });
      expect((await s.client.get('/user/orgs')).status).toBe(401);
      expect((await s.client.get(`/users/${u.name}/orgs/${uniqueName('no')}/permissions`, as(u))).status).toBe(404);
    });

    it('orgGetUserPermissions: a private organization the queried user cannot see is 404', async () => {
      const priv = await createOrg(s, alice, { visibility: 'private' });
      expect((await s.client.get(`/users/${stranger.name}/orgs/${priv.name}/permissions`, as(s.admin))).status).toBe(404);
      expect((await s.client.get(`/users/${alice.name}/orgs/${priv.name}/permissions`, as(alice))).body).toMatchObject({ is_owner: true });
    });
  });

  describe('createOrgRepo and createOrgRepoDeprecated', () => {
    let org: ApiOrg;
    let creators: ApiTeam;
    let readers: ApiTeam;
    let creator: TestUser;
    let reader: TestUser;
    beforeAll(async () => {
      org = await createOrg(s, alice);
      creators = await createTeam(s, alice, org.name, { permission: 'read', units: ['repo.code'], can_create_org_repo: true });
      readers = await createTeam(s, alice, org.name, { permission: 'read', units: ['repo.code'], includes_all_repositories: true });
      creator = await s.createUser();
      reader = await s.createUser();
      await addTeamMember(s, alice, creators.id, creator);
      await addTeamMember(s, alice, readers.id, reader);
    });

    it('owners create with 201 and owner permissions; includes-all teams see the repository', async () => {
      const r = await s.client.post(`/orgs/${org.name}/repos`, { name: 'owned', private: true, auto_init: true }, as(alice));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ full_name: `${org.name}/owned`, private: true, owner: { login: org.name }, permissions: { admin: true, push: true, pull: true } });
      const seen = await s.client.get(`/repos/${org.name}/owned`, as(reader));
      expect(seen.status).toBe(200);
      expect(seen.body.permissions).toEqual({ admin: false, push: false, pull: true });
      expect((await s.client.get(`/repos/${org.name}/owned`, as(stranger))).status).toBe(404);
    });

    it('a member of a team with can_create_org_repo creates and becomes an admin collaborator', async () => {
      const r = await s.client.post(`/orgs/${org.name}/repos`, { name: 'byteam', private: true }, as(creator));
      expect(r.status).toBe(201);
      const again = await s.client.get(`/repos/${org.name}/byteam`, as(creator));
      expect(again.body.permissions).toEqual({ admin: true, push: true, pull: true });
      const collab = await s.client.get(`/repos/${org.name}/byteam/collaborators/${creator.name}/permission`, as(alice));
      expect(collab.body.permission).toBe('admin');
    });

    it('others get 403 with Gitea text; invisible organizations 404; the old path answers 422 for unknown ones', async () => {
      const r = await s.client.post(`/orgs/${org.name}/repos`, { name: 'nope' }, as(reader));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('Given user is not allowed to create repository in organization.'));
      expect((await s.client.post(`/orgs/${org.name}/repos`, { name: 'nope' }, as(stranger))).status).toBe(403);
      const priv = await createOrg(s, alice, { visibility: 'private' });
      expect((await s.client.post(`/orgs/${priv.name}/repos`, { name: 'nope' }, as(stranger))).status).toBe(404);
      expect((await s.client.post(`/org/${priv.name}/repos`, { name: 'nope' }, as(stranger))).status).toBe(404);
      expect((await s.client.post(`/orgs/${uniqueName('ghost')}/repos`, { name: 'nope' }, as(alice))).status).toBe(404);
      const ghost = uniqueName('ghost');
      const old = await s.client.post(`/org/${ghost}/repos`, { name: 'nope' }, as(alice));
      expect(old.status).toBe(422);
      expect(old.body).toEqual(err(`org does not exist [id: 0, name: ${ghost}]`));
      expect((await s.client.get(`/repos/${org.name}/nope`, as(alice))).status).toBe(404);
    });

    it('409 for a taken name, 422 for an invalid one; the old path creates too', async () => {
      const dup = await s.client.post(`/orgs/${org.name}/repos`, { name: 'OWNED' }, as(alice));
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual(err('The repository with the same name already exists.'));
      const bad = await s.client.post(`/orgs/${org.name}/repos`, { name: 'a.git' }, as(alice));
      expect(bad.status).toBe(422);
      const empty = await s.client.post(`/orgs/${org.name}/repos`, {}, as(alice));
      expect(empty.status).toBe(422);
      const old = await s.client.post(`/org/${org.name}/repos`, { name: 'viaold' }, as(creator));
      expect(old.status).toBe(201);
      expect(old.body.full_name).toBe(`${org.name}/viaold`);
    });

    it('site admins create anywhere; admin-created repositories need no collaborator', async () => {
      const r = await s.client.post(`/orgs/${org.name}/repos`, { name: 'byadmin' }, as(s.admin));
      expect(r.status).toBe(201);
      const collabs = await s.client.get<unknown[]>(`/repos/${org.name}/byadmin/collaborators`, as(alice));
      expect(collabs.body).toEqual([]);
      const viaAdminApi = await s.client.post(`/admin/users/${org.name}/repos`, { name: 'adminapi' }, as(s.admin));
      expect(viaAdminApi.status).toBe(201);
      expect((await s.client.get(`/repos/${org.name}/adminapi`, as(reader))).body.permissions).toEqual({ admin: false, push: false, pull: true });
    });
  });

  describe('organization labels', () => {
    it('create, list, get, edit, delete with Gitea colour rules', async () => {
      const org = await createOrg(s, alice);
      const c = await s.client.post(`/orgs/${org.name}/labels`, { name: 'bug', color: '#F00', description: 'broken', exclusive: true }, as(alice));
      expect(c.status).toBe(201);
      expect(c.body).toEqual({
        id: expect.any(Number),
        name: 'bug',
        color: 'ff0000',
        description: 'broken',
        exclusive: true,
        is_archived: false,
        url: `${s.url}/api/v1/orgs/${org.name}/labels/${c.body.id}`,
      });
      const c2 = await s.client.post(`/orgs/${org.name}/labels`, { name: 'area/ui', color: '00aabb' }, as(alice));
      expect(c2.body.color).toBe('00aabb');
      const bad = await s.client.post(`/orgs/${org.name}/labels`, { name: 'x', color: 'red' }, as(alice));
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(err('bad color code: #red'));
      const bad2 = await s.client.post(`/orgs/${org.name}/labels`, { name: 'x', color: '#12345' }, as(alice));
      // Gitea prefixes any six-character value with '#', even one that has it already.
      expect(bad2.body).toEqual(err('bad color code: ##12345'));
      const noName = await s.client.post(`/orgs/${org.name}/labels`, { color: '#fff' }, as(alice));
      expect(noName.status).toBe(422);
      expect((await s.client.post(`/orgs/${org.name}/labels`, { name: 'x', color: '#fff' }, as(bob))).status).toBe(403);
      const list = await s.client.get<{ name: string }[]>(`/orgs/${org.name}/labels`);
      expect(list.status).toBe(200);
      expect(list.body.map((l) => l.name)).toEqual(['area/ui', 'bug']);
      expect(list.headers.get('x-total-count')).toBe('2');
      expect((await s.client.get(`/orgs/${org.name}/labels/${c.body.id}`, as(bob))).body.name).toBe('bug');
      const e = await s.client.patch(`/orgs/${org.name}/labels/${c.body.id}`, { name: 'defect', is_archived: true, color: '#123456' }, as(alice));
      expect(e.status).toBe(200);
      expect(e.body).toMatchObject({ name: 'defect', is_archived: true, color: '123456', description: 'broken', exclusive: true });
      const other = await createOrg(s, alice);
      expect((await s.client.get(`/orgs/${other.name}/labels/${c.body.id}`, as(alice))).status).toBe(404);
      expect((await s.client.delete(`/orgs/${org.name}/labels/${c.body.id}`, as(alice))).status).toBe(204);
      expect((await s.client.get(`/orgs/${org.name}/labels/${c.body.id}`, as(alice))).status).toBe(404);
      expect((await s.client.delete(`/orgs/${org.name}/labels/${c.body.id}`, as(alice))).status).toBe(404);
    });
  });
});
