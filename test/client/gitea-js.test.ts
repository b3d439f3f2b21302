// A real client: the published `gitea-js` package (generated from Gitea 1.22's swagger) drives the server.
// Under jest the test is CommonJS, and gitea-js ships a CommonJS build beside its ESM one, so a plain import works.
import { Api, giteaApi, type HttpResponse } from 'gitea-js';
import { describeDb, startServer, uniqueName, type TestServer } from '../helpers/server.js';

/** gitea-js throws the Response itself (with `error` holding the parsed body) for non-2xx answers. */
async function failure(p: Promise<unknown>): Promise<HttpResponse<unknown, unknown>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Response) return e as HttpResponse<unknown, unknown>;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describeDb('gitea-js client', () => {
  let s: TestServer;
  let swaggerUrl: string;
  beforeAll(async () => {
    s = await startServer();
    swaggerUrl = `${s.url}/api/swagger`;
  });
  afterAll(async () => s?.close());

  /** Token auth, as gitea-js does it (`Authorization: Bearer ...` from its security worker). */
  const withToken = (token: string) => giteaApi(s.url, { token, customFetch: fetch });
  /** Basic auth through gitea-js's own extension point: a security worker adding the header. */
  const withPassword = (user: string, password: string) =>
    new Api({
      baseUrl: `${s.url}/api/v1`,
      baseApiParams: { format: 'json' },
      customFetch: fetch,
      securityWorker: () => ({ headers: { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } }),
    });

  it('creates a user as admin, a token with basic auth, and reads GET /user with that token', async () => {
    const name = uniqueName('js');
    const password = 'gitea-js-secret';
    const admin = withToken(s.admin.token);

    const created = await admin.admin.adminCreateUser({
      username: name,
      email: `${name}@example.com`,
      password,
      full_name: 'Gitea JS',
      must_change_password: false,
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ login: name, email: `${name}@example.com`, full_name: 'Gitea JS', is_admin: false, active: true });
    expect(created.data.id).toEqual(expect.any(Number));

    const basic = withPassword(name, password);
    const tok = await basic.users.userCreateToken(name, { name: 'from-gitea-js', scopes: ['read:user', 'write:repository'] });
    expect(tok.status).toBe(201);
    expect(tok.data).toEqual({
      id: expect.any(Number),
      name: 'from-gitea-js',
      // Gitea normalises the scope list into its own category order.
      scopes: ['write:repository', 'read:user'],
      sha1: expect.stringMatching(/^[0-9a-f]{40}$/),
      token_last_eight: tok.data.sha1!.slice(-8),
    });

    const me = await withToken(tok.data.sha1!).user.userGetCurrent();
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ id: created.data.id, login: name, full_name: 'Gitea JS', email: `${name}@example.com`, is_admin: false });

    // The token list (basic auth again) shows the new token without its secret.
    const list = await basic.users.userGetTokens(name);
    expect(list.status).toBe(200);
    expect(list.data).toEqual([{ id: tok.data.id, name: 'from-gitea-js', scopes: ['write:repository', 'read:user'], sha1: '', token_last_eight: tok.data.sha1!.slice(-8) }]);
  });

  it('userGet returns the public profile; an unknown user surfaces as a 404 error', async () => {
    const u = await s.createUser();
    const api = withToken(s.admin.token);
    const got = await api.users.userGet(u.name);
    expect(got.status).toBe(200);
    expect(got.data).toMatchObject({ id: u.id, login: u.name, email: u.email });

    const missing = uniqueName('nobody');
    const err = await failure(api.users.userGet(missing));
    expect(err.status).toBe(404);
    expect(err.error).toEqual({ message: "The target couldn't be found.", url: swaggerUrl });
  });

  it('a wrong password and a token of a must-change-password user are refused as errors', async () => {
    const name = uniqueName('js');
    const admin = withToken(s.admin.token);
    // must_change_password omitted: Gitea defaults it to true for admin-created users.
    const created = await admin.admin.adminCreateUser({ username: name, email: `${name}@example.com`, password: 'must-change-1' });
    expect(created.status).toBe(201);
    expect(created.data.login).toBe(name);

    const wrong = await failure(withPassword(name, 'not-the-password').users.userCreateToken(name, { name: 't', scopes: ['all'] }));
    expect(wrong.status).toBe(401);
    expect(wrong.error).toEqual({ message: `user does not exist [uid: 0, name: ${name}]`, url: swaggerUrl });

    const token = await s.createToken(name, ['all']);
    const gated = await failure(withToken(token).user.userGetCurrent());
    expect(gated.status).toBe(403);
    expect(gated.error).toEqual({ message: `You must change your password. Change it at: ${s.url}//user/change_password` });
  });

  it('deletes a token with basic auth; the deleted token no longer authenticates', async () => {
    const u = await s.createUser();
    const basic = withPassword(u.name, u.password);
    const tok = await basic.users.userCreateToken(u.name, { name: 'short-lived', scopes: ['read:user'] });
    expect(tok.status).toBe(201);
    expect((await withToken(tok.data.sha1!).user.userGetCurrent()).data.login).toBe(u.name);

    // 204 with no body: gitea-js records a parse error on the response but does not throw.
    const del = await basic.users.userDeleteAccessToken(u.name, 'short-lived');
    expect(del.status).toBe(204);
    expect(await del.text().catch(() => '')).toBe('');

    const after = await failure(withToken(tok.data.sha1!).user.userGetCurrent());
    expect(after.status).toBe(401);
    expect(after.error).toEqual({ message: expect.any(String), url: swaggerUrl });
  });

  it('creates an organization, a team with a member and an organization repository the team can write', async () => {
    const owner = await s.createUser();
    const member = await s.createUser();
    const api = withToken(owner.token);
    const name = uniqueName('jsorg');
    const org = await api.orgs.orgCreate({ username: name, visibility: 'private' });
    expect(org.status).toBe(201);
    expect(org.data).toMatchObject({ name, username: name, visibility: 'private' });
    expect((await api.orgs.orgGet(name)).data.id).toBe(org.data.id);
    const team = await api.orgs.orgCreateTeam(name, { name: 'devs', permission: 'write', units: ['repo.code'] });
    expect(team.status).toBe(201);
    expect(team.data).toMatchObject({ name: 'devs', permission: 'write', units: ['repo.code'], organization: { name } });
    const added = await api.teams.orgAddTeamMember(team.data.id!, member.name);
    expect(added.status).toBe(204);
    const repo = await api.orgs.createOrgRepo(name, { name: 'shared' });
    expect(repo.status).toBe(201);
    const linked = await api.teams.orgAddTeamRepository(team.data.id!, name, 'shared');
    expect(linked.status).toBe(204);
    const seen = await withToken(member.token).repos.repoGet(name, 'shared');
    expect(seen.data.permissions).toEqual({ admin: false, push: true, pull: true });
    const teams = await withToken(member.token).user.userListTeams();
    expect(teams.data.map((t) => [t.name, t.organization?.name])).toEqual([['devs', name]]);
    const hidden = await failure(withToken((await s.createUser()).token).orgs.orgGet(name));
    expect(hidden.status).toBe(404);
  });

  it('getVersion answers a semantic version gitea-js can read', async () => {
    const v = await withToken(s.admin.token).version.getVersion();
    expect(v.status).toBe(200);
    expect(v.data).toEqual({ version: expect.stringMatching(/^1\.22\.0\+anvil-\d+\.\d+\.\d+/) });
  });
});
