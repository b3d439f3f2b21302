// repoListHooks, repoCreateHook, repoGetHook, repoEditHook, repoDeleteHook, userListHooks..., adminListHooks...:
// CRUD, guards, validation, write-only secret, and the host policy at creation (default ALLOWED_HOST_LIST).
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describeDb('webhooks CRUD', () => {
  let s: TestServer;
  let owner: TestUser;
  let stranger: TestUser;
  let repo: string;
  let err: (message: string) => { message: string; url: string };

  beforeAll(async () => {
    // A loopback receiver is allowed here; the default policy has its own server below.
    s = await startServer({ overrides: { webhook: { ALLOWED_HOST_LIST: 'loopback' } } });
    owner = await s.createUser();
    stranger = await s.createUser();
    repo = uniqueName('hk');
    expect((await s.client.post('/user/repos', { name: repo }, { token: owner.token })).status).toBe(201);
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
  });
  afterAll(async () => {
    await s?.close();
  });

  const base = () => `/repos/${owner.name}/${repo}/hooks`;
  const valid = { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json', secret: 's3cret' } };

  it('creates a hook with Gitea defaults and never returns the secret', async () => {
    const r = await s.client.post(base(), valid, { token: owner.token });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      type: 'gitea',
      branch_filter: '',
      config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' },
      events: ['push'],
      authorization_header: '',
      active: false,
      updated_at: expect.stringMatching(RFC3339),
      created_at: expect.stringMatching(RFC3339),
    });
    expect(r.text).not.toContain('s3cret');
    const got = await s.client.get(`${base()}/${r.body.id}`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
    expect(got.text).not.toContain('s3cret');
  });

  it('expands event groups in Gitea order and ignores unknown names', async () => {
    const r = await s.client.post(base(), { ...valid, events: ['PUSH', 'issues', 'bogus', 'create', 'pull_request_review'], active: true, branch_filter: '{main,rel/*}' }, { token: owner.token });
    expect(r.status).toBe(201);
    expect(r.body.events).toEqual(['create', 'push', 'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment', 'pull_request_review_approved', 'pull_request_review_rejected']);
    expect(r.body.active).toBe(true);
    expect(r.body.branch_filter).toBe('{main,rel/*}');
  });

  it('lists with X-Total-Count and paging', async () => {
    const all = await s.client.get(base(), { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.headers.get('x-total-count')).toBe(String(all.body.length));
    expect(all.body.length).toBeGreaterThanOrEqual(2);
    const page = await s.client.get(`${base()}?limit=1&page=2`, { token: owner.token });
    expect(page.body).toHaveLength(1);
    expect(page.body[0].id).toBe(all.body[1].id);
  });

  it('edits as Gitea does: events reset to push, branch_filter and authorization_header replaced', async () => {
    const c = await s.client.post(base(), { ...valid, events: ['create', 'delete'], branch_filter: 'main', authorization_header: 'Bearer x', active: true }, { token: owner.token });
    expect(c.body.authorization_header).toBe('Bearer x');
    const e = await s.client.patch(`${base()}/${c.body.id}`, { config: { content_type: 'form' } }, { token: owner.token });
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ events: ['push'], branch_filter: '', authorization_header: '', active: true, config: { url: valid.config.url, content_type: 'form' } });
    const bad = await s.client.patch(`${base()}/${c.body.id}`, { config: { content_type: 'xml' } }, { token: owner.token });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(err('Invalid content type'));
    const off = await s.client.patch(`${base()}/${c.body.id}`, { active: false, events: ['fork'] }, { token: owner.token });
    expect(off.body).toMatchObject({ active: false, events: ['fork'] });
  });

  it('validates in Gitea order', async () => {
    const cases: [unknown, number, string][] = [
      [{ type: 'nope', config: { url: 'http://127.0.0.1/', content_type: 'json' } }, 422, 'Invalid hook type: nope'],
      [{ type: 'gitea', config: { content_type: 'json' } }, 422, 'Missing config option: url'],
      [{ type: 'gitea', config: { url: 'http://127.0.0.1/' } }, 422, 'Missing config option: content_type'],
      [{ type: 'gitea', config: { url: 'http://127.0.0.1/', content_type: 'xml' } }, 422, 'Invalid content type'],
      [{ type: 'slack', config: { url: 'http://127.0.0.1/', content_type: 'json' } }, 422, 'Missing config option: channel'],
      [{ type: 'slack', config: { url: 'http://127.0.0.1/', content_type: 'json', channel: 'general' } }, 400, 'Invalid slack channel name'],
      [{ type: 'gitea', config: { url: 'http://127.0.0.1/', content_type: 'json' }, branch_filter: '{main' }, 422, '[BranchFilter]: GlobPattern'],
      [{ type: 'gitea', config: { url: 'ftp://127.0.0.1/', content_type: 'json' } }, 422, 'Invalid url'],
    ];
    for (const [body, status, message] of cases) {
      const r = await s.client.post(base(), body, { token: owner.token });
      expect([r.status, r.body]).toEqual([status, err(message)]);
    }
    const missing = await s.client.post(base(), { config: { url: 'x', content_type: 'json' } }, { token: owner.token });
    expect(missing.status).toBe(422);
  });

  it('keeps slack settings and accepts every documented type', async () => {
    const r = await s.client.post(base(), { type: 'slack', config: { url: 'http://127.0.0.1/s', content_type: 'json', channel: ' #dev ', username: 'bot', color: 'red' } }, { token: owner.token });
    expect(r.status).toBe(201);
    expect(r.body.config).toEqual({ url: 'http://127.0.0.1/s', content_type: 'json', channel: '#dev', username: 'bot', icon_url: '', color: 'red' });
    for (const type of ['gogs', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist']) {
      const t = await s.client.post(base(), { type, config: { url: 'http://127.0.0.1/t', content_type: 'json' } }, { token: owner.token });
      expect([type, t.status, t.body.type]).toEqual([type, 201, type]);
    }
  });

  it('answers 404 for unknown hooks and hooks of another repository', async () => {
    const other = uniqueName('hk');
    expect((await s.client.post('/user/repos', { name: other }, { token: owner.token })).status).toBe(201);
    const h = await s.client.post(`/repos/${owner.name}/${other}/hooks`, valid, { token: owner.token });
    for (const [method, path] of [
      ['GET', `${base()}/${h.body.id}`],
      ['PATCH', `${base()}/${h.body.id}`],
      ['DELETE', `${base()}/${h.body.id}`],
      ['GET', `${base()}/999999`],
      ['POST', `${base()}/999999/tests`],
    ] as const) {
      const r = await s.client.request(method, path, { token: owner.token, ...(method === 'PATCH' ? { body: {} } : {}) });
      expect([method, path, r.status, r.body]).toEqual([method, path, 404, err("The target couldn't be found.")]);
    }
  });

  it('deletes (204) and the hook is gone', async () => {
    const h = await s.client.post(base(), valid, { token: owner.token });
    expect((await s.client.delete(`${base()}/${h.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await s.client.get(`${base()}/${h.body.id}`, { token: owner.token })).status).toBe(404);
  });

  it('needs repository admin: a reader gets 403, a stranger of a private repository 404', async () => {
    const reader = await s.createUser();
    expect((await s.client.put(`/repos/${owner.name}/${repo}/collaborators/${reader.name}`, { permission: 'write' }, { token: owner.token })).status).toBe(204);
    const r = await s.client.get(base(), { token: reader.token });
    expect([r.status, r.body]).toEqual([403, err('user should be an owner or a collaborator with admin write of a repository')]);
    const priv = uniqueName('hk');
    expect((await s.client.post('/user/repos', { name: priv, private: true }, { token: owner.token })).status).toBe(201);
    const hidden = await s.client.get(`/repos/${owner.name}/${priv}/hooks`, { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect((await s.client.get(base())).status).toBe(401);
    // The site administrator passes.
    expect((await s.client.get(base(), { token: s.admin.token })).status).toBe(200);
  });

  describe('user hooks', () => {
    it('are the signed-in user\'s own', async () => {
      const c = await s.client.post('/user/hooks', { ...valid, events: ['repository'] }, { token: owner.token });
      expect(c.status).toBe(201);
      expect(c.body.events).toEqual(['repository']);
      const list = await s.client.get('/user/hooks', { token: owner.token });
      expect(list.body.map((h: any) => h.id)).toEqual([c.body.id]);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect((await s.client.get(`/user/hooks/${c.body.id}`, { token: stranger.token })).status).toBe(404);
      expect((await s.client.get('/user/hooks', { token: stranger.token })).body).toEqual([]);
      // A repository hook id is not a user hook.
      const rh = await s.client.post(base(), valid, { token: owner.token });
      expect((await s.client.get(`/user/hooks/${rh.body.id}`, { token: owner.token })).status).toBe(404);
      const e = await s.client.patch(`/user/hooks/${c.body.id}`, { events: ['repository', 'fork'], active: true }, { token: owner.token });
      expect(e.body).toMatchObject({ events: ['fork', 'repository'], active: true });
      expect((await s.client.delete(`/user/hooks/${c.body.id}`, { token: owner.token })).status).toBe(204);
      expect((await s.client.delete(`/user/hooks/${c.body.id}`, { token: owner.token })).status).toBe(404);
    });
  });

  describe('organization hooks', () => {
    it('are for organization owners; POST with a trailing slash works too', async () => {
      const org = uniqueName('org');
      expect((await s.client.post('/orgs', { username: org }, { token: owner.token })).status).toBe(201);
      const c = await s.client.post(`/orgs/${org}/hooks/`, { ...valid, events: ['repository'] }, { token: owner.token });
      expect(c.status).toBe(201);
      const c2 = await s.client.post(`/orgs/${org}/hooks`, valid, { token: owner.token });
      expect(c2.status).toBe(201);
      const list = await s.client.get(`/orgs/${org}/hooks`, { token: owner.token });
      expect(list.body.map((h: any) => h.id)).toEqual([c.body.id, c2.body.id]);
      expect(list.headers.get('x-total-count')).toBe('2');
      expect((await s.client.get(`/orgs/${org}/hooks/${c.body.id}`, { token: owner.token })).body.events).toEqual(['repository']);
      expect((await s.client.patch(`/orgs/${org}/hooks/${c.body.id}`, { active: true }, { token: owner.token })).body).toMatchObject({ active: true, events: ['push'] });
      const denied = await s.client.get(`/orgs/${org}/hooks`, { token: stranger.token });
      expect([denied.status, denied.body]).toEqual([403, err('Must be an organization owner')]);
      expect((await s.client.get(`/orgs/${org}/hooks`, { token: s.admin.token })).status).toBe(200);
      expect((await s.client.get(`/orgs/${uniqueName('none')}/hooks`, { token: owner.token })).status).toBe(404);
      // A user's hook is not the organization's.
      const uh = await s.client.post('/user/hooks', valid, { token: owner.token });
      expect((await s.client.get(`/orgs/${org}/hooks/${uh.body.id}`, { token: owner.token })).status).toBe(404);
      expect((await s.client.get(`/user/hooks/${c.body.id}`, { token: owner.token })).status).toBe(404);
      expect((await s.client.delete(`/orgs/${org}/hooks/${c.body.id}`, { token: owner.token })).status).toBe(204);
      expect((await s.client.get(`/orgs/${org}/hooks/${c.body.id}`, { token: owner.token })).status).toBe(404);
      const priv = uniqueName('org');
      expect((await s.client.post('/orgs', { username: priv, visibility: 'private' }, { token: owner.token })).status).toBe(201);
      expect((await s.client.get(`/orgs/${priv}/hooks`, { token: stranger.token })).status).toBe(404);
    });
  });

  describe('admin hooks', () => {
    it('creates default and system hooks, lists them all without paging, site admins only', async () => {
      const d = await s.client.post('/admin/hooks', valid, { token: s.admin.token });
      expect(d.status).toBe(201);
      const sys = await s.client.post('/admin/hooks', { ...valid, config: { ...valid.config, is_system_webhook: 'true' } }, { token: s.admin.token });
      expect(sys.status).toBe(201);
      expect(sys.body.config).toEqual({ url: valid.config.url, content_type: 'json' });
      const bad = await s.client.post('/admin/hooks', { ...valid, config: { ...valid.config, is_system_webhook: 'maybe' } }, { token: s.admin.token });
      expect([bad.status, bad.body]).toEqual([422, err('Invalid is_system_webhook value')]);
      const list = await s.client.get('/admin/hooks?limit=1', { token: s.admin.token });
      expect(list.status).toBe(200);
      expect(list.body.map((h: any) => h.id)).toEqual([d.body.id, sys.body.id]);
      expect(list.headers.get('x-total-count')).toBeNull();
      expect((await s.client.get(`/admin/hooks/${d.body.id}`, { token: s.admin.token })).body.id).toBe(d.body.id);
      expect((await s.client.patch(`/admin/hooks/${sys.body.id}`, { active: true }, { token: s.admin.token })).body.active).toBe(true);
      const forbidden = await s.client.get('/admin/hooks', { token: owner.token });
      expect([forbidden.status, forbidden.body]).toEqual([403, { message: 'user should be the site admin', url: `${s.url}/api/swagger` }]);
      expect((await s.client.get('/admin/hooks/999999', { token: s.admin.token })).status).toBe(404);
      expect((await s.client.patch('/admin/hooks/999999', {}, { token: s.admin.token })).status).toBe(404);
      // A repository hook is not an admin hook.
      const rh = await s.client.post(base(), valid, { token: owner.token });
      expect((await s.client.get(`/admin/hooks/${rh.body.id}`, { token: s.admin.token })).status).toBe(404);

      // A default hook is copied into repositories created afterwards.
      const fresh = uniqueName('hk');
      expect((await s.client.post('/user/repos', { name: fresh }, { token: owner.token })).status).toBe(201);
      const copied = await s.client.get(`/repos/${owner.name}/${fresh}/hooks`, { token: owner.token });
      expect(copied.body).toHaveLength(1);
      expect(copied.body[0]).toMatchObject({ type: 'gitea', config: { url: valid.config.url, content_type: 'json' } });
      expect(copied.body[0].id).not.toBe(d.body.id);

      expect((await s.client.delete(`/admin/hooks/${d.body.id}`, { token: s.admin.token })).status).toBe(204);
      expect((await s.client.delete(`/admin/hooks/${sys.body.id}`, { token: s.admin.token })).status).toBe(204);
      expect((await s.client.delete(`/admin/hooks/${sys.body.id}`, { token: s.admin.token })).status).toBe(404);
    });
  });
});

describeDb('webhooks: default host policy', () => {
  let s: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    s = await startServer();
    owner = await s.createUser();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('refuses loopback and private targets at creation (422) and creates nothing', async () => {
    const repo = uniqueName('hk');
    expect((await s.client.post('/user/repos', { name: repo }, { token: owner.token })).status).toBe(201);
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest']) {
      const r = await s.client.post(`/repos/${owner.name}/${repo}/hooks`, { type: 'gitea', config: { url, content_type: 'json' } }, { token: owner.token });
      expect([url, r.status, r.body.message]).toEqual([url, 422, 'webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting)']);
    }
    expect((await s.client.get(`/repos/${owner.name}/${repo}/hooks`, { token: owner.token })).body).toEqual([]);
    const u = await s.client.post('/user/hooks', { type: 'gitea', config: { url: 'http://127.0.0.1/', content_type: 'json' } }, { token: owner.token });
    expect(u.status).toBe(422);
  });
});

describeDb('webhooks: DISABLE_WEBHOOKS', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ overrides: { security: { DISABLE_WEBHOOKS: 'true' }, webhook: { ALLOWED_HOST_LIST: 'loopback' } } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers 403 on repository and user hook routes; admin hooks stay', async () => {
    const u = await s.createUser();
    const repo = uniqueName('hk');
    expect((await s.client.post('/user/repos', { name: repo }, { token: u.token })).status).toBe(201);
    const body = { type: 'gitea', config: { url: 'http://127.0.0.1/', content_type: 'json' } };
    for (const [method, path] of [['GET', `/repos/${u.name}/${repo}/hooks`], ['POST', `/repos/${u.name}/${repo}/hooks`], ['GET', '/user/hooks'], ['POST', '/user/hooks']] as const) {
      const r = await s.client.request(method, path, { token: u.token, ...(method === 'POST' ? { body } : {}) });
      expect([path, r.status, r.body.message]).toEqual([path, 403, 'webhooks disabled by administrator']);
    }
    expect((await s.client.post('/admin/hooks', body, { token: s.admin.token })).status).toBe(201);
  });
});
