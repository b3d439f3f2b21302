// Visibility matrix for organizations (BEHAVIOUR.md 5.1-5.4, 6.3): anonymous, stranger, member, owner and site
// admin against a public, a limited and a private organization, on every listing and lookup. Each case checks
// the complete list of returned items. This file has its own server, so these are the only organizations and
// repositories there are.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, type TestServer, type TestUser } from '../../helpers/server.js';
import { addTeamMember, createOrg, createTeam } from '../../helpers/orgs.js';

type Viewer = 'anonymous' | 'stranger' | 'member' | 'owner' | 'admin';
type Vis = 'public' | 'limited' | 'private';
const VIEWERS: Viewer[] = ['anonymous', 'stranger', 'member', 'owner', 'admin'];
const VISES: Vis[] = ['public', 'limited', 'private'];

describeDb('organization visibility matrix', () => {
  let s: TestServer;
  const users = {} as Record<Exclude<Viewer, 'anonymous'>, TestUser>;
  const org = {} as Record<Vis, string>;
  const opts = (v: Viewer) => (v === 'anonymous' ? {} : { token: users[v].token });
  /** Whether `v` may see an organization of visibility `vis` (member/owner belong to all three). */
  const seesOrg = (v: Viewer, vis: Vis) => vis === 'public' || (vis === 'limited' ? v !== 'anonymous' : ['member', 'owner', 'admin'].includes(v));
  /** The repositories `v` may see in one organization (sorted by name). */
  const reposSeen = (v: Viewer, vis: Vis): string[] => {
    if (!seesOrg(v, vis)) return [];
    return v === 'owner' || v === 'admin' ? ['privrepo', 'pubrepo'] : ['pubrepo'];
  };
  const names = (list: { name?: string; login?: string }[]) => list.map((x) => x.login ?? x.name);
  const fullNames = (list: { full_name: string }[]) => list.map((x) => x.full_name);

  beforeAll(async () => {
    s = await startServer();
    users.owner = await s.createUser({ name: 'aowner' });
    users.member = await s.createUser({ name: 'bmember' });
    users.stranger = await s.createUser({ name: 'cstranger' });
    users.admin = s.admin;
    for (const vis of VISES) {
      const o = await createOrg(s, users.owner, { username: `org-${vis}`, visibility: vis });
      org[vis] = o.name;
      const team = await createTeam(s, users.owner, o.name, { name: 'readers', permission: 'read', units: ['repo.code'] });
      await addTeamMember(s, users.owner, team.id, users.member);
      // The owner's membership is public, the member's stays private.
      expect((await s.client.put(`/orgs/${o.name}/public_members/${users.owner.name}`, undefined, { token: users.owner.token })).status).toBe(204);
      expect((await s.client.post(`/orgs/${o.name}/repos`, { name: 'pubrepo' }, { token: users.owner.token })).status).toBe(201);
      expect((await s.client.post(`/orgs/${o.name}/repos`, { name: 'privrepo', private: true }, { token: users.owner.token })).status).toBe(201);
    }
  });
  afterAll(async () => s?.close());

  describe.each(VIEWERS)('viewer %s', (v) => {
    it('orgGetAll: public for anonymous, limited too when signed in, private only for site admins', async () => {
      const r = await s.client.get<{ name: string }[]>('/orgs', opts(v));
      expect(r.status).toBe(200);
      const expected = v === 'anonymous' ? ['org-public'] : v === 'admin' ? ['org-limited', 'org-private', 'org-public'] : ['org-limited', 'org-public'];
      expect(names(r.body)).toEqual(expected);
      expect(r.headers.get('x-total-count')).toBe(String(expected.length));
    });

    it('orgGet and userGet of the organization', async () => {
      for (const vis of VISES) {
        const r = await s.client.get(`/orgs/${org[vis]}`, opts(v));
        expect({ vis, status: r.status }).toEqual({ vis, status: seesOrg(v, vis) ? 200 : 404 });
        if (r.status === 200) expect(r.body.name).toBe(org[vis]);
        const u = await s.client.get(`/users/${org[vis]}`, opts(v));
        expect({ vis, status: u.status }).toEqual({ vis, status: seesOrg(v, vis) ? 200 : 404 });
        if (u.status === 200) expect(u.body).toMatchObject({ login: org[vis], visibility: vis });
      }
    });

    it('orgListUserOrgs: all for the user and admins; for others public organizations with public membership', async () => {
      for (const who of ['owner', 'member'] as const) {
        const r = await s.client.get<{ name: string }[]>(`/users/${users[who].name}/orgs`, opts(v));
        if (v === 'anonymous') {
          expect(r.status).toBe(401);
          continue;
        }
        expect(r.status).toBe(200);
        // The owner's memberships are public, the member's are not.
        const expected = v === who || v === 'admin' ? [...VISES].map((vis) => org[vis]).sort() : who === 'owner' ? ['org-public'] : [];
        expect({ who, orgs: names(r.body) }).toEqual({ who, orgs: expected });
        expect(r.headers.get('x-total-count')).toBe(String(expected.length));
      }
    });

    it('orgListMembers: members and admins see every member, others the public ones', async () => {
      for (const vis of VISES) {
        const r = await s.client.get<{ login: string }[]>(`/orgs/${org[vis]}/members`, opts(v));
        if (v === 'anonymous') {
          expect(r.status).toBe(401);
          continue;
        }
        if (!seesOrg(v, vis)) {
          expect({ vis, status: r.status }).toEqual({ vis, status: 404 });
          continue;
        }
        const expected = v === 'stranger' ? ['aowner'] : ['aowner', 'bmember'];
        expect({ vis, members: names(r.body) }).toEqual({ vis, members: expected });
        expect(r.headers.get('x-total-count')).toBe(String(expected.length));
      }
    });

    it('orgListPublicMembers and orgIsPublicMember', async () => {
      for (const vis of VISES) {
        const r = await s.client.get<{ login: string }[]>(`/orgs/${org[vis]}/public_members`, opts(v));
        if (!seesOrg(v, vis)) {
          expect({ vis, status: r.status }).toEqual({ vis, status: 404 });
          continue;
        }
        expect({ vis, members: names(r.body) }).toEqual({ vis, members: ['aowner'] });
        expect((await s.client.get(`/orgs/${org[vis]}/public_members/aowner`, opts(v))).status).toBe(204);
        expect((await s.client.get(`/orgs/${org[vis]}/public_members/bmember`, opts(v))).status).toBe(404);
      }
    });

    it('orgListRepos: only the repositories the viewer may see', async () => {
      for (const vis of VISES) {
        const r = await s.client.get<{ name: string; private: boolean }[]>(`/orgs/${org[vis]}/repos`, opts(v));
        if (!seesOrg(v, vis)) {
          expect({ vis, status: r.status }).toEqual({ vis, status: 404 });
          continue;
        }
        expect({ vis, repos: r.body.map((x) => x.name) }).toEqual({ vis, repos: reposSeen(v, vis) });
        expect(r.headers.get('x-total-count')).toBe(String(reposSeen(v, vis).length));
      }
    });

    it('userListRepos of the organization: the same repositories as orgListRepos', async () => {
      for (const vis of VISES) {
        const r = await s.client.get<{ name: string }[]>(`/users/${org[vis]}/repos`, opts(v));
        if (!seesOrg(v, vis)) {
          expect({ vis, status: r.status }).toEqual({ vis, status: 404 });
          continue;
        }
        expect({ vis, repos: r.body.map((x) => x.name).sort() }).toEqual({ vis, repos: reposSeen(v, vis) });
      }
    });

    it('orgListTeams: members only (403 for other signed-in callers)', async () => {
      for (const vis of VISES) {
        const r = await s.client.get<{ name: string }[]>(`/orgs/${org[vis]}/teams`, opts(v));
        if (v === 'anonymous') expect(r.status).toBe(401);
        else if (!seesOrg(v, vis)) expect({ vis, status: r.status }).toEqual({ vis, status: 404 });
        else if (v === 'stranger') {
          expect(r.status).toBe(403);
          expect((r.body as unknown as { message: string }).message).toBe('Must be an organization member');
        } else {
          expect({ vis, teams: names(r.body) }).toEqual({ vis, teams: ['Owners', 'readers'] });
          for (const t of r.body) expect(t).not.toHaveProperty('organization');
        }
      }
    });

    it('teamSearch: members find their own teams, owners and admins every team', async () => {
      for (const vis of VISES) {
        const r = await s.client.get<{ ok: boolean; data: { name: string }[] }>(`/orgs/${org[vis]}/teams/search`, opts(v));
        if (v === 'anonymous') expect(r.status).toBe(401);
        else if (!seesOrg(v, vis)) expect(r.status).toBe(404);
        else if (v === 'stranger') expect(r.status).toBe(403);
        else {
          expect(r.body.ok).toBe(true);
          expect({ vis, teams: names(r.body.data) }).toEqual({ vis, teams: v === 'member' ? ['readers'] : ['Owners', 'readers'] });
        }
      }
    });

    it('repoSearch: every returned repository is one the viewer may see, and all of them are returned', async () => {
      const r = await s.client.get<{ ok: boolean; data: { full_name: string }[] }>('/repos/search?limit=50', opts(v));
      expect(r.status).toBe(200);
      const expected = VISES.flatMap((vis) => reposSeen(v, vis).map((n) => `${org[vis]}/${n}`)).sort();
      expect(fullNames(r.body.data).sort()).toEqual(expected);
    });

    it('repoGet: visible repositories answer 200 with the right permissions, others 404', async () => {
      for (const vis of VISES) {
        for (const name of ['pubrepo', 'privrepo']) {
          const r = await s.client.get(`/repos/${org[vis]}/${name}`, opts(v));
          const visible = reposSeen(v, vis).includes(name);
          expect({ vis, name, status: r.status }).toEqual({ vis, name, status: visible ? 200 : 404 });
          if (!visible) continue;
          const full = v === 'owner' || v === 'admin';
          expect(r.body.permissions).toEqual({ admin: full, push: full, pull: true });
        }
      }
    });
  });

  describe('restricted users', () => {
    it('see only organizations they belong to, and only repositories their teams give them', async () => {
      const restricted = await s.createUser({ name: 'drestricted', restricted: true });
      const as = { token: restricted.token };
      expect((await s.client.get(`/orgs/${org.public}`, as)).status).toBe(404);
      expect((await s.client.get(`/repos/${org.public}/pubrepo`, as)).status).toBe(404);
      expect((await s.client.get<unknown[]>('/orgs', as)).body).toEqual([]);
      expect((await s.client.get<{ data: unknown[] }>('/repos/search', as)).body.data).toEqual([]);
      const teams = await s.client.get<{ id: number; name: string }[]>(`/orgs/${org.private}/teams`, { token: users.owner.token });
      const readers = teams.body.find((t) => t.name === 'readers')!;
      await addTeamMember(s, users.owner, readers.id, restricted);
      expect((await s.client.get(`/orgs/${org.private}`, as)).status).toBe(200);
      // GET /orgs never lists private organizations to non-admins, members included.
      expect((await s.client.get<unknown[]>('/orgs', as)).body).toEqual([]);
      // Membership alone gives a restricted user nothing from a repository being public.
      expect((await s.client.get(`/repos/${org.private}/pubrepo`, as)).status).toBe(404);
      expect((await s.client.put(`/teams/${readers.id}/repos/${org.private}/privrepo`, undefined, { token: users.owner.token })).status).toBe(204);
      const r = await s.client.get(`/repos/${org.private}/privrepo`, as);
      expect(r.status).toBe(200);
      expect(r.body.permissions).toEqual({ admin: false, push: false, pull: true });
      const found = await s.client.get<{ data: { full_name: string }[] }>('/repos/search', as);
      expect(fullNames(found.body.data)).toEqual([`${org.private}/privrepo`]);
      expect((await s.client.delete(`/teams/${readers.id}/repos/${org.private}/privrepo`, { token: users.owner.token })).status).toBe(204);
      expect((await s.client.delete(`/teams/${readers.id}/members/${restricted.name}`, { token: users.owner.token })).status).toBe(204);
    });
  });

  describe('public-only tokens', () => {
    it('reach public organizations only', async () => {
      const tok = await s.createToken(users.owner.name, ['public-only', 'read:organization']);
      expect((await s.client.get(`/orgs/${org.public}`, { token: tok })).status).toBe(200);
      const r = await s.client.get(`/orgs/${org.limited}`, { token: tok });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('token scope is limited to public orgs');
      expect(names((await s.client.get<{ name: string }[]>('/orgs', { token: tok })).body)).toEqual(['org-public']);
    });
  });
});
