// Webhook delivery end to end with a real receiver on loopback: events from git pushes and API calls, headers
// and signatures, payload shapes against our PushPayload/CreatePayload/... definitions, branch filters, form
// bodies, retries, the test endpoint, and the host policy at delivery.
import { it, expect, beforeAll, afterAll, beforeEach } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { createGitCli, type GitCli, tokenRemote, CLIENT_EMAIL } from '../../helpers/gitcli.js';
import { hmac256, payloadProblem, startReceiver, type Delivery, type Receiver } from './receiver.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ZERO = '0'.repeat(40);

describeDb('webhook delivery', () => {
  let s: TestServer;
  let git: GitCli;
  let rx: Receiver;
  let owner: TestUser;

  beforeAll(async () => {
    s = await startServer({ overrides: { webhook: { ALLOWED_HOST_LIST: 'loopback', RETRY_BACKOFF_MS: '100', MAX_ATTEMPTS: '3' } } });
    git = await createGitCli();
    owner = await s.createUser();
  });
  afterAll(async () => {
    await rx?.close();
    await s?.close();
    await git?.close();
  });
  beforeEach(async () => {
    await rx?.close();
    rx = await startReceiver();
  });

  const newRepo = async (body: Record<string, unknown> = {}) => {
    const name = uniqueName('wh');
    const r = await s.client.post('/user/repos', { name, ...body }, { token: owner.token });
    expect(r.status).toBe(201);
    return name;
  };
  const addHook = async (repo: string, body: Record<string, unknown> = {}, config: Record<string, string> = {}) => {
    const r = await s.client.post(`/repos/${owner.name}/${repo}/hooks`, { type: 'gitea', active: true, ...body, config: { url: rx.url, content_type: 'json', ...config } }, { token: owner.token });
    expect(r.status).toBe(201);
    return r.body.id as number;
  };
  const byEvent = (ds: Delivery[], type: string) => ds.filter((d) => d.headers['x-gitea-event-type'] === type);
  const settle = () => s.app.webhookWorker.idle();

  it('a git push delivers push and create with Gitea headers, signature and payload shapes', async () => {
    const repo = await newRepo();
    await addHook(repo, { events: ['push', 'create'] }, { secret: 'topsecret' });
    const local = await git.initWithCommit('main', { 'a.txt': 'one' });
    const c2 = await git.commit(local, { 'b.txt': 'two', 'a.txt': 'changed' }, 'second commit\n\nwith body');
    const t0 = Date.now();
    await git.ok(['push', tokenRemote(s.url, owner, repo), 'main'], { cwd: local });
    const ds = await rx.waitFor(2);
    // The push returns before delivery, and delivery follows quickly (woken in-process, no polling delay).
    expect(Date.now() - t0).toBeLessThan(5000);
    const create = byEvent(ds, 'create')[0]!;
    const push = byEvent(ds, 'push')[0]!;
    expect(create.json).toMatchObject({ ref: 'main', ref_type: 'branch', sha: c2 });
    expect(payloadProblem('CreatePayload', create.json)).toBeNull();
    expect(create.json.repository.permissions).toEqual({ admin: false, push: false, pull: false });

    expect(push.method).toBe('POST');
    expect(push.headers['content-type']).toBe('application/json');
    expect(push.headers['x-gitea-event']).toBe('push');
    expect(push.headers['x-github-event']).toBe('push');
    expect(push.headers['x-gogs-event']).toBe('push');
    expect(push.headers['x-gitea-delivery']).toMatch(UUID);
    expect(push.headers['x-github-delivery']).toBe(push.headers['x-gitea-delivery']);
    expect(push.headers['x-gogs-delivery']).toBe(push.headers['x-gitea-delivery']);
    expect(create.headers['x-gitea-delivery']).not.toBe(push.headers['x-gitea-delivery']);
    const sig = hmac256('topsecret', push.body);
    expect(push.headers['x-gitea-signature']).toBe(sig);
    expect(push.headers['x-gogs-signature']).toBe(sig);
    expect(push.headers['x-hub-signature-256']).toBe(`sha256=${sig}`);
    expect(push.headers['x-hub-signature']).toMatch(/^sha1=[0-9a-f]{40}$/);
    expect(push.headers.authorization).toBeUndefined();
    // Pretty-printed with two spaces, as Gitea stores it.
    expect(push.body).toBe(JSON.stringify(push.json, null, 2));

    expect(payloadProblem('PushPayload', push.json)).toBeNull();
    const p = push.json;
    expect(p).toMatchObject({ ref: 'refs/heads/main', before: ZERO, after: c2, total_commits: 2 });
    expect(p.commits.map((c: any) => c.id)).toEqual([c2, expect.any(String)]);
    expect(p.head_commit.id).toBe(c2);
    expect(p.commits[0]).toMatchObject({
      message: 'second commit\n\nwith body\n',
      url: `${s.url}/${owner.name}/${repo}/commit/${c2}`,
      author: { name: 'Test Pusher', email: CLIENT_EMAIL, username: '' },
      added: ['b.txt'],
      modified: ['a.txt'],
      removed: [],
    });
    expect(p.pusher.login).toBe(owner.name);
    expect(p.sender.login).toBe(owner.name);
    expect(p.repository.full_name).toBe(`${owner.name}/${repo}`);
    expect(p.repository.permissions).toEqual({ admin: true, push: true, pull: true });

    // An update of the branch: one push, compare from the old tip.
    const c3 = await git.commit(local, { 'c.txt': 'three' }, 'third');
    await git.ok(['push', tokenRemote(s.url, owner, repo), 'main'], { cwd: local });
    const [, , update] = await rx.waitFor(3);
    expect(update!.json).toMatchObject({ before: c2, after: c3, total_commits: 1, compare_url: `${s.url}/${owner.name}/${repo}/compare/${c2}...${c3}` });

    // Deleting a branch over git: delete (+ push with a zero after).
    await git.ok(['push', tokenRemote(s.url, owner, repo), 'main:side'], { cwd: local });
    await rx.waitFor(5);
    await git.ok(['push', tokenRemote(s.url, owner, repo), ':side'], { cwd: local });
    const all = await rx.waitFor(6);
    const last = all[5]!;
    expect(last.headers['x-gitea-event-type']).toBe('push');
    expect(last.json).toMatchObject({ ref: 'refs/heads/side', before: c3, after: ZERO, commits: [], total_commits: 0, head_commit: null });
    await settle();
    expect(rx.deliveries).toHaveLength(6);
  });

  it('commits through the contents API, branches and tags through the API fire push, create and delete', async () => {
    const repo = await newRepo({ auto_init: true });
    await addHook(repo, { events: ['push', 'create', 'delete'] });
    const f = await s.client.post(`/repos/${owner.name}/${repo}/contents/x.md`, { content: Buffer.from('hi').toString('base64'), message: 'add x' }, { token: owner.token });
    expect(f.status).toBe(201);
    const [push] = await rx.waitFor(1);
    expect(push!.json).toMatchObject({ ref: 'refs/heads/main', after: f.body.commit.sha, total_commits: 1 });
    expect(push!.json.commits[0].added).toEqual(['x.md']);
    expect(push!.json.commits[0].author.username).toBe(owner.name);

    expect((await s.client.post(`/repos/${owner.name}/${repo}/branches`, { new_branch_name: 'feat' }, { token: owner.token })).status).toBe(201);
    const ds = await rx.waitFor(3);
    expect(byEvent(ds, 'create')[0]!.json).toMatchObject({ ref: 'feat', ref_type: 'branch', sha: f.body.commit.sha });
    // No new commits on the new branch, but head_commit is its tip (as Gitea sends it).
    const branchPush = byEvent(ds, 'push')[1]!.json;
    expect(branchPush).toMatchObject({ ref: 'refs/heads/feat', before: ZERO, after: f.body.commit.sha, commits: [], total_commits: 0 });
    expect(branchPush.head_commit).toMatchObject({ id: f.body.commit.sha, message: 'add x\n', author: { username: owner.name } });
    expect(payloadProblem('PushPayload', branchPush)).toBeNull();

    expect((await s.client.delete(`/repos/${owner.name}/${repo}/branches/feat`, { token: owner.token })).status).toBe(204);
    const ds2 = await rx.waitFor(5);
    const del = byEvent(ds2, 'delete')[0]!;
    expect(del.json).toMatchObject({ ref: 'feat', ref_type: 'branch', pusher_type: 'user' });
    expect(payloadProblem('DeletePayload', del.json)).toBeNull();

    expect((await s.client.post(`/repos/${owner.name}/${repo}/tags`, { tag_name: 'v1' }, { token: owner.token })).status).toBe(201);
    const ds3 = await rx.waitFor(7);
    expect(byEvent(ds3, 'create')[1]!.json).toMatchObject({ ref: 'v1', ref_type: 'tag' });
    expect(byEvent(ds3, 'push')[3]!.json).toMatchObject({ ref: 'refs/tags/v1', commits: [], total_commits: 0, head_commit: null, compare_url: `${s.url}/` });
  });

  it('branch_filter limits push/create/delete to matching branches, not tags', async () => {
    const repo = await newRepo();
    await addHook(repo, { events: ['push'], branch_filter: '{main,release/*}' });
    const local = await git.initWithCommit('main', { 'a.txt': 'one' });
    await git.ok(['push', tokenRemote(s.url, owner, repo), 'main', 'main:dev', 'main:release/1.0'], { cwd: local });
    await git.ok(['tag', 'v9'], { cwd: local });
    await git.ok(['push', tokenRemote(s.url, owner, repo), 'v9'], { cwd: local });
    await rx.waitFor(3);
    await settle();
    expect(rx.deliveries.map((d) => d.json.ref).sort()).toEqual(['refs/heads/main', 'refs/heads/release/1.0', 'refs/tags/v9']);
  });

  it('form content type sends payload= and signs the JSON text; Authorization is sent but stored masked', async () => {
    const repo = await newRepo({ auto_init: true });
    const id = await addHook(repo, { authorization_header: 'Bearer sekret' }, { content_type: 'form', secret: 'k' });
    expect((await s.client.post(`/repos/${owner.name}/${repo}/hooks/${id}/tests`, undefined, { token: owner.token })).status).toBe(204);
    const [d] = await rx.waitFor(1);
    expect(d!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(d!.body.startsWith('payload=')).toBe(true);
    const text = new URLSearchParams(d!.body).get('payload')!;
    expect(d!.headers['x-gitea-signature']).toBe(hmac256('k', text));
    expect(d!.headers.authorization).toBe('Bearer sekret');
    // The test delivery: a push of the default branch head, repository rendered with no access.
    expect(d!.json).toMatchObject({ ref: 'refs/heads/main', total_commits: 1 });
    expect(d!.json.before).toBe(d!.json.after);
    expect(d!.json.repository.permissions).toEqual({ admin: false, push: false, pull: false });
    expect(payloadProblem('PushPayload', d!.json)).toBeNull();
    await settle();
    const task = await s.app.database.db.selectFrom('hook_task').selectAll().where('uuid', '=', String(d!.headers['x-gitea-delivery'])).executeTakeFirstOrThrow();
    expect(task).toMatchObject({ is_delivered: 1, is_succeed: 1, attempts: 1 });
    const [attempt] = await s.app.database.db.selectFrom('hook_task_attempt').selectAll().where('task_id', '=', task.id).execute();
    const req = JSON.parse(attempt!.request);
    expect(req.headers.Authorization).toBe('******');
    expect(JSON.stringify(req)).not.toContain('sekret');
    expect(JSON.parse(attempt!.response)).toMatchObject({ status: 200, body: 'answer 0', headers: { 'x-receiver': 'yes' } });
  });

  it('the test endpoint: empty repository sends nothing, unknown ref 404', async () => {
    const empty = await newRepo();
    const id = await addHook(empty);
    expect((await s.client.post(`/repos/${owner.name}/${empty}/hooks/${id}/tests`, undefined, { token: owner.token })).status).toBe(204);
    const full = await newRepo({ auto_init: true });
    const id2 = await addHook(full);
    const r = await s.client.post(`/repos/${owner.name}/${full}/hooks/${id2}/tests?ref=nope`, undefined, { token: owner.token });
    expect(r.status).toBe(404);
    await settle();
    expect(rx.deliveries).toHaveLength(0);
  });

  it('retries a failing receiver with backoff and records each attempt', async () => {
    const repo = await newRepo({ auto_init: true });
    const id = await addHook(repo);
    rx.respond = (n) => (n === 0 ? 500 : 200);
    expect((await s.client.post(`/repos/${owner.name}/${repo}/hooks/${id}/tests`, undefined, { token: owner.token })).status).toBe(204);
    const [a, b] = await rx.waitFor(2);
    expect(b!.headers['x-gitea-delivery']).toBe(a!.headers['x-gitea-delivery']);
    expect(b!.body).toBe(a!.body);
    await settle();
    const task = await s.app.database.db.selectFrom('hook_task').selectAll().where('uuid', '=', String(a!.headers['x-gitea-delivery'])).executeTakeFirstOrThrow();
    expect(task).toMatchObject({ is_delivered: 1, is_succeed: 1, attempts: 2 });
    const attempts = await s.app.database.db.selectFrom('hook_task_attempt').selectAll().where('task_id', '=', task.id).orderBy('attempt').execute();
    expect(attempts.map((x) => [x.attempt, x.is_succeed, JSON.parse(x.response).status])).toEqual([[1, 0, 500], [2, 1, 200]]);
    expect(attempts[0]!.error).toBe('the receiver answered 500');

    // A receiver that always fails gets MAX_ATTEMPTS (3) tries, then the delivery is given up.
    rx.respond = () => 503;
    const before = rx.deliveries.length;
    expect((await s.client.post(`/repos/${owner.name}/${repo}/hooks/${id}/tests`, undefined, { token: owner.token })).status).toBe(204);
    await rx.waitFor(before + 3);
    await settle();
    expect(rx.deliveries.length).toBe(before + 3);
  });

  it('fork goes to the source repository\'s hooks; repository created/deleted to owner hooks', async () => {
    const src = await newRepo({ auto_init: true });
    await addHook(src, { events: ['fork'] });
    const forker = await s.createUser();
    const f = await s.client.post(`/repos/${owner.name}/${src}/forks`, {}, { token: forker.token });
    expect(f.status).toBe(202);
    const [fork] = await rx.waitFor(1);
    expect(fork!.headers['x-gitea-event']).toBe('fork');
    expect(fork!.json.forkee.full_name).toBe(`${owner.name}/${src}`);
    expect(fork!.json.repository.full_name).toBe(`${forker.name}/${src}`);
    expect(fork!.json.sender.login).toBe(forker.name);
    expect(payloadProblem('ForkPayload', fork!.json)).toBeNull();

    // User hooks hear of the user's repositories being created and deleted.
    const u = await s.client.post('/user/hooks', { type: 'gitea', active: true, events: ['repository'], config: { url: rx.url, content_type: 'json' } }, { token: forker.token });
    expect(u.status).toBe(201);
    const name = uniqueName('wh');
    expect((await s.client.post('/user/repos', { name }, { token: forker.token })).status).toBe(201);
    expect((await s.client.delete(`/repos/${forker.name}/${name}`, { token: forker.token })).status).toBe(204);
    const [, created, deleted] = await rx.waitFor(3);
    expect(created!.json).toMatchObject({ action: 'created', repository: { full_name: `${forker.name}/${name}` }, organization: { login: forker.name }, sender: { login: forker.name } });
    expect(deleted!.json).toMatchObject({ action: 'deleted', repository: { full_name: `${forker.name}/${name}` } });
    expect(payloadProblem('RepositoryPayload', created!.json)).toBeNull();
    expect(deleted!.headers['x-gitea-event']).toBe('repository');
  });

  it('organization hooks hear of the organization\'s repositories and their pushes', async () => {
    const org = uniqueName('org');
    expect((await s.client.post('/orgs', { username: org }, { token: owner.token })).status).toBe(201);
    const h = await s.client.post(`/orgs/${org}/hooks`, { type: 'gitea', active: true, events: ['repository', 'push'], config: { url: rx.url, content_type: 'json' } }, { token: owner.token });
    expect(h.status).toBe(201);
    const name = uniqueName('wh');
    expect((await s.client.post(`/orgs/${org}/repos`, { name }, { token: owner.token })).status).toBe(201);
    const [created] = await rx.waitFor(1);
    expect(created!.json).toMatchObject({ action: 'created', repository: { full_name: `${org}/${name}` }, organization: { login: org }, sender: { login: owner.name } });
    const f = await s.client.post(`/repos/${org}/${name}/contents/a.md`, { content: Buffer.from('a').toString('base64') }, { token: owner.token });
    expect(f.status).toBe(201);
    const [, push] = await rx.waitFor(2);
    expect(push!.json).toMatchObject({ ref: 'refs/heads/main', after: f.body.commit.sha, repository: { full_name: `${org}/${name}` } });
  });

  it('chat hook types get their own compact formats, signed over the sent body', async () => {
    const repo = await newRepo({ auto_init: true });
    const slack = await addHook(repo, { type: 'slack' }, { channel: '#dev', username: 'anvil', secret: 'k' });
    const discord = await addHook(repo, { type: 'discord' });
    const matrix = await addHook(repo, { type: 'matrix' });
    for (const id of [slack, discord, matrix]) {
      expect((await s.client.post(`/repos/${owner.name}/${repo}/hooks/${id}/tests`, undefined, { token: owner.token })).status).toBe(204);
    }
    const ds = await rx.waitFor(3);
    const sl = ds.find((d) => d.json?.channel)!;
    expect(sl.json).toMatchObject({ channel: '#dev', username: 'anvil', attachments: [{ title: expect.stringContaining(`[${owner.name}/${repo}:main] 1 new commit`) }] });
    expect(sl.headers['x-gitea-signature']).toBe(hmac256('k', sl.body));
    expect(sl.headers['x-gitea-event']).toBe('push');
    const dc = ds.find((d) => d.json?.embeds)!;
    expect(dc.json.embeds[0]).toMatchObject({ title: expect.stringContaining('1 new commit'), url: expect.stringContaining('/compare/') });
    const mx = ds.find((d) => d.method === 'PUT')!;
    expect(mx.url).toMatch(/^\/hook\/[0-9a-f]{40}$/);
    expect(mx.json).toMatchObject({ msgtype: 'm.notice', format: 'org.matrix.custom.html' });
  });

  it('a redirect to a disallowed address is not followed: failed attempt, no retry', async () => {
    const repo = await newRepo({ auto_init: true });
    const id = await addHook(repo);
    rx.respond = () => 307;
    rx.location = 'http://10.255.255.1/internal';
    expect((await s.client.post(`/repos/${owner.name}/${repo}/hooks/${id}/tests`, undefined, { token: owner.token })).status).toBe(204);
    const [d] = await rx.waitFor(1);
    await settle();
    expect(rx.deliveries).toHaveLength(1);
    const task = await s.app.database.db.selectFrom('hook_task').selectAll().where('uuid', '=', String(d!.headers['x-gitea-delivery'])).executeTakeFirstOrThrow();
    expect(task).toMatchObject({ is_delivered: 1, is_succeed: 0, attempts: 1 });
    const [attempt] = await s.app.database.db.selectFrom('hook_task_attempt').selectAll().where('task_id', '=', task.id).execute();
    expect(attempt!.error).toBe('the target host is not allowed by [webhook] ALLOWED_HOST_LIST');
  });

  it('issue and pull request payloads (defined for their services): commit_id, review requests', async () => {
    const repo = await newRepo();
    await addHook(repo, { events: ['issues', 'pull_request'] });
    const svc = s.app.services;
    const me = await svc.users.resolveAny(owner.name);
    const reviewer = await s.createUser();
    const rv = await svc.users.resolveAny(reviewer.name);
    const access = await svc.repos.resolve(owner.name, repo, { user: me, method: 'token', viaBasic: false, scopes: null });
    const emit = (e: Parameters<typeof svc.events.emit>[1]) => s.app.database.db.transaction().execute((trx) => svc.events.emit(trx, e)).then(() => svc.events.wake());
    await emit({ type: 'issues', repo: access, repoMode: 4, sender: me, action: 'closed', number: 3, issue: { number: 3, state: 'closed' } });
    await emit({
      type: 'pull_request_review_request', repo: access, repoMode: 4, sender: me, action: 'review_requested', number: 4,
      pullRequest: { number: 4, requested_reviewers: [{ login: reviewer.name }] }, requestedReviewer: rv,
    });
    const [issue, pr] = await rx.waitFor(2);
    expect(issue!.headers['x-gitea-event']).toBe('issues');
    expect(issue!.json).toMatchObject({ action: 'closed', number: 3, commit_id: '', issue: { state: 'closed' }, sender: { login: owner.name } });
    expect(issue!.json.changes).toBeUndefined();
    expect(pr!.headers['x-gitea-event']).toBe('pull_request');
    expect(pr!.headers['x-gitea-event-type']).toBe('pull_request_review_request');
    expect(pr!.json).toMatchObject({
      action: 'review_requested', number: 4, commit_id: '', requested_reviewer: { login: reviewer.name },
      pull_request: { requested_reviewers: [{ login: reviewer.name }] },
    });
  });

  it('inactive hooks and hooks without the event receive nothing; system hooks receive everything', async () => {
    const repo = await newRepo();
    await addHook(repo, { active: false });
    await addHook(repo, { events: ['fork'] });
    const sys = await s.client.post('/admin/hooks', { type: 'gitea', active: true, events: ['push'], config: { url: `${rx.url}?sys=1`, content_type: 'json', is_system_webhook: 'true' } }, { token: s.admin.token });
    expect(sys.status).toBe(201);
    try {
      const local = await git.initWithCommit('main', { 'a.txt': 'one' });
      await git.ok(['push', tokenRemote(s.url, owner, repo), 'main'], { cwd: local });
      await rx.waitFor(1);
      await settle();
      expect(rx.deliveries.map((d) => d.url)).toEqual(['/hook?sys=1']);
    } finally {
      await s.client.delete(`/admin/hooks/${sys.body.id}`, { token: s.admin.token });
    }
  });
});
