import { AppError, notFound } from '../domain/errors.js';
import { AccessMode } from '../domain/repo.js';
import type { User } from '../domain/user.js';
import {
  compileGlob, flagsFromNames, isHookType, isValidHeaderValue, isValidSlackChannel, parseGoBool, type EventFlag, type HookType, type Webhook,
} from '../domain/webhook.js';
import * as hooksDb from '../db/webhooks.js';
import * as orgsDb from '../db/orgs.js';
import { toWebhook } from '../events/outbox.js';
import { sealSecret } from '../events/seal.js';
import type { PushEvent } from '../events/types.js';
import { commitForPayload } from '../git/pushinfo.js';
import { resolveRefish } from '../git/repo.js';
import { checkUrlAllowed, OutboundBlockedError, webhookHostPolicy } from '../net/hostpolicy.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import type { RepoAccess, RepoService } from './repos.js';

/** Where a hook operation applies. */
export type HookTarget =
  | { readonly kind: 'repo'; readonly access: RepoAccess }
  | { readonly kind: 'owner'; readonly owner: User }
  /** An organization's hooks, for `doer` (who must own it). */
  | { readonly kind: 'org'; readonly owner: User; readonly doer: User }
  | { readonly kind: 'admin' };

export interface CreateHookInput {
  readonly type: string;
  readonly config: Readonly<Record<string, string>>;
  readonly events?: readonly string[] | undefined;
  readonly branchFilter?: string | undefined;
  readonly authorizationHeader?: string | undefined;
  readonly active?: boolean | undefined;
}

export interface EditHookInput {
  readonly config?: Readonly<Record<string, string>> | undefined;
  readonly events?: readonly string[] | undefined;
  readonly branchFilter?: string | undefined;
  readonly authorizationHeader?: string | undefined;
  readonly active?: boolean | undefined;
}

/** Webhook CRUD for repositories, owners (users, organizations) and the site, and the test delivery. */
export function createWebhookService(deps: ServiceDeps, repos: RepoService) {
  const { db, config } = deps;
  const secretKey = config.security.secretKey;
  const policy = webhookHostPolicy(config.webhook.allowedHostList);

  const filterOf = (t: HookTarget): hooksDb.HookOwnerFilter =>
    t.kind === 'repo' ? { kind: 'repo', repoId: t.access.repo.id } : t.kind === 'admin' ? { kind: 'admin' } : { kind: 'owner', ownerId: t.owner.id };

  /** Gitea's reqAdmin on repository hook routes (site administrators have admin mode already), reqOrgOwnership on org ones. */
  async function guard(t: HookTarget): Promise<void> {
    // Gitea's webhooksEnabled guard covers repository, organization and user hooks, not the admin routes.
    if (config.security.disableWebhooks && t.kind !== 'admin') throw new AppError('forbidden', 'webhooks disabled by administrator');
    if (t.kind === 'repo' && t.access.mode < AccessMode.admin) {
      throw new AppError('forbidden', 'user should be an owner or a collaborator with admin write of a repository');
    }
    if (t.kind === 'org' && !t.doer.isAdmin && !(await orgsDb.isOrgOwner(db, t.owner.id, t.doer.id))) {
      throw new AppError('forbidden', 'Must be an organization owner');
    }
  }

  function checkBranchFilter(filter: string | undefined): void {
    // Gitea's binding rejects an invalid glob before the handler runs.
    if (filter && compileGlob(filter) === null) throw new AppError('validation', '[BranchFilter]: GlobPattern');
  }

  /**
   * Our addition to 1.22 (SECURITY.md): a URL that is not http(s) or whose host [webhook] ALLOWED_HOST_LIST
   * refuses is 422 at creation; delivery checks again on the resolved address.
   */
  async function checkUrl(raw: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('validation', 'Invalid url');
    }
    // The URL parser silently drops tabs and newlines: refuse control characters rather than store one URL and
    // call another.
    if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch === '\x7f') || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new AppError('validation', 'Invalid url');
    try {
      await checkUrlAllowed(url, policy);
    } catch (e) {
      if (e instanceof OutboundBlockedError) throw new AppError('validation', 'webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting)');
      throw e;
    }
  }

  /** Ours: an authorization header that could not be sent verbatim (CR/LF would inject headers) is refused. */
  function checkAuthorizationHeader(v: string | undefined): void {
    if (v !== undefined && !isValidHeaderValue(v)) throw new AppError('validation', 'Invalid authorization header');
  }

  const slackMeta = (cfg: Readonly<Record<string, string>>) => ({
    channel: (cfg.channel ?? '').trim(),
    username: cfg.username ?? '',
    icon_url: cfg.icon_url ?? '',
    color: cfg.color ?? '',
  });

  async function load(t: HookTarget, id: number): Promise<Webhook> {
    const row = await hooksDb.getHook(db, filterOf(t), id);
    if (!row) throw notFound();
    return toWebhook(row, secretKey);
  }

  /** The hooks of a target; admin hooks come all at once (Gitea 1.22 ignores paging there). */
  async function list(t: HookTarget, paging: Paging): Promise<{ hooks: Webhook[]; total: number }> {
    await guard(t);
    const { rows, total } = await hooksDb.listHooks(db, filterOf(t), t.kind === 'admin' ? undefined : { offset: paging.offset, limit: paging.limit });
    return { hooks: rows.map((r) => toWebhook(r, secretKey)), total };
  }

  async function get(t: HookTarget, id: number): Promise<Webhook> {
    await guard(t);
    return load(t, id);
  }

  /** Validates in Gitea's order (BEHAVIOUR 7.3) and stores the hook. */
  async function create(t: HookTarget, input: CreateHookInput): Promise<Webhook> {
    await guard(t);
    checkBranchFilter(input.branchFilter);
    const type = input.type.trim();
    if (!isHookType(type)) throw new AppError('validation', `Invalid hook type: ${input.type}`);
    const cfg = input.config;
    if (!Object.hasOwn(cfg, 'url')) throw new AppError('validation', 'Missing config option: url');
    if (!Object.hasOwn(cfg, 'content_type')) throw new AppError('validation', 'Missing config option: content_type');
    const contentType = cfg.content_type;
    if (contentType !== 'json' && contentType !== 'form') throw new AppError('validation', 'Invalid content type');
    let meta: Record<string, string> = {};
    if (type === 'slack') {
      if (!Object.hasOwn(cfg, 'channel')) throw new AppError('validation', 'Missing config option: channel');
      meta = slackMeta(cfg);
      if (!isValidSlackChannel(meta.channel!)) throw new AppError('bad_request', 'Invalid slack channel name');
    } else if (type === 'matrix') {
      meta = { message_type: cfg.message_type ?? '' };
    }
    let isSystem = false;
    if (t.kind === 'admin' && cfg.is_system_webhook) {
      const v = parseGoBool(cfg.is_system_webhook);
      if (v === null) throw new AppError('validation', 'Invalid is_system_webhook value');
      isSystem = v;
    }
    checkAuthorizationHeader(input.authorizationHeader);
    await checkUrl(cfg.url ?? '');
    const now = unixNow(deps);
    const id = await hooksDb.insertHook(db, {
      repo_id: t.kind === 'repo' ? t.access.repo.id : null,
      owner_id: t.kind === 'owner' || t.kind === 'org' ? t.owner.id : null,
      is_system_webhook: isSystem ? 1 : 0,
      type: type satisfies HookType,
      url: cfg.url ?? '',
      content_type: contentType,
      http_method: 'POST',
      secret: sealSecret(secretKey, cfg.secret ?? ''),
      events: JSON.stringify(flagsFromNames(input.events)),
      branch_filter: input.branchFilter ?? '',
      authorization_header: sealSecret(secretKey, input.authorizationHeader ?? ''),
      is_active: input.active ? 1 : 0,
      meta: JSON.stringify(meta),
      created_unix: now,
      updated_unix: now,
    });
    return load(t, id);
  }

  /** Gitea's EditHook: events reset to push when omitted, branch_filter and authorization_header always replaced. */
  async function edit(t: HookTarget, id: number, input: EditHookInput): Promise<Webhook> {
    await guard(t);
    const hook = await load(t, id);
    checkBranchFilter(input.branchFilter);
    checkAuthorizationHeader(input.authorizationHeader);
    const patch: Partial<Omit<hooksDb.WebhookRow, 'id'>> = {};
    const cfg = input.config;
    if (cfg) {
      if (Object.hasOwn(cfg, 'content_type')) {
        if (cfg.content_type !== 'json' && cfg.content_type !== 'form') throw new AppError('validation', 'Invalid content type');
        patch.content_type = cfg.content_type;
      }
      if (Object.hasOwn(cfg, 'url')) {
        await checkUrl(cfg.url!);
        patch.url = cfg.url!;
      }
      // 1.22 leaves this unverified; applying a given secret is the superset-compatible choice.
      if (Object.hasOwn(cfg, 'secret')) patch.secret = sealSecret(secretKey, cfg.secret!);
      if (hook.type === 'slack' && Object.hasOwn(cfg, 'channel')) patch.meta = JSON.stringify(slackMeta(cfg));
    }
    patch.events = JSON.stringify(flagsFromNames(input.events) satisfies EventFlag[]);
    patch.branch_filter = input.branchFilter ?? '';
    patch.authorization_header = sealSecret(secretKey, input.authorizationHeader ?? '');
    if (input.active !== undefined) patch.is_active = input.active ? 1 : 0;
    patch.updated_unix = unixNow(deps);
    await hooksDb.updateHook(db, hook.id, patch);
    return load(t, id);
  }

  /** Deletes the hook; its pending deliveries go with it. */
  async function remove(t: HookTarget, id: number): Promise<void> {
    await guard(t);
    const hook = await load(t, id);
    await hooksDb.deleteHook(db, hook.id);
  }

  /**
   * Gitea's test delivery: a push payload of the head commit of `ref` (default branch) for this hook only,
   * queued like any delivery; the answer does not wait for it. An empty repository sends nothing.
   */
  async function test(access: RepoAccess, id: number, ref: string | undefined, doer: User): Promise<void> {
    const t: HookTarget = { kind: 'repo', access };
    await guard(t);
    const hook = await load(t, id);
    if (access.repo.isEmpty) return;
    const path = repos.repoPath(access.repo.id);
    const resolved = await resolveRefish(path, ref || access.repo.defaultBranch);
    if (!resolved) throw notFound();
    const commit = await commitForPayload(path, resolved.sha);
    if (!commit) throw notFound();
    const event: PushEvent = {
      type: 'push',
      repo: { repo: access.repo, owner: access.owner },
      pusher: doer,
      ref: `refs/heads/${access.repo.defaultBranch}`,
      before: commit.sha,
      after: commit.sha,
      commits: [commit],
      totalCommits: 1,
      compareFrom: commit.sha,
      repoMode: AccessMode.none,
    };
    const prepared = await deps.events.prepare(db, event);
    const n = await db.transaction().execute((trx) => deps.events.emitTo(trx, hook, prepared));
    if (n) deps.events.wake();
  }

  return { list, get, create, edit, remove, test };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
