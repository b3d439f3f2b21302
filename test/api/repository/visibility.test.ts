// The visibility matrix of SECURITY.md for user-owned repositories: every listing that returns repositories,
// asked by anonymous, a stranger, a read collaborator, the owner and a site admin, against public and private
// repositories of public, limited and private users. Every returned item is checked, not just a count.
import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

interface ApiRepo {
  id: number;
  full_name: string;
  private: boolean;
}

type Caller = 'anonymous' | 'stranger' | 'collaborator' | 'owner' | 'admin';
const CALLERS: readonly Caller[] = ['anonymous', 'stranger', 'collaborator', 'owner', 'admin'];

describeDb('repository visibility in every listing', () => {
  let s: TestServer;
  const users = {} as Record<'owner' | 'stranger' | 'collaborator' | 'limited' | 'hidden' | 'forker', TestUser>;
  /** Repositories by label, with who may see each. */
  const repos: Record<string, { repo: ApiRepo; visibleTo: ReadonlySet<Caller> }> = {};
  const tag = uniqueName('vis');

  const as = (c: Caller) => {
    if (c === 'anonymous') return {};
    if (c === 'admin') return { token: s.admin.token };
    return { token: users[c].token };
  };
  const create = async (label: string, u: TestUser, body: Record<string, unknown>, visibleTo: Caller[]) => {
    const r = await s.client.post<ApiRepo>('/user/repos', { name: `${tag}-${label}`, auto_init: true, description: tag, ...body }, { token: u.token });
    expect(r.status).toBe(201);
    repos[label] = { repo: r.body, visibleTo: new Set(visibleTo) };
    return r.body;
  };
  /** The labels a caller may see among `labels`. */
  const visible = (c: Caller, labels: readonly string[]) => labels.filter((l) => repos[l]!.visibleTo.has(c)).map((l) => repos[l]!.repo.full_name).sort();
  const names = (list: ApiRepo[]) => list.map((r) => r.full_name).sort();

  beforeAll(async () => {
    s = await startServer();
    users.owner = await s.createUser();
    users.stranger = await s.createUser();
    users.collaborator = await s.createUser();
    users.forker = await s.createUser();
    users.limited = await s.createUser({ visibility: 'limited' });
    users.hidden = await s.createUser({ visibility: 'private' });
    const signedIn: Caller[] = ['stranger', 'collaborator', 'owner', 'admin'];
    await create('pub', users.owner, {}, [...CALLERS]);
    await create('priv-collab', users.owner, { private: true }, ['collaborator', 'owner', 'admin']);
    await create('priv', users.owner, { private: true }, ['owner', 'admin']);
    await create('limited-pub', users.limited, {}, signedIn);
    // A private user's public repository: only the user and site admins (our matrix callers: admin).
    await create('hidden-pub', users.hidden, {}, ['admin']);
    const put = await s.client.put(`/repos/${repos['priv-collab']!.repo.full_name}/collaborators/${users.collaborator.name}`, { permission: 'read' }, { token: users.owner.token });
    expect(put.status).toBe(204);
    // Forks of the public repository: one stays public, one is made private by its owner.
    const f1 = await s.client.post<ApiRepo>(`/repos/${repos.pub!.repo.full_name}/forks`, {}, { token: users.forker.token });
    expect(f1.status).toBe(202);
    repos['fork-pub'] = { repo: f1.body, visibleTo: new Set(CALLERS) };
    const f2 = await s.client.post<ApiRepo>(`/repos/${repos.pub!.repo.full_name}/forks`, { name: `${tag}-fork-priv` }, { token: users.stranger.token });
    expect(f2.status).toBe(202);
    const made = await s.client.patch<ApiRepo>(`/repos/${f2.body.full_name}`, { private: true }, { token: users.stranger.token });
    expect(made.status).toBe(200);
    repos['fork-priv'] = { repo: made.body, visibleTo: new Set<Caller>(['stranger', 'admin']) };
    // The owner stars everything it can see; the starred listings must still filter per caller.
    for (const l of ['pub', 'priv-collab', 'priv', 'limited-pub']) {
      expect((await s.client.put(`/user/starred/${repos[l]!.repo.full_name}`, {}, { token: users.owner.token })).status).toBe(204);
    }
  });
  afterAll(async () => s?.close());

  const all = () => Object.keys(repos);

  it.each(CALLERS)('repoSearch as %s: exactly the visible repositories, with and without filters', async (c) => {
    const r = await s.client.get<{ ok: boolean; data: ApiRepo[] }>(`/repos/search?q=${tag}&includeDesc=true&limit=50`, as(c));
    expect(r.status).toBe(200);
    expect(names(r.body.data)).toEqual(visible(c, all()));
    expect(r.headers.get('x-total-count')).toBe(String(visible(c, all()).length));
    // Owner-scoped search: uid of the owner (and mode=collaborative for the collaborator) stays filtered.
    const byOwner = await s.client.get<{ data: ApiRepo[] }>(`/repos/search?uid=${users.owner.id}&q=${tag}&limit=50`, as(c));
    expect(names(byOwner.body.data)).toEqual(visible(c, ['pub', 'priv-collab', 'priv']));
    const priv = await s.client.get<{ data: ApiRepo[] }>(`/repos/search?q=${tag}&is_private=true&limit=50`, as(c));
    expect(names(priv.body.data)).toEqual(visible(c, all().filter((l) => repos[l]!.repo.private)));
    const forks = await s.client.get<{ data: ApiRepo[] }>(`/repos/search?q=${tag}&mode=fork&limit=50`, as(c));
    expect(names(forks.body.data)).toEqual(visible(c, ['fork-pub', 'fork-priv']));
  });

  it.each(CALLERS)('userListRepos as %s: only the visible repositories of each user; invisible users are 404', async (c) => {
    const r = await s.client.get<ApiRepo[]>(`/users/${users.owner.name}/repos?limit=50`, as(c));
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(visible(c, ['pub', 'priv-collab', 'priv']));
    const lim = await s.client.get<ApiRepo[]>(`/users/${users.limited.name}/repos`, as(c));
    if (c === 'anonymous') expect(lim.status).toBe(404);
    else expect(names(lim.body)).toEqual(visible(c, ['limited-pub']));
    const hid = await s.client.get<ApiRepo[]>(`/users/${users.hidden.name}/repos`, as(c));
    if (c === 'admin') expect(names(hid.body)).toEqual(visible(c, ['hidden-pub']));
    else expect(hid.status).toBe(404);
  });

  it.each(CALLERS)('listForks as %s: private forks only for those who may see them', async (c) => {
    const r = await s.client.get<ApiRepo[]>(`/repos/${repos.pub!.repo.full_name}/forks`, as(c));
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(visible(c, ['fork-pub', 'fork-priv']));
  });

  it.each(CALLERS)('userListStarred as %s: a user’s stars never reveal what the caller may not see', async (c) => {
    const r = await s.client.get<ApiRepo[]>(`/users/${users.owner.name}/starred`, as(c));
    // Gitea's GetStarredRepos needs a signed-in caller and lists private stars only to the user themself.
    if (c === 'anonymous') return void expect(r.status).toBe(401);
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(visible(c, c === 'owner' ? ['pub', 'priv-collab', 'priv', 'limited-pub'] : ['pub', 'limited-pub']));
  });

  it.each(['stranger', 'collaborator', 'owner'] as const)('userCurrentListRepos as %s: owned and collaborative only', async (c) => {
    const r = await s.client.get<ApiRepo[]>('/user/repos?limit=50', as(c));
    expect(r.status).toBe(200);
    const own = { stranger: ['fork-priv'], collaborator: ['priv-collab'], owner: ['pub', 'priv-collab', 'priv'] }[c];
    expect(names(r.body.filter((x) => x.full_name.includes(tag)))).toEqual(own.map((l) => repos[l]!.repo.full_name).sort());
  });

  it.each(CALLERS)('repoGet and repoGetByID as %s: visible is 200, the rest the same 404 as a missing repository', async (c) => {
    const missing = await s.client.get(`/repos/${users.owner.name}/${tag}-nothing`, as(c));
    expect(missing.status).toBe(404);
    for (const l of all()) {
      const { repo, visibleTo } = repos[l]!;
      const r = await s.client.get(`/repos/${repo.full_name}`, as(c));
      expect([l, r.status]).toEqual([l, visibleTo.has(c) ? 200 : 404]);
      if (!visibleTo.has(c)) expect(r.body).toEqual(missing.body);
      if (c !== 'anonymous') {
        const byId = await s.client.get(`/repositories/${repo.id}`, as(c));
        expect([l, byId.status]).toEqual([l, visibleTo.has(c) ? 200 : 404]);
      }
    }
  });
});
