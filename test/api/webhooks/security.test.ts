// Webhook hardening: header values that could inject headers, URLs the parser would silently rewrite, the
// authorization header never following a redirect to another origin, write (not admin) collaborators, and hook
// ids of other repositories on every route.
import { it, expect, beforeAll, afterAll, beforeEach } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

describeDb('webhooks: security', () => {
  let s: TestServer;
  let owner: TestUser;
  let rx: Receiver;
  let rx2: Receiver;
  let err: (message: string) => { message: string; url: string };

  beforeAll(async () => {
    s = await startServer({ overrides: { webhook: { ALLOWED_HOST_LIST: 'loopback', RETRY_BACKOFF_MS: '100', MAX_ATTEMPTS: '1' } } });
    owner = await s.createUser();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
  });
  afterAll(async () => {
    await rx?.close();
    await rx2?.close();
    await s?.close();
  });
  beforeEach(async () => {
    await rx?.close();
    await rx2?.close();
    rx = await startReceiver();
    rx2 = await startReceiver();
  });

  const newRepo = async (body: Record<string, unknown> = {}) => {
    const name = uniqueName('ws');
    expect((await s.client.post('/user/repos', { name, ...body }, { token: owner.token })).status).toBe(201);
    return name;
  };
  const hooksOf = (repo: string) => `/repos/${owner.name}/${repo}/hooks`;

  it('refuses an authorization_header with CR/LF, other controls or non-Latin-1 (422) on create and edit', async () => {
    const repo = await newRepo();
    const bad = ['Bearer x\r\nX-Injected: 1', 'Bearer x\nX-Injected: 1', 'Bearer x\r', 'Bearer \u0000', 'Bearer \u20ac'];
    for (const h of bad) {
      const r = await s.client.post(hooksOf(repo), { type: 'gitea', authorization_header: h, config: { url: rx.url, content_type: 'json' } }, { token: owner.token });
      expect([h, r.status, r.body]).toEqual([h, 422, err('Invalid authorization header')]);
    }
    for (const path of ['/user/hooks', '/admin/hooks']) {
      const r = await s.client.post(path, { type: 'gitea', authorization_header: bad[0], config: { url: rx.url, content_type: 'json' } }, { token: path === '/admin/hooks' ? s.admin.token : owner.token });
      expect([path, r.status, r.body]).toEqual([path, 422, err('Invalid authorization header')]);
    }
    expect((await s.client.get(hooksOf(repo), { token: owner.token })).body).toEqual([]);
    const ok = await s.client.post(hooksOf(repo), { type: 'gitea', authorization_header: 'Bearer abc\tdef', config: { url: rx.url, content_type: 'json' } }, { token: owner.token });
    expect(ok.status).toBe(201);
    const e = await s.client.patch(`${hooksOf(repo)}/${ok.body.id}`, { authorization_header: bad[0] }, { token: owner.token });
    expect([e.status, e.body]).toEqual([422, err('Invalid authorization header')]);
    expect((await s.client.get(`${hooksOf(repo)}/${ok.body.id}`, { token: owner.token })).body.authorization_header).toBe('Bearer abc\tdef');
  });

  it('refuses URLs with control characters or a non-http(s) scheme', async () => {
    const repo = await newRepo();
    for (const url of [`${rx.url}\r\nX: y`, `http://127.0.0.1\n:${rx.port}/`, 'file:///etc/passwd', 'gopher://127.0.0.1/', 'javascript:alert(1)', 'not a url']) {
      const r = await s.client.post(hooksOf(repo), { type: 'gitea', config: { url, content_type: 'json' } }, { token: owner.token });
      expect([url, r.status, r.body]).toEqual([url, 422, err('Invalid url')]);
    }
    const ok = await s.client.post(hooksOf(repo), { type: 'gitea', config: { url: rx.url, content_type: 'json' } }, { token: owner.token });
    const e = await s.client.patch(`${hooksOf(repo)}/${ok.body.id}`, { config: { url: `${rx.url}\nx` } }, { token: owner.token });
    expect([e.status, e.body]).toEqual([422, err('Invalid url')]);
  });

  it('does not send the authorization header to the target of a redirect to another origin', async () => {
    const repo = await newRepo({ auto_init: true });
    const r = await s.client.post(hooksOf(repo), { type: 'gitea', active: true, authorization_header: 'Bearer sekret', config: { url: rx.url, content_type: 'json', secret: 'k' } }, { token: owner.token });
    expect(r.status).toBe(201);
    rx.respond = () => 307;
    rx.location = `http://127.0.0.1:${rx2.port}/other`;
    expect((await s.client.post(`${hooksOf(repo)}/${r.body.id}/tests`, undefined, { token: owner.token })).status).toBe(204);
    const [first] = await rx.waitFor(1);
    const [second] = await rx2.waitFor(1);
    expect(first!.headers.authorization).toBe('Bearer sekret');
    expect(second!.headers.authorization).toBeUndefined();
    // The rest of the delivery is unchanged (307 keeps method, body and signature).
    expect([second!.method, second!.body, second!.headers['x-gitea-signature']]).toEqual(['POST', first!.body, first!.headers['x-gitea-signature']]);
  });

  it('empty secret: signature headers present but empty (Gitea); a URL password is sent but recorded masked', async () => {
    const repo = await newRepo({ auto_init: true });
    const url = `http://hookuser:hookpass@127.0.0.1:${rx.port}/hook`;
    const r = await s.client.post(hooksOf(repo), { type: 'gitea', active: true, config: { url, content_type: 'json' } }, { token: owner.token });
    expect(r.status).toBe(201);
    expect((await s.client.post(`${hooksOf(repo)}/${r.body.id}/tests`, undefined, { token: owner.token })).status).toBe(204);
    const [d] = await rx.waitFor(1);
    expect([d!.headers['x-gitea-signature'], d!.headers['x-gogs-signature'], d!.headers['x-hub-signature'], d!.headers['x-hub-signature-256']]).toEqual(['', '', 'sha1=', 'sha256=']);
    expect(d!.headers.authorization).toBe(`Basic ${Buffer.from('hookuser:hookpass').toString('base64')}`);
    // Users in payloads are rendered for nobody (Gitea passes no doer): the placeholder address, never the real one.
    const placeholder = `${owner.name.toLowerCase()}@${s.app.config.service.noReplyAddress}`;
    expect([d!.json.pusher.email, d!.json.sender.email, d!.json.repository.owner.email]).toEqual([placeholder, placeholder, placeholder]);
    // (Commit authors keep the addresses recorded in git, as in Gitea.)
    expect(d!.json.commits[0].author.email).toBe(owner.email);
    await s.app.webhookWorker.idle();
    const task = await s.app.database.db.selectFrom('hook_task').selectAll().where('uuid', '=', String(d!.headers['x-gitea-delivery'])).executeTakeFirstOrThrow();
    const [attempt] = await s.app.database.db.selectFrom('hook_task_attempt').selectAll().where('task_id', '=', task.id).execute();
    const recorded = JSON.parse(attempt!.request);
    expect(recorded.url).toBe(`http://hookuser:******@127.0.0.1:${rx.port}/hook`);
    expect(attempt!.request).not.toContain('hookpass');
    expect(task.payload).not.toContain('hookpass');
  });

  it('a slow receiver does not hold back the deliveries of other hooks', async () => {
    const repo = await newRepo({ auto_init: true });
    const add = async (url: string) => (await s.client.post(hooksOf(repo), { type: 'gitea', active: true, config: { url, content_type: 'json' } }, { token: owner.token })).body.id as number;
    const slow = await add(rx.url);
    const fast = await add(rx2.url);
    rx.delayMs = 3000;
    expect((await s.client.post(`${hooksOf(repo)}/${slow}/tests`, undefined, { token: owner.token })).status).toBe(204);
    for (let i = 0; i < 100 && rx.connections === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(rx.connections).toBe(1);
    const t0 = Date.now();
    expect((await s.client.post(`${hooksOf(repo)}/${fast}/tests`, undefined, { token: owner.token })).status).toBe(204);
    await rx2.waitFor(1);
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(rx.deliveries).toHaveLength(0);
    await rx.waitFor(1, 5000);
  });

  it('a user is not an organization: /orgs/{user}/hooks is 404, even for that user', async () => {
    const r = await s.client.get(`/orgs/${owner.name}/hooks`, { token: owner.token });
    expect([r.status, r.body]).toEqual([404, err("The target couldn't be found.")]);
  });

  it('write collaborators get 403 on every hook route; another repository\'s hook id is 404 on every route', async () => {
    const repo = await newRepo({ auto_init: true });
    const writer = await s.createUser();
    expect((await s.client.put(`/repos/${owner.name}/${repo}/collaborators/${writer.name}`, { permission: 'write' }, { token: owner.token })).status).toBe(204);
    const h = await s.client.post(hooksOf(repo), { type: 'gitea', config: { url: rx.url, content_type: 'json', secret: 'topsecret' } }, { token: owner.token });
    const forbidden = err('user should be an owner or a collaborator with admin write of a repository');
    for (const [method, path] of [
      ['GET', hooksOf(repo)],
      ['POST', hooksOf(repo)],
      ['GET', `${hooksOf(repo)}/${h.body.id}`],
      ['PATCH', `${hooksOf(repo)}/${h.body.id}`],
      ['DELETE', `${hooksOf(repo)}/${h.body.id}`],
      ['POST', `${hooksOf(repo)}/${h.body.id}/tests`],
    ] as const) {
      const body = method === 'POST' && !path.endsWith('tests') ? { type: 'gitea', config: { url: rx.url, content_type: 'json' } } : method === 'PATCH' ? { active: true } : undefined;
      const r = await s.client.request(method, path, { token: writer.token, ...(body ? { body } : {}) });
      expect([method, path, r.status, r.body]).toEqual([method, path, 403, forbidden]);
    }
    // The writer's own repository does not open the owner's hooks by id.
    const mine = uniqueName('ws');
    expect((await s.client.post('/user/repos', { name: mine, auto_init: true }, { token: writer.token })).status).toBe(201);
    for (const [method, suffix] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/tests']] as const) {
      const path = `/repos/${writer.name}/${mine}/hooks/${h.body.id}${suffix}`;
      const r = await s.client.request(method, path, { token: writer.token, ...(method === 'PATCH' ? { body: { active: true } } : {}) });
      expect([method, path, r.status, r.body]).toEqual([method, path, 404, err("The target couldn't be found.")]);
    }
    // Untouched, and the secret appears in no response (get, list, edit).
    const after = await s.client.get(`${hooksOf(repo)}/${h.body.id}`, { token: owner.token });
    expect(after.body.active).toBe(false);
    const list = await s.client.get(hooksOf(repo), { token: owner.token });
    const edited = await s.client.patch(`${hooksOf(repo)}/${h.body.id}`, { config: { secret: 'topsecret2' } }, { token: owner.token });
    for (const t of [h.text, after.text, list.text, edited.text]) expect(t).not.toContain('topsecret');
    await s.app.webhookWorker.idle();
    expect(rx.deliveries).toHaveLength(0);
  });
});
