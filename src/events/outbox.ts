/**
 * The outbox writer: an event becomes hook_task rows inside the caller's transaction, so a change and its
 * deliveries commit (or roll back) together. After the commit the caller wakes the delivery worker(s) of this
 * process; other processes pick the rows up on their slow poll.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config/index.js';
import type { Db } from '../db/index.js';
import * as usersDb from '../db/users.js';
import * as hooksDb from '../db/webhooks.js';
import { branchFilterMatches, EVENT_FLAGS, flagOf, isHookType, type EventFlag, type Webhook } from '../domain/webhook.js';
import { commitEmails, prepareEvent } from './payloads.js';
import { openSecret } from './seal.js';
import type { HookEvent, PreparedEvent } from './types.js';

/** A stored hook as the services see it (credentials opened with SECRET_KEY). */
export function toWebhook(r: hooksDb.WebhookRow, secretKey: string): Webhook {
  let events: EventFlag[] = [];
  let meta: Record<string, string> = {};
  try {
    const parsed = JSON.parse(r.events) as unknown;
    if (Array.isArray(parsed)) events = EVENT_FLAGS.filter((f) => parsed.includes(f));
  } catch {
    /* a damaged row enables nothing */
  }
  try {
    meta = JSON.parse(r.meta) as Record<string, string>;
  } catch {
    /* idem */
  }
  return {
    id: Number(r.id),
    repoId: r.repo_id === null ? null : Number(r.repo_id),
    ownerId: r.owner_id === null ? null : Number(r.owner_id),
    isSystem: r.is_system_webhook === 1,
    type: isHookType(r.type) ? r.type : 'gitea',
    url: r.url,
    contentType: r.content_type === 'form' ? 'form' : 'json',
    httpMethod: r.http_method,
    secret: openSecret(secretKey, r.secret),
    events,
    branchFilter: r.branch_filter,
    authorizationHeader: openSecret(secretKey, r.authorization_header),
    isActive: r.is_active === 1,
    meta,
    createdUnix: Number(r.created_unix),
    updatedUnix: Number(r.updated_unix),
  };
}

/** Whether a hook takes a prepared event: the flag is on, the branch passes, chat types skip empty pushes. */
export function hookWants(hook: Pick<Webhook, 'events' | 'branchFilter' | 'type'>, ev: PreparedEvent): boolean {
  if (!hook.events.includes(flagOf(ev.eventType))) return false;
  if (ev.branch !== null && !branchFilterMatches(hook.branchFilter, ev.branch)) return false;
  if (ev.emptyPush && hook.type !== 'gitea' && hook.type !== 'gogs') return false;
  return true;
}

export interface Outbox {
  /** Records the deliveries of `event` in the caller's transaction `trx`. Returns how many rows were written. */
  emit(trx: Db, event: HookEvent): Promise<number>;
  /** Records one delivery of an already prepared event to one hook (the test endpoint), active or not. */
  emitTo(trx: Db, hook: Webhook, ev: PreparedEvent): Promise<number>;
  /** Prepares an event's payload (reads account names of commit e-mails). */
  prepare(db: Db, event: HookEvent): Promise<PreparedEvent>;
  /** Call after the transaction that emitted committed: the worker sends at once. */
  wake(): void;
  /** The worker's subscription to wake(). */
  onWake(fn: () => void): () => void;
}

export function createOutbox(deps: { readonly config: Config }): Outbox {
  const listeners = new Set<() => void>();
  const { config } = deps;

  async function prepare(db: Db, event: HookEvent): Promise<PreparedEvent> {
    const emails = commitEmails(event);
    const names = new Map<string, string>();
    if (emails.length) {
      for (const [email, u] of await usersDb.getUsersByEmails(db, emails, config.service.noReplyAddress)) names.set(email, u.name);
    }
    return prepareEvent(event, config, names);
  }

  const rowsFor = (hooks: readonly Webhook[], ev: PreparedEvent) => {
    // Pretty-printed once, as Gitea stores it; every hook of this event gets the same text.
    const payload = JSON.stringify(ev.payload, null, 2);
    // Wall time, not the injectable service clock: the worker schedules on it.
    const now = Date.now();
    return hooks.map((h) => ({ hook_id: h.id, uuid: randomUUID(), event_type: ev.eventType, payload, created_ms: now }));
  };

  return {
    prepare,
    async emit(trx, event) {
      if (config.security.disableWebhooks) return 0;
      const ev = await prepare(trx, event);
      const hooks = (await hooksDb.activeHooksFor(trx, ev.repoId, ev.ownerId)).map((r) => toWebhook(r, config.security.secretKey)).filter((h) => hookWants(h, ev));
      if (hooks.length === 0) return 0;
      await hooksDb.insertTasks(trx, rowsFor(hooks, ev));
      return hooks.length;
    },
    async emitTo(trx, hook, ev) {
      if (config.security.disableWebhooks) return 0;
      if (!hookWants(hook, ev)) return 0;
      await hooksDb.insertTasks(trx, rowsFor([hook], ev));
      return 1;
    },
    wake() {
      for (const fn of listeners) fn();
    },
    onWake(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
