import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

/*
 * Topics (repoListTopics, repoUpdateTopics, repoAddTopic, repoDeleteTopic, topicSearch), stars
 * (userCurrentPutStar, userCurrentDeleteStar, userCurrentCheckStarring, userCurrentListStarred,
 * userListStarred, repoListStargazers) and collaborators (repoListCollaborators, repoCheckCollaborator,
 * repoAddCollaborator, repoDeleteCollaborator, repoGetRepoPermissions): BEHAVIOUR.md 6.8, 6.11.
 */

interface Perm {
  admin: boolean;
  push: boolean;
  pull: boolean;
}
interface ApiRepo {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  stars_count: number;
  permissions: Perm;
}
interface ApiTopic {
  id: number;
  topic_name: string;
  repo_count: number;
  created: string;
  updated: string;
}

const OWNER: Perm = { admin: true, push: true, pull: true };
const ADMIN: Perm = { admin: true, push: true, pull: true };
const WRITE: Perm = { admin: false, push: true, pull: true };
const READ: Perm = { admin: false, push: false, pull: true };
const NOT_FOUND = "The target couldn't be found.";
const NOT_REPO_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';

describeDb('repository social', () => {
  let s: TestServer;
  let alice: TestUser;
  let stranger: TestUser;
  const err = (message: string) => ({ message, url: `${s.url}/api/swagger` });
  const as = (u: TestUser | null) => (u ? { token: u.token } : {});

  async function newRepo(user: TestUser, body: Record<string, unknown> = {}): Promise<ApiRepo> {
    const r = await s.client.post<ApiRepo>('/user/repos', { name: uniqueName('r'), ...body }, as(user));
    expect(r.status).toBe(201);
    return r.body;
  }
  async function addCollaborator(repo: ApiRepo, user: TestUser, permission: string): Promise<void> {
    const r = await s.client.put(`/repos/${repo.full_name}/collaborators/${user.name}`, { permission }, as(alice));
    expect(r.status).toBe(204);
  }
  const topicsOf = async (repo: ApiRepo, who: TestUser | null = alice) => (await s.client.get<{ topics: string[] }>(`/repos/${repo.full_name}/topics`, as(who))).body.topics;

  beforeAll(async () => {
    s = await startServer();
    alice = await s.createUser();
    stranger = await s.createUser();
  });
  afterAll(async () => s?.close());

  describe('topics', () => {
    it('a new repository has none', async () => {
      const repo = await newRepo(alice);
      const r = await s.client.get(`/repos/${repo.full_name}/topics`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ topics: [] });
      expect(r.headers.get('x-total-count')).toBe('0');
    });

    it('repoUpdateTopics replaces all: lower-cased, trimmed, without empties and repeats, listed sorted', async () => {
      const repo = await newRepo(alice);
      const r = await s.client.put(`/repos/${repo.full_name}/topics`, { topics: ['Zeta', ' alpha ', 'beta', 'ALPHA', '', 'go.lang', '3d-print'] }, as(alice));
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      const list = await s.client.get(`/repos/${repo.full_name}/topics`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ topics: ['3d-print', 'alpha', 'beta', 'go.lang', 'zeta'] });
      expect(list.headers.get('x-total-count')).toBe('5');
      // Replacing with another set drops the old ones; an empty list clears.
      expect((await s.client.put(`/repos/${repo.full_name}/topics`, { topics: ['beta', 'gamma'] }, as(alice))).status).toBe(204);
      expect(await topicsOf(repo)).toEqual(['beta', 'gamma']);
      expect((await s.client.put(`/repos/${repo.full_name}/topics`, { topics: [] }, as(alice))).status).toBe(204);
      expect(await topicsOf(repo)).toEqual([]);
    });

    it('invalid names are 422 with the invalid ones listed (after lower-casing); nothing is saved', async () => {
      const repo = await newRepo(alice);
      expect((await s.client.put(`/repos/${repo.full_name}/topics`, { topics: ['keep'] }, as(alice))).status).toBe(204);
      const long = 'a'.repeat(36);
      const r = await s.client.put(`/repos/${repo.full_name}/topics`, { topics: ['fine', 'Bad!', '-dash', '.dot', long, 'has space', 'a'.repeat(35)] }, as(alice));
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ ...err('Topic names are invalid'), invalidTopics: ['bad!', '-dash', '.dot', long, 'has space'] });
      expect(await topicsOf(repo)).toEqual(['keep']);
    });

    it('more than 25 topics is 422; 25 is fine', async () => {
      const repo = await newRepo(alice);
      const names = Array.from({ length: 26 }, (_, i) => `t${String(i).padStart(2, '0')}`);
      const r = await s.client.put(`/repos/${repo.full_name}/topics`, { topics: names }, as(alice));
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ ...err('Exceeding maximum number of topics per repo'), invalidTopics: null });
      expect(await topicsOf(repo)).toEqual([]);
      // Duplicates do not count.
      const ok = await s.client.put(`/repos/${repo.full_name}/topics`, { topics: [...names.slice(0, 25), 'T00', 't01'] }, as(alice));
      expect(ok.status).toBe(204);
      expect(await topicsOf(repo)).toEqual(names.slice(0, 25));
      // A 26th one cannot be added singly either; an existing one can.
      const add = await s.client.put(`/repos/${repo.full_name}/topics/extra`, undefined, as(alice));
      expect(add.status).toBe(422);
      expect(add.body).toEqual(err('Exceeding maximum allowed topics per repo.'));
      expect((await s.client.put(`/repos/${repo.full_name}/topics/t00`, undefined, as(alice))).status).toBe(204);
      expect(await topicsOf(repo)).toHaveLength(25);
    });

    it('repoAddTopic and repoDeleteTopic: 204, lower-cased, idempotent add; unknown delete 404; invalid 422', async () => {
      const repo = await newRepo(alice);
      const add = await s.client.put(`/repos/${repo.full_name}/topics/NewOne`, undefined, as(alice));
      expect(add.status).toBe(204);
      expect(add.text).toBe('');
      expect((await s.client.put(`/repos/${repo.full_name}/topics/newone`, undefined, as(alice))).status).toBe(204);
      expect((await s.client.put(`/repos/${repo.full_name}/topics/another`, undefined, as(alice))).status).toBe(204);
      expect(await topicsOf(repo)).toEqual(['another', 'newone']);
      const bad = await s.client.put(`/repos/${repo.full_name}/topics/Bad!`, undefined, as(alice));
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({ ...err('Topic name is invalid'), invalidTopics: 'bad!' });
      const del = await s.client.delete(`/repos/${repo.full_name}/topics/NEWONE`, as(alice));
      expect(del.status).toBe(204);
      expect(await topicsOf(repo)).toEqual(['another']);
      const missing = await s.client.delete(`/repos/${repo.full_name}/topics/newone`, as(alice));
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(err(NOT_FOUND));
      const badDel = await s.client.delete(`/repos/${repo.full_name}/topics/-x`, as(alice));
      expect(badDel.status).toBe(422);
      expect(badDel.body).toEqual({ ...err('Topic name is invalid'), invalidTopics: '-x' });
    });

    it('changing topics needs repository admin; reading needs read access', async () => {
      const repo = await newRepo(alice, { private: true });
      const writer = await s.createUser();
      const admin = await s.createUser();
      await addCollaborator(repo, writer, 'write');
      await addCollaborator(repo, admin, 'admin');
      for (const [method, path, body] of [
        ['PUT', `/repos/${repo.full_name}/topics`, { topics: ['x'] }],
        ['PUT', `/repos/${repo.full_name}/topics/x`, undefined],
        ['DELETE', `/repos/${repo.full_name}/topics/x`, undefined],
      ] as const) {
        const r = await s.client.request(method, path, { token: writer.token, body });
        expect(r.status).toBe(403);
        expect(r.body).toEqual(err(NOT_REPO_ADMIN));
        const hidden = await s.client.request(method, path, { token: stranger.token, body });
        expect(hidden.status).toBe(404);
        expect(hidden.body).toEqual(err(NOT_FOUND));
        const anon = await s.client.request(method, path, { body });
        expect(anon.status).toBe(401);
        expect(anon.body).toEqual(err('token is required'));
      }
      expect((await s.client.put(`/repos/${repo.full_name}/topics/by-admin`, undefined, as(admin))).status).toBe(204);
      expect(await topicsOf(repo, writer)).toEqual(['by-admin']);
      const anonList = await s.client.get(`/repos/${repo.full_name}/topics`);
      expect(anonList.status).toBe(404);
      expect(anonList.body).toEqual(err(NOT_FOUND));
    });

    it('topicSearch finds topics by keyword with their repository counts', async () => {
      const tag = uniqueName('tp');
      const a = await newRepo(alice);
      const b = await newRepo(stranger);
      expect((await s.client.put(`/repos/${a.full_name}/topics`, { topics: [`${tag}-one`, `${tag}-two`] }, as(alice))).status).toBe(204);
      expect((await s.client.put(`/repos/${b.full_name}/topics`, { topics: [`${tag}-one`] }, as(stranger))).status).toBe(204);
      const r = await s.client.get<{ topics: ApiTopic[] }>(`/topics/search?q=${tag}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-total-count')).toBe('2');
      expect(r.body.topics.map((t) => [t.topic_name, t.repo_count])).toEqual([
        [`${tag}-one`, 2],
        [`${tag}-two`, 1],
      ]);
      for (const t of r.body.topics) {
        expect(t.id).toBeGreaterThan(0);
        expect(Date.parse(t.created)).not.toBeNaN();
        expect(Date.parse(t.updated)).not.toBeNaN();
      }
      const one = await s.client.get<{ topics: ApiTopic[] }>(`/topics/search?q=${tag}-tw`);
      expect(one.body.topics.map((t) => t.topic_name)).toEqual([`${tag}-two`]);
      const paged = await s.client.get<{ topics: ApiTopic[] }>(`/topics/search?q=${tag}&limit=1&page=2`);
      expect(paged.body.topics.map((t) => t.topic_name)).toEqual([`${tag}-two`]);
      expect(paged.headers.get('x-total-count')).toBe('2');
      // Removing a topic from a repository lowers its count; deleting the repository too.
      expect((await s.client.delete(`/repos/${b.full_name}/topics/${tag}-one`, as(stranger))).status).toBe(204);
      const after = await s.client.get<{ topics: ApiTopic[] }>(`/topics/search?q=${tag}-one`);
      expect(after.body.topics.map((t) => [t.topic_name, t.repo_count])).toEqual([[`${tag}-one`, 1]]);
      expect((await s.client.delete(`/repos/${a.full_name}`, as(alice))).status).toBe(204);
      const gone = await s.client.get<{ topics: ApiTopic[] }>(`/topics/search?q=${tag}`);
      expect(gone.body).toEqual({ topics: [] });
      expect(gone.headers.get('x-total-count')).toBe('0');
    });

    it('repoSearch with topic=true matches topics exactly, and only visible repositories', async () => {
      const topic = uniqueName('find');
      const pub = await newRepo(alice);
      const priv = await newRepo(alice, { private: true });
      const near = await newRepo(alice);
      for (const repo of [pub, priv]) expect((await s.client.put(`/repos/${repo.full_name}/topics/${topic}`, undefined, as(alice))).status).toBe(204);
      expect((await s.client.put(`/repos/${near.full_name}/topics/${topic}x`, undefined, as(alice))).status).toBe(204);
      const anon = await s.client.get<{ ok: boolean; data: ApiRepo[] }>(`/repos/search?topic=true&q=${topic}`);
      expect(anon.status).toBe(200);
      expect(anon.body.ok).toBe(true);
      expect(anon.body.data.map((r) => r.id)).toEqual([pub.id]);
      const mine = await s.client.get<{ ok: boolean; data: ApiRepo[] }>(`/repos/search?topic=true&q=${topic.toUpperCase()}&sort=id`, as(alice));
      expect(mine.body.data.map((r) => r.id)).toEqual([pub.id, priv.id]);
      expect(mine.headers.get('x-total-count')).toBe('2');
      // Without topic=true the keyword matches names, not topics.
      expect((await s.client.get<{ ok: boolean; data: ApiRepo[] }>(`/repos/search?q=${topic}`, as(alice))).body.data).toEqual([]);
    });
  });

  describe('stars', () => {
    it('star, check, count, list, unstar', async () => {
      const fan = await s.createUser();
      const repo = await newRepo(alice);
      const put = await s.client.put(`/user/starred/${repo.full_name}`, undefined, as(fan));
      expect(put.status).toBe(204);
      expect(put.text).toBe('');
      // Starring twice changes nothing.
      expect((await s.client.put(`/user/starred/${repo.full_name}`, undefined, as(fan))).status).toBe(204);
      const check = await s.client.get(`/user/starred/${repo.full_name}`, as(fan));
      expect(check.status).toBe(204);
      const got = await s.client.get<ApiRepo>(`/repos/${repo.full_name}`);
      expect(got.body.stars_count).toBe(1);
      const me = await s.client.get('/user', as(fan));
      expect(me.body.starred_repos_count).toBe(1);
      const list = await s.client.get<ApiRepo[]>('/user/starred', as(fan));
      expect(list.status).toBe(200);
      expect(list.body.map((r) => r.id)).toEqual([repo.id]);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect(list.body[0]!.permissions).toEqual(READ);
      const gazers = await s.client.get(`/repos/${repo.full_name}/stargazers`);
      expect(gazers.status).toBe(200);
      expect(gazers.body.map((u: { login: string }) => u.login)).toEqual([fan.name]);
      expect(gazers.headers.get('x-total-count')).toBe('1');

      const del = await s.client.delete(`/user/starred/${repo.full_name}`, as(fan));
      expect(del.status).toBe(204);
      expect((await s.client.delete(`/user/starred/${repo.full_name}`, as(fan))).status).toBe(204);
      const after = await s.client.get(`/user/starred/${repo.full_name}`, as(fan));
      expect(after.status).toBe(404);
      expect(after.body).toEqual(err(NOT_FOUND));
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`)).body.stars_count).toBe(0);
      expect((await s.client.get<ApiRepo[]>('/user/starred', as(fan))).body).toEqual([]);
      expect((await s.client.get(`/repos/${repo.full_name}/stargazers`)).body).toEqual([]);
    });

    it('many stargazers count and page', async () => {
      const repo = await newRepo(alice);
      const fans = [await s.createUser(), await s.createUser(), await s.createUser()];
      for (const f of fans) expect((await s.client.put(`/user/starred/${repo.full_name}`, undefined, as(f))).status).toBe(204);
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`)).body.stars_count).toBe(3);
      const page = await s.client.get(`/repos/${repo.full_name}/stargazers?limit=2&page=2`);
      expect(page.status).toBe(200);
      expect(page.body.map((u: { login: string }) => u.login)).toEqual([fans[2]!.name]);
      expect(page.headers.get('x-total-count')).toBe('3');
    });

    it('a private repository the caller cannot see is 404 for every star operation', async () => {
      const repo = await newRepo(alice, { private: true });
      for (const method of ['PUT', 'GET', 'DELETE']) {
        const r = await s.client.request(method, `/user/starred/${repo.full_name}`, as(stranger));
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err(NOT_FOUND));
      }
      const g = await s.client.get(`/repos/${repo.full_name}/stargazers`, as(stranger));
      expect(g.status).toBe(404);
      expect(g.body).toEqual(err(NOT_FOUND));
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice))).body.stars_count).toBe(0);
    });

    it('star operations need sign-in', async () => {
      const repo = await newRepo(alice);
      for (const [method, path] of [
        ['PUT', `/user/starred/${repo.full_name}`],
        ['GET', `/user/starred/${repo.full_name}`],
        ['DELETE', `/user/starred/${repo.full_name}`],
        ['GET', '/user/starred'],
        ['GET', `/users/${alice.name}/starred`],
      ]) {
        const r = await s.client.request(method!, path!);
        expect(r.status).toBe(401);
        expect(r.body).toEqual(err('token is required'));
      }
    });

    it("userListStarred shows another user's stars the caller may see; private ones only to the user", async () => {
      const fan = await s.createUser();
      const pub = await newRepo(alice);
      const priv = await newRepo(alice, { private: true });
      await addCollaborator(priv, fan, 'read');
      for (const repo of [pub, priv]) expect((await s.client.put(`/user/starred/${repo.full_name}`, undefined, as(fan))).status).toBe(204);
      const own = await s.client.get<ApiRepo[]>(`/users/${fan.name}/starred`, as(fan));
      expect(own.status).toBe(200);
      expect(own.body.map((r) => r.id)).toEqual([pub.id, priv.id]);
      expect(own.headers.get('x-total-count')).toBe('2');
      expect((await s.client.get<ApiRepo[]>('/user/starred', as(fan))).body.map((r) => r.id)).toEqual([pub.id, priv.id]);
      for (const who of [stranger, alice, s.admin]) {
        const r = await s.client.get<ApiRepo[]>(`/users/${fan.name}/starred`, as(who));
        expect(r.status).toBe(200);
        expect(r.body.map((x) => x.id)).toEqual([pub.id]);
        expect(r.headers.get('x-total-count')).toBe('1');
      }
      const unknown = await s.client.get(`/users/${uniqueName('ghost')}/starred`, as(stranger));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(err(NOT_FOUND));
    });

    it('deleting a starred repository updates the star count of the user', async () => {
      const fan = await s.createUser();
      const repo = await newRepo(alice);
      expect((await s.client.put(`/user/starred/${repo.full_name}`, undefined, as(fan))).status).toBe(204);
      expect((await s.client.get('/user', as(fan))).body.starred_repos_count).toBe(1);
      expect((await s.client.delete(`/repos/${repo.full_name}`, as(alice))).status).toBe(204);
      expect((await s.client.get<ApiRepo[]>('/user/starred', as(fan))).body).toEqual([]);
      expect((await s.client.get('/user', as(fan))).body.starred_repos_count).toBe(0);
    });
  });

  describe('collaborators', () => {
    it('add with read, write and admin: the repository becomes visible with those permissions', async () => {
      const repo = await newRepo(alice, { private: true });
      for (const [permission, perm] of [
        ['read', READ],
        ['write', WRITE],
        ['admin', ADMIN],
      ] as const) {
        const u = await s.createUser();
        expect((await s.client.get(`/repos/${repo.full_name}`, as(u))).status).toBe(404);
        const r = await s.client.put(`/repos/${repo.full_name}/collaborators/${u.name}`, { permission }, as(alice));
        expect(r.status).toBe(204);
        expect(r.text).toBe('');
        const got = await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(u));
        expect(got.status).toBe(200);
        expect(got.body.permissions).toEqual(perm);
        const p = await s.client.get(`/repos/${repo.full_name}/collaborators/${u.name}/permission`, as(u));
        expect(p.status).toBe(200);
        expect(p.body).toMatchObject({ permission, role_name: permission, user: { login: u.name, id: u.id } });
      }
    });

    it('without a permission the collaborator gets write; adding again changes the permission', async () => {
      const repo = await newRepo(alice, { private: true });
      const u = await s.createUser();
      expect((await s.client.put(`/repos/${repo.full_name}/collaborators/${u.name}`, {}, as(alice))).status).toBe(204);
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(u))).body.permissions).toEqual(WRITE);
      expect((await s.client.put(`/repos/${repo.full_name}/collaborators/${u.name}`, { permission: 'read' }, as(alice))).status).toBe(204);
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(u))).body.permissions).toEqual(READ);
      const list = await s.client.get(`/repos/${repo.full_name}/collaborators`, as(alice));
      expect(list.body.map((x: { login: string }) => x.login)).toEqual([u.name]);
    });

    it('repoCheckCollaborator: 204 for a collaborator, 404 for another user, 422 for an unknown one', async () => {
      const repo = await newRepo(alice);
      const c = await s.createUser();
      await addCollaborator(repo, c, 'read');
      const yes = await s.client.get(`/repos/${repo.full_name}/collaborators/${c.name}`, as(alice));
      expect(yes.status).toBe(204);
      expect(yes.text).toBe('');
      // Any reader may ask.
      expect((await s.client.get(`/repos/${repo.full_name}/collaborators/${c.name}`, as(stranger))).status).toBe(204);
      const no = await s.client.get(`/repos/${repo.full_name}/collaborators/${stranger.name}`, as(alice));
      expect(no.status).toBe(404);
      expect(no.body).toEqual(err(NOT_FOUND));
      const ghost = uniqueName('ghost');
      const unknown = await s.client.get(`/repos/${repo.full_name}/collaborators/${ghost}`, as(alice));
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(err(`user does not exist [uid: 0, name: ${ghost}]`));
      const anon = await s.client.get(`/repos/${repo.full_name}/collaborators/${c.name}`);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
    });

    it('repoListCollaborators lists users by name with X-Total-Count', async () => {
      const repo = await newRepo(alice);
      const users = [await s.createUser({ name: `zz${uniqueName()}` }), await s.createUser({ name: `aa${uniqueName()}` }), await s.createUser({ name: `mm${uniqueName()}` })];
      for (const u of users) await addCollaborator(repo, u, 'read');
      const r = await s.client.get(`/repos/${repo.full_name}/collaborators`, as(users[0]!));
      expect(r.status).toBe(200);
      expect(r.body.map((u: { login: string }) => u.login)).toEqual([users[1]!.name, users[2]!.name, users[0]!.name]);
      expect(r.headers.get('x-total-count')).toBe('3');
      const page = await s.client.get(`/repos/${repo.full_name}/collaborators?limit=2&page=2`, as(alice));
      expect(page.body.map((u: { login: string }) => u.login)).toEqual([users[0]!.name]);
      expect(page.headers.get('x-total-count')).toBe('3');
      const anon = await s.client.get(`/repos/${repo.full_name}/collaborators`);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
      const priv = await newRepo(alice, { private: true });
      const hidden = await s.client.get(`/repos/${priv.full_name}/collaborators`, as(stranger));
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err(NOT_FOUND));
    });

    it('repoGetRepoPermissions: self for anyone, others for repository and site admins only', async () => {
      const repo = await newRepo(alice);
      const reader = await s.createUser();
      const writer = await s.createUser();
      const admin = await s.createUser();
      await addCollaborator(repo, reader, 'read');
      await addCollaborator(repo, writer, 'write');
      await addCollaborator(repo, admin, 'admin');
      const perm = (who: TestUser, about: string) => s.client.get(`/repos/${repo.full_name}/collaborators/${about}/permission`, as(who));
      const owner = await perm(alice, alice.name);
      expect(owner.status).toBe(200);
      expect(owner.body).toMatchObject({ permission: 'owner', role_name: 'owner', user: { login: alice.name } });
      expect((await perm(writer, writer.name)).body).toMatchObject({ permission: 'write', role_name: 'write' });
      // A public repository gives every signed-in user read.
      expect((await perm(stranger, stranger.name)).body).toMatchObject({ permission: 'read', role_name: 'read', user: { login: stranger.name } });
      for (const who of [alice, admin, s.admin]) {
        const r = await perm(who, writer.name);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ permission: 'write', role_name: 'write', user: { login: writer.name } });
      }
      for (const who of [reader, writer, stranger]) {
        const r = await perm(who, admin.name);
        expect(r.status).toBe(403);
        expect(r.body).toEqual(err('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own'));
      }
      const ghost = await perm(alice, uniqueName('ghost'));
      expect(ghost.status).toBe(404);
      expect(ghost.body).toEqual(err(NOT_FOUND));
    });

    it('repoDeleteCollaborator: 204, access is gone', async () => {
      const repo = await newRepo(alice, { private: true });
      const c = await s.createUser();
      await addCollaborator(repo, c, 'write');
      expect((await s.client.get(`/repos/${repo.full_name}`, as(c))).status).toBe(200);
      const r = await s.client.delete(`/repos/${repo.full_name}/collaborators/${c.name}`, as(alice));
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      const hidden = await s.client.get(`/repos/${repo.full_name}`, as(c));
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err(NOT_FOUND));
      const check = await s.client.get(`/repos/${repo.full_name}/collaborators/${c.name}`, as(alice));
      expect(check.status).toBe(404);
      expect(check.body).toEqual(err(NOT_FOUND));
      expect((await s.client.get(`/repos/${repo.full_name}/collaborators`, as(alice))).body).toEqual([]);
      const ghost = uniqueName('ghost');
      const unknown = await s.client.delete(`/repos/${repo.full_name}/collaborators/${ghost}`, as(alice));
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(err(`user does not exist [uid: 0, name: ${ghost}]`));
    });

    it('adding and removing need repository admin', async () => {
      const repo = await newRepo(alice);
      const writer = await s.createUser();
      const admin = await s.createUser();
      const target = await s.createUser();
      await addCollaborator(repo, writer, 'write');
      await addCollaborator(repo, admin, 'admin');
      for (const who of [writer, stranger]) {
        const add = await s.client.put(`/repos/${repo.full_name}/collaborators/${target.name}`, { permission: 'read' }, as(who));
        expect(add.status).toBe(403);
        expect(add.body).toEqual(err(NOT_REPO_ADMIN));
        const del = await s.client.delete(`/repos/${repo.full_name}/collaborators/${writer.name}`, as(who));
        expect(del.status).toBe(403);
        expect(del.body).toEqual(err(NOT_REPO_ADMIN));
      }
      const anon = await s.client.put(`/repos/${repo.full_name}/collaborators/${target.name}`, { permission: 'read' });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
      // An admin collaborator may; so may a site administrator.
      expect((await s.client.put(`/repos/${repo.full_name}/collaborators/${target.name}`, { permission: 'read' }, as(admin))).status).toBe(204);
      expect((await s.client.delete(`/repos/${repo.full_name}/collaborators/${target.name}`, { token: s.admin.token })).status).toBe(204);
      expect((await s.client.get(`/repos/${repo.full_name}/collaborators/${target.name}`, as(alice))).status).toBe(404);
    });

    it('an unknown user is 422; an invalid permission is 422', async () => {
      const repo = await newRepo(alice);
      const ghost = uniqueName('ghost');
      const unknown = await s.client.put(`/repos/${repo.full_name}/collaborators/${ghost}`, { permission: 'read' }, as(alice));
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(err(`user does not exist [uid: 0, name: ${ghost}]`));
      const u = await s.createUser();
      for (const permission of ['owner', 'superuser', 'READ ']) {
        const r = await s.client.put(`/repos/${repo.full_name}/collaborators/${u.name}`, { permission }, as(alice));
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(`invalid permission: ${permission}; use read, write or admin`));
      }
      expect((await s.client.get(`/repos/${repo.full_name}/collaborators`, as(alice))).body).toEqual([]);
    });

    it('the owner of a private repository stays its only viewer until someone is added', async () => {
      const repo = await newRepo(alice, { private: true });
      const c = await s.createUser();
      const before = await s.client.get<{ ok: boolean; data: ApiRepo[] }>(`/repos/search?q=${repo.name}`, as(c));
      expect(before.body.data).toEqual([]);
      await addCollaborator(repo, c, 'read');
      const after = await s.client.get<{ ok: boolean; data: ApiRepo[] }>(`/repos/search?q=${repo.name}`, as(c));
      expect(after.body.data.map((r) => [r.id, r.permissions])).toEqual([[repo.id, READ]]);
      const mine = await s.client.get<ApiRepo[]>('/user/repos', as(c));
      expect(mine.body.map((r) => r.id)).toEqual([repo.id]);
      expect((await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice))).body.permissions).toEqual(OWNER);
    });
  });
});
