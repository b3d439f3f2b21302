import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

/** Restricted users get nothing from a repository being public (Gitea's access model). */
describeDb('restricted users and public repositories', () => {
  let s: TestServer;
  let owner: TestUser;
  let restricted: TestUser;
  let collaborating: TestUser;
  const name = uniqueName('pub');
  const shared = uniqueName('shared');
  beforeAll(async () => {
    s = await startServer();
    owner = await s.createUser();
    restricted = await s.createUser({ restricted: true });
    collaborating = await s.createUser({ restricted: true });
    for (const repo of [name, shared]) {
      const r = await s.client.post('/user/repos', { name: repo, auto_init: true }, { token: owner.token });
      expect(r.status).toBe(201);
    }
    const add = await s.client.put(`/repos/${owner.name}/${shared}/collaborators/${collaborating.name}`, { permission: 'read' }, { token: owner.token });
    expect(add.status).toBe(204);
  });
  afterAll(async () => s?.close());

  it('a public repository is 404 for a restricted user, 200 for others and anonymous callers', async () => {
    const hidden = await s.client.get(`/repos/${owner.name}/${name}`, { token: restricted.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe("The target couldn't be found.");
    const anonymous = await s.client.get(`/repos/${owner.name}/${name}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.permissions).toEqual({ admin: false, push: false, pull: true });
  });

  it('search leaves public repositories out for a restricted user but keeps their collaborations', async () => {
    const r = await s.client.get('/repos/search?limit=50', { token: collaborating.token });
    expect(r.status).toBe(200);
    const names = (r.body.data as { full_name: string }[]).map((d) => d.full_name);
    expect(names).toContain(`${owner.name}/${shared}`);
    expect(names).not.toContain(`${owner.name}/${name}`);
    const plain = await s.client.get('/repos/search?limit=50', { token: restricted.token });
    expect(plain.status).toBe(200);
    expect((plain.body.data as { full_name: string }[]).map((d) => d.full_name)).not.toContain(`${owner.name}/${name}`);
    const anonymous = await s.client.get('/repos/search?limit=50');
    expect((anonymous.body.data as { full_name: string }[]).map((d) => d.full_name)).toContain(`${owner.name}/${name}`);
  });

  it('a restricted collaborator reads the repository with its collaboration mode', async () => {
    const r = await s.client.get(`/repos/${owner.name}/${shared}`, { token: collaborating.token });
    expect(r.status).toBe(200);
    expect(r.body.permissions).toEqual({ admin: false, push: false, pull: true });
  });
});
