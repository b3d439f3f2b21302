// [cron.cleanup_hook_task_table]: delivered webhook deliveries are pruned (older than OLDER_THAN, or beyond
// NUMBER_TO_KEEP per hook) with their attempts; deliveries still pending are never touched.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

const DAY = 86_400_000;

describeDb('webhook delivery cleanup', () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx?.close();
  });

  /** A repository with one hook to the receiver and `n` test deliveries, all delivered. */
  async function hookWithDeliveries(s: TestServer, owner: TestUser, n: number) {
    const repo = uniqueName('clean');
    expect((await s.client.post('/user/repos', { name: repo, auto_init: true }, { token: owner.token })).status).toBe(201);
    const r = await s.client.post(`/repos/${owner.name}/${repo}/hooks`, { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' } }, { token: owner.token });
    expect(r.status).toBe(201);
    const hookId = r.body.id as number;
    for (let i = 0; i < n; i++) expect((await s.client.post(`/repos/${owner.name}/${repo}/hooks/${hookId}/tests`, undefined, { token: owner.token })).status).toBe(204);
    await s.app.webhookWorker.idle();
    expect(rx.deliveries.filter((d) => d.json?.repository?.name === repo)).toHaveLength(n);
    return hookId;
  }
  const tasks = (s: TestServer, hookId: number) =>
    s.app.database.db.selectFrom('hook_task').select(['id', 'is_delivered']).where('hook_id', '=', hookId).orderBy('id').execute();
  const attemptCount = async (s: TestServer, taskIds: number[]) =>
    taskIds.length === 0
      ? 0
      : Number((await s.app.database.db.selectFrom('hook_task_attempt').select((eb) => eb.fn.countAll<number>().as('n')).where('task_id', 'in', taskIds).executeTakeFirstOrThrow()).n);

  describe('OlderThan (the default, 168h)', () => {
    let s: TestServer;
    let owner: TestUser;
    beforeAll(async () => {
      s = await startServer({ overrides: { webhook: { ALLOWED_HOST_LIST: 'loopback' } } });
      owner = await s.createUser();
    });
    afterAll(async () => {
      await s?.close();
    });

    it('deletes deliveries delivered more than OLDER_THAN ago, with their attempts, and keeps the rest', async () => {
      const hookId = await hookWithDeliveries(s, owner, 4);
      const before = await tasks(s, hookId);
      expect(before.map((t) => Number(t.is_delivered))).toEqual([1, 1, 1, 1]);
      const ids = before.map((t) => Number(t.id));
      // Two delivered eight days ago; one pending row from long ago that has not been sent yet.
      await s.app.database.db.updateTable('hook_task').set({ delivered_ms: Date.now() - 8 * DAY }).where('id', 'in', ids.slice(0, 2)).execute();
      await s.app.database.db.updateTable('hook_task').set({ is_delivered: 0, delivered_ms: 0, created_ms: Date.now() - 30 * DAY, next_attempt_ms: Date.now() + DAY }).where('id', '=', ids[2]!).execute();
      expect(await attemptCount(s, ids.slice(0, 2))).toBe(2);
      expect(await s.app.webhookWorker.cleanup()).toBe(2);
      expect((await tasks(s, hookId)).map((t) => Number(t.id))).toEqual(ids.slice(2));
      expect(await attemptCount(s, ids.slice(0, 2))).toBe(0);
      expect(await s.app.webhookWorker.cleanup()).toBe(0);
    });

    it('works through a long history in bounded batches', async () => {
      const hookId = await hookWithDeliveries(s, owner, 1);
      const old = Date.now() - 30 * DAY;
      const rows = Array.from({ length: 1234 }, (_, i) => ({
        hook_id: hookId,
        uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        event_type: 'push',
        payload: '{}',
        is_delivered: 1,
        is_succeed: 1,
        attempts: 1,
        created_ms: old,
        delivered_ms: old,
        next_attempt_ms: 0,
        claimed_by: '',
        claim_until_ms: 0,
      }));
      for (let i = 0; i < rows.length; i += 200) await s.app.database.db.insertInto('hook_task').values(rows.slice(i, i + 200)).execute();
      expect(await s.app.webhookWorker.cleanup()).toBe(1234);
      expect(await tasks(s, hookId)).toHaveLength(1);
    });
  });

  describe('PerWebhook', () => {
    let s: TestServer;
    let owner: TestUser;
    beforeAll(async () => {
      s = await startServer({
        overrides: { webhook: { ALLOWED_HOST_LIST: 'loopback' }, 'cron.cleanup_hook_task_table': { CLEANUP_TYPE: 'PerWebhook', NUMBER_TO_KEEP: '2' } },
      });
      owner = await s.createUser();
    });
    afterAll(async () => {
      await s?.close();
    });

    it('keeps the NUMBER_TO_KEEP most recently delivered rows of each hook', async () => {
      const a = await hookWithDeliveries(s, owner, 5);
      const b = await hookWithDeliveries(s, owner, 1);
      const aIds = (await tasks(s, a)).map((t) => Number(t.id));
      const bIds = (await tasks(s, b)).map((t) => Number(t.id));
      expect(aIds).toHaveLength(5);
      expect(bIds).toHaveLength(1);
      // Delivery time decides, not creation order: the first row was delivered last (after a retry, say).
      const base = Date.now() - DAY;
      for (const [k, id] of aIds.entries()) await s.app.database.db.updateTable('hook_task').set({ delivered_ms: k === 0 ? base + 10_000 : base + k * 1000 }).where('id', '=', id).execute();
      expect(await s.app.webhookWorker.cleanup()).toBe(3);
      expect((await tasks(s, a)).map((t) => Number(t.id))).toEqual([aIds[0], aIds[4]]);
      expect((await tasks(s, b)).map((t) => Number(t.id))).toEqual(bIds);
      expect(await attemptCount(s, aIds.slice(1, 4))).toBe(0);
      expect(await attemptCount(s, [aIds[0]!, aIds[4]!])).toBe(2);
    });
  });

  describe('on its schedule', () => {
    let s: TestServer;
    let owner: TestUser;
    beforeAll(async () => {
      s = await startServer({ overrides: { webhook: { ALLOWED_HOST_LIST: 'loopback' }, 'cron.cleanup_hook_task_table': { SCHEDULE: '@every 1s' } } });
      owner = await s.createUser();
    });
    afterAll(async () => {
      await s?.close();
    });

    it('runs without being asked', async () => {
      const hookId = await hookWithDeliveries(s, owner, 2);
      const ids = (await tasks(s, hookId)).map((t) => Number(t.id));
      expect(ids).toHaveLength(2);
      await s.app.database.db.updateTable('hook_task').set({ delivered_ms: Date.now() - 8 * DAY }).where('id', '=', ids[0]!).execute();
      const deadline = Date.now() + 10_000;
      while ((await tasks(s, hookId)).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect((await tasks(s, hookId)).map((t) => Number(t.id))).toEqual([ids[1]]);
    });
  });
});
