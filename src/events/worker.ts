/**
 * The delivery worker: claims due hook_task rows (a lease, so several processes on one PostgreSQL database
 * never send the same row twice and a crashed claimer's rows come back), sends them under the outbound host
 * policy, records every attempt and retries failures with exponential backoff a bounded number of times.
 * Woken in-process right after an emitting transaction commits; a slow poll covers other processes and restarts.
 * Delivered rows are pruned on Gitea's [cron.cleanup_hook_task_table] terms, so the outbox does not grow forever.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config/index.js';
import type { Db, DialectName } from '../db/index.js';
import * as hooksDb from '../db/webhooks.js';
import { publicEventName } from '../domain/webhook.js';
import type { Logger } from '../log.js';
import { OutboundBlockedError, webhookHostPolicy } from '../net/hostpolicy.js';
import { guardedAgents, outboundRequest } from '../net/request.js';
import { outgoing } from './formats.js';
import { toWebhook, type Outbox } from './outbox.js';

export interface DeliveryWorkerDeps {
  readonly db: Db;
  readonly dialect: DialectName;
  readonly config: Config;
  readonly log: Logger;
  readonly outbox: Outbox;
  readonly clock?: () => number;
}

export interface DeliveryWorker {
  start(): void;
  /** Stops claiming, waits (boundedly) for deliveries in flight, gives back claimed rows not yet sent. */
  stop(): Promise<void>;
  /** Resolves when nothing is due now (tests and benchmarks). */
  idle(): Promise<void>;
  /** Prunes delivered rows now, as the schedule does; resolves with how many went. */
  cleanup(): Promise<number>;
  readonly id: string;
}

const BATCH = 64;
const MAX_RESPONSE_BYTES = 16 * 1024;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Delivered rows deleted per statement by the cleanup. */
const CLEANUP_BATCH = 500;

/** The URL as recorded with an attempt: a password in its userinfo is masked like the Authorization header. */
export function maskUrlPassword(raw: string): string {
  try {
    const u = new URL(raw);
    if (!u.password) return raw;
    u.password = '******';
    return u.toString();
  } catch {
    return raw;
  }
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { db, dialect, config, log, outbox } = deps;
  const clock = deps.clock ?? Date.now;
  const wh = config.webhook;
  const id = `${hostname()}:${process.pid}:${randomUUID()}`;
  const policy = webhookHostPolicy(wh.allowedHostList);
  const agents = guardedAgents(policy, { maxSockets: 32, skipTlsVerify: wh.skipTlsVerify });
  // A lease comfortably longer than one attempt: a live claimer always finishes (or gives back) before it ends.
  const leaseMs = wh.deliverTimeoutMs * 2 + 10_000;

  let started = false;
  let stopped = false;
  let again = false;
  let loop: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let cleanupTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];
  /** Ends the delivery loop's wait for a free slot or new rows (kick while it runs). */
  let nudge: (() => void) | undefined;

  function kick(): void {
    if (stopped || !started) return;
    if (loop) {
      again = true;
      nudge?.();
      return;
    }
    if (timer) clearTimeout(timer);
    timer = undefined;
    loop = run()
      .catch((e: unknown) => log.warn('webhook delivery loop failed', { err: String(e) }))
      .finally(() => {
        loop = null;
        if (!stopped) void schedule();
      });
  }

  /**
   * At most BATCH deliveries in flight, topped up as each one ends (a sliding window, not batch by batch: one slow
   * or silent receiver must not hold back every other hook's deliveries until its timeout).
   */
  async function run(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    try {
      await fill(inFlight);
    } finally {
      // Also when claiming failed: the loop ends only with its deliveries (so a new loop cannot exceed the window).
      await Promise.all(inFlight);
    }
  }

  async function fill(inFlight: Set<Promise<void>>): Promise<void> {
    for (;;) {
      again = false;
      const room = BATCH - inFlight.size;
      const now = clock();
      const batch = room > 0 && !stopped ? await hooksDb.claimTasks(db, dialect, id, now, now + leaseMs, room) : [];
      if (stopped) {
        await hooksDb.releaseClaims(db, id, batch.map((t) => Number(t.id)));
        break;
      }
      for (const t of batch) {
        const p: Promise<void> = deliver(t)
          .catch((e: unknown) => log.warn('webhook delivery could not be recorded', { task: t.uuid, err: String(e) }))
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      // A full window or nothing due: wait for a delivery to end or for new rows (wake), then look again.
      if (batch.length === room || batch.length === 0) {
        if (inFlight.size === 0 && !again) break;
        if (!again) await new Promise<void>((resolve) => {
          nudge = resolve;
          void Promise.race(inFlight).then(() => resolve());
        });
        nudge = undefined;
      }
    }
  }

  async function schedule(): Promise<void> {
    let delay = wh.pollIntervalMs;
    try {
      const due = await hooksDb.nextDue(db);
      if (due !== null) delay = Math.min(delay, Math.max(0, due - clock()));
      // Idle: nothing due now (a retry scheduled for later does not count).
      if (due === null || due > clock()) {
        const waiters = idleWaiters;
        idleWaiters = [];
        waiters.forEach((w) => w());
      }
    } catch {
      /* the database may be closing; the poll tries again */
    }
    if (stopped || loop) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(kick, delay);
    timer.unref();
  }

  async function deliver(t: hooksDb.ClaimedTask): Promise<void> {
    const hook = toWebhook(t.hook, config.security.secretKey);
    const attempt = t.attempts + 1;
    const startedMs = clock();
    const finish = (rec: { ok: boolean; request: unknown; response: unknown; error: string; retry: boolean }) => {
      const durationMs = clock() - startedMs;
      const delivered = rec.ok || !rec.retry || attempt >= wh.maxAttempts;
      const backoff = Math.min(MAX_BACKOFF_MS, wh.retryBackoffMs * 2 ** (attempt - 1));
      // ±20% jitter so that retries of a burst do not arrive together.
      const retryAt = delivered ? 0 : clock() + Math.round(backoff * (0.8 + Math.random() * 0.4));
      return hooksDb.finishAttempt(
        db,
        Number(t.id),
        id,
        { attempt, isSucceed: rec.ok, request: JSON.stringify(rec.request), response: JSON.stringify(rec.response), error: rec.error, startedMs, durationMs },
        { delivered, retryAt },
      );
    };
    // Gitea: an inactive hook's task (only the test endpoint makes one) is skipped at delivery.
    if (!hook.isActive) return finish({ ok: false, request: null, response: null, error: 'the hook is not active', retry: false });
    const req = outgoing(hook, t.event_type, t.payload);
    if (!req) return finish({ ok: false, request: null, response: null, error: 'nothing to send for this hook type', retry: false });

    const sig256 = hook.secret ? createHmac('sha256', hook.secret).update(req.signed).digest('hex') : '';
    const sig1 = hook.secret ? createHmac('sha1', hook.secret).update(req.signed).digest('hex') : '';
    const event = publicEventName(t.event_type);
    const headers: Record<string, string> = {
      'Content-Type': req.contentType,
      'X-Gitea-Delivery': t.uuid,
      'X-Gitea-Event': event,
      'X-Gitea-Event-Type': t.event_type,
      'X-Gitea-Signature': sig256,
      'X-Gogs-Delivery': t.uuid,
      'X-Gogs-Event': event,
      'X-Gogs-Event-Type': t.event_type,
      'X-Gogs-Signature': sig256,
      'X-Hub-Signature': `sha1=${sig1}`,
      'X-Hub-Signature-256': `sha256=${sig256}`,
      'X-GitHub-Delivery': t.uuid,
      'X-GitHub-Event': event,
      'X-GitHub-Event-Type': t.event_type,
    };
    if (hook.authorizationHeader) headers.Authorization = hook.authorizationHeader;
    const recorded = { url: maskUrlPassword(req.url), method: req.method, headers: { ...headers, ...(headers.Authorization ? { Authorization: '******' } : {}) } };
    try {
      const res = await outboundRequest(req.url, {
        method: req.method,
        headers,
        body: req.body,
        timeoutMs: wh.deliverTimeoutMs,
        maxRedirects: 5,
        policy,
        agents,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        skipTlsVerify: wh.skipTlsVerify,
      });
      const ok = res.status >= 200 && res.status < 300;
      await finish({
        ok,
        request: recorded,
        response: { status: res.status, headers: res.headers, body: res.body.toString('utf8'), truncated: res.truncated },
        error: ok ? '' : `the receiver answered ${res.status}`,
        retry: true,
      });
    } catch (e) {
      const blocked = e instanceof OutboundBlockedError || (e as { code?: string }).code === 'ANVIL_OUTBOUND_BLOCKED';
      // A refused host stays refused: no retry. Messages never carry the resolved address.
      await finish({ ok: false, request: recorded, response: null, error: blocked ? 'the target host is not allowed by [webhook] ALLOWED_HOST_LIST' : (e as Error).message, retry: !blocked });
    }
  }

  /**
   * Gitea's cleanup: delivered rows older than OLDER_THAN, or all but each hook's newest NUMBER_TO_KEEP. Rows still
   * pending are never touched. Every process runs it; the deletes are idempotent. Batches of CLEANUP_BATCH with a
   * turn of the event loop between them; a run still going when the next is due is not doubled.
   */
  let cleaning: Promise<number> | undefined;
  function cleanup(): Promise<number> {
    cleaning ??= (async () => {
      const c = config.hookTaskCleanup;
      const before = clock() - c.olderThanMs;
      let total = 0;
      for (;;) {
        const n = c.type === 'olderthan' ? await hooksDb.deleteDeliveredBefore(db, before, CLEANUP_BATCH) : await hooksDb.deleteDeliveredBeyond(db, c.numberToKeep, CLEANUP_BATCH);
        total += n;
        if (n < CLEANUP_BATCH || stopped) return total;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })().finally(() => (cleaning = undefined));
    return cleaning;
  }

  function scheduledCleanup(): void {
    cleanup()
      .then((n) => n > 0 && log.info('old webhook deliveries deleted', { count: n }))
      .catch((e: unknown) => log.warn('webhook delivery cleanup failed', { err: String(e) }));
  }

  return {
    id,
    start() {
      if (started) return;
      started = true;
      unsubscribe = outbox.onWake(kick);
      // Rows left by a restart (or written by other processes) are picked up at once.
      kick();
      if (config.hookTaskCleanup.enabled) {
        if (config.hookTaskCleanup.runAtStart) scheduledCleanup();
        cleanupTimer = setInterval(scheduledCleanup, config.hookTaskCleanup.everyMs);
        cleanupTimer.unref();
      }
    },
    cleanup,
    async stop() {
      stopped = true;
      nudge?.();
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      if (cleanupTimer) clearInterval(cleanupTimer);
      // A cleanup batch in progress ends before the database closes (the loop stops after it).
      await cleaning?.catch(() => undefined);
      if (loop) {
        // Deliveries in flight end within their timeout; do not hold a shutdown longer than that.
        let t: NodeJS.Timeout | undefined;
        await Promise.race([loop, new Promise<void>((r) => (t = setTimeout(r, wh.deliverTimeoutMs + 500)))]);
        clearTimeout(t);
      }
      agents.http.destroy();
      agents.https.destroy();
      idleWaiters.forEach((w) => w());
      idleWaiters = [];
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        kick();
      });
    },
  };
}
