// Durable delivery: rows written with the change survive a restart and are sent by the next process, each once
// with its delivery id; a hook whose host became disallowed records a failed attempt and is never dialled; two
// app instances on one PostgreSQL database send each row exactly once.
import { it, expect, beforeEach, afterEach } from '@jest/globals';
import { createApp, type App } from '../../../src/app.js';
import type { Config } from '../../../src/config/index.js';
import { createLogger } from '../../../src/log.js';
import { describeDb, startServer, testDb, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

describeDb('webhook durability', () => {
  let s: TestServer;
  let rx: Receiver;
  let owner: TestUser;
  const extra: App[] = [];

  beforeEach(async () => {
    s = await startServer({ overrides: { webhook: { ALLOWED_HOST_LIST: 'loopback', RETRY_BACKOFF_MS: '100', POLL_INTERVAL_MS: '200' } } });
    owner = await s.createUser();
    rx = await startReceiver();
  });
  afterEach(async () => {
    for (const a of extra.splice(0)) await a.close();
    await rx?.close();
    await s?.close();
  });

  /** Another process on the same data directory and database (not listening: delivery needs no HTTP). */
  const openApp = async (config: Config = s.app.config) => {
    const app = await createApp({ config, log: createLogger('none') });
    extra.push(app);
    return app;
  };

  const repoWithHook = async () => {
    const repo = uniqueName('wd');
    expect((await s.client.post('/user/repos', { name: repo, auto_init: true }, { token: owner.token })).status).toBe(201);
    const h = await s.client.post(`/repos/${owner.name}/${repo}/hooks`, { type: 'gitea', active: true, events: ['create', 'push'], config: { url: rx.url, content_type: 'json' } }, { token: owner.token });
    expect(h.status).toBe(201);
    return { repo, hookId: h.body.id as number };
  };

  const pendingCount = async (app: App) =>
    Number((await app.database.db.selectFrom('hook_task').select((eb) => eb.fn.countAll<number>().as('n')).where('is_delivered', '=', 0).executeTakeFirstOrThrow()).n);

  it('pending deliveries survive a restart: all arrive once each, with their delivery ids', async () => {
    const { repo } = await repoWithHook();
    // The first process writes rows but its worker is stopped, as if it died before sending.
    await s.app.webhookWorker.stop();
    for (let i = 0; i < 10; i++) {
      expect((await s.client.post(`/repos/${owner.name}/${repo}/branches`, { new_branch_name: `b${i}` }, { token: owner.token })).status).toBe(201);
    }
    const rows = await s.app.database.db.selectFrom('hook_task').select(['uuid', 'event_type']).where('is_delivered', '=', 0).execute();
    expect(rows).toHaveLength(20);
    expect(rx.deliveries).toHaveLength(0);
    await s.app.close();

    const next = await openApp();
    const got = await rx.waitFor(20);
    await next.webhookWorker.idle();
    expect(rx.deliveries).toHaveLength(20);
    const ids = got.map((d) => String(d.headers['x-gitea-delivery']));
    expect(new Set(ids).size).toBe(20);
    expect(ids.sort()).toEqual(rows.map((r) => r.uuid).sort());
    expect(await pendingCount(next)).toBe(0);
  });

  it('a restart in the middle of a batch: deliveries in flight finish, the rest is sent by the next process, none twice', async () => {
    const { repo } = await repoWithHook();
    const access = await s.app.services.repos.resolve(owner.name, repo, { user: await s.app.services.users.resolveAny(owner.name), method: 'token', viaBasic: false, scopes: null });
    const hookId = (await s.client.get(`/repos/${owner.name}/${repo}/hooks`, { token: owner.token })).body[0].id;
    const hook = await s.app.services.webhooks.get({ kind: 'repo', access }, hookId);
    const prepared = await s.app.services.events.prepare(s.app.database.db, { type: 'create', repo: access, sender: access.owner, ref: 'x', refType: 'branch', sha: 'a'.repeat(40) });
    const N = 150;
    rx.delayMs = 300;
    await s.app.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < N; i++) await s.app.services.events.emitTo(trx, hook, prepared);
    });
    const ids = (await s.app.database.db.selectFrom('hook_task').select('uuid').execute()).map((r) => r.uuid);
    s.app.services.events.wake();
    // Close while the first batch is at the (slow) receiver.
    await new Promise((r) => setTimeout(r, 100));
    await s.app.close();
    const sentBefore = rx.deliveries.length;
    expect(sentBefore).toBeGreaterThan(0);
    expect(sentBefore).toBeLessThan(N);
    rx.delayMs = 0;
    const next = await openApp();
    await rx.waitFor(N, 20_000);
    await next.webhookWorker.idle();
    const got = rx.deliveries.map((d) => String(d.headers['x-gitea-delivery']));
    expect(got).toHaveLength(N);
    expect(new Set(got).size).toBe(N);
    expect(got.sort()).toEqual(ids.sort());
  });

  it('a crashed claimer\'s rows are sent again once its lease expires', async () => {
    const { repo } = await repoWithHook();
    await s.app.webhookWorker.stop();
    expect((await s.client.post(`/repos/${owner.name}/${repo}/branches`, { new_branch_name: 'x' }, { token: owner.token })).status).toBe(201);
    // A claim by a process that then died: the lease ran out a moment ago.
    await s.app.database.db.updateTable('hook_task').set({ claimed_by: 'dead:1', claim_until_ms: Date.now() - 1 }).where('is_delivered', '=', 0).execute();
    await s.app.close();
    const next = await openApp();
    await rx.waitFor(2);
    await next.webhookWorker.idle();
    expect(rx.deliveries).toHaveLength(2);
  });

  it('a hook whose host became disallowed records a failed attempt and the receiver sees no connection', async () => {
    const { repo, hookId } = await repoWithHook();
    await s.app.webhookWorker.stop();
    await s.app.close();
    // Same data, default policy (external only).
    const strict = await openApp({ ...s.app.config, webhook: { ...s.app.config.webhook, allowedHostList: ['external'] } });
    const repoAccess = await strict.services.repos.resolve(owner.name, repo, { user: await strict.services.users.resolveAny(owner.name), method: 'token', viaBasic: false, scopes: null });
    const doer = repoAccess.owner;
    await strict.services.branches.create(repoAccess, 'blocked', undefined, doer);
    await strict.webhookWorker.idle();
    expect(rx.connections).toBe(0);
    const tasks = await strict.database.db.selectFrom('hook_task').selectAll().where('hook_id', '=', hookId).execute();
    expect(tasks.length).toBe(2);
    for (const t of tasks) {
      expect(t).toMatchObject({ is_delivered: 1, is_succeed: 0, attempts: 1 });
      const [a] = await strict.database.db.selectFrom('hook_task_attempt').selectAll().where('task_id', '=', t.id).execute();
      expect(a!.error).toBe('the target host is not allowed by [webhook] ALLOWED_HOST_LIST');
      expect(a!.error).not.toContain('127.0.0.1');
    }
  });

  (testDb() === 'postgres' ? it : it.skip)('two instances on one PostgreSQL database deliver each row exactly once', async () => {
    const { repo } = await repoWithHook();
    const other = await openApp();
    const access = await s.app.services.repos.resolve(owner.name, repo, { user: await s.app.services.users.resolveAny(owner.name), method: 'token', viaBasic: false, scopes: null });
    const hook = await s.app.services.webhooks.get({ kind: 'repo', access }, (await s.client.get(`/repos/${owner.name}/${repo}/hooks`, { token: owner.token })).body[0].id);
    const prepared = await s.app.services.events.prepare(s.app.database.db, { type: 'create', repo: access, sender: access.owner, ref: 'x', refType: 'branch', sha: 'a'.repeat(40) });
    const N = 300;
    await s.app.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < N; i++) await s.app.services.events.emitTo(trx, hook, prepared);
    });
    // Both processes are woken at once and race for the rows.
    s.app.services.events.wake();
    other.services.events.wake();
    await rx.waitFor(N, 20_000);
    await Promise.all([s.app.webhookWorker.idle(), other.webhookWorker.idle()]);
    await new Promise((r) => setTimeout(r, 300));
    const ids = rx.deliveries.map((d) => String(d.headers['x-gitea-delivery']));
    expect(ids).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    const attempts = await s.app.database.db.selectFrom('hook_task_attempt').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(attempts.n)).toBe(N);
  });
});
