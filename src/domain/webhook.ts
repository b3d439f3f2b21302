import { compileGlob } from './glob.js';
/** Webhooks: types, event flags, branch filters (Gitea 1.22's webhook model, without storage). */

/** Delivery formats Gitea accepts (its swagger enum omits matrix, its code accepts it). */
export const HOOK_TYPES = ['gitea', 'gogs', 'slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist'] as const;
export type HookType = (typeof HOOK_TYPES)[number];
export const isHookType = (s: string): s is HookType => (HOOK_TYPES as readonly string[]).includes(s);

/** Where a hook belongs: a repository, an owner (user or organization), or the site. */
export type HookScope =
  | { readonly kind: 'repo'; readonly repoId: number }
  | { readonly kind: 'owner'; readonly ownerId: number }
  | { readonly kind: 'system' }
  | { readonly kind: 'default' };

/**
 * Event flags a hook can enable (Gitea's HookEvents). pull_request_review covers approved, rejected and review
 * comment events; package cannot be enabled through the API (as in 1.22).
 */
export const EVENT_FLAGS = [
  'create', 'delete', 'fork', 'push', 'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment',
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review', 'pull_request_sync', 'pull_request_review_request', 'wiki', 'repository', 'release', 'package',
] as const;
export type EventFlag = (typeof EVENT_FLAGS)[number];

const ISSUE_GROUP: readonly EventFlag[] = ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PR_GROUP: readonly EventFlag[] = [
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review', 'pull_request_review_request', 'pull_request_sync',
];
/** Names accepted in `events` and the flags each enables; anything else is ignored silently, as Gitea does. */
const EVENT_NAMES: Readonly<Record<string, readonly EventFlag[]>> = {
  create: ['create'],
  delete: ['delete'],
  fork: ['fork'],
  push: ['push'],
  repository: ['repository'],
  release: ['release'],
  wiki: ['wiki'],
  issues: ISSUE_GROUP,
  issues_only: ['issues'],
  issue_assign: ['issue_assign'],
  issue_label: ['issue_label'],
  issue_milestone: ['issue_milestone'],
  issue_comment: ['issue_comment'],
  pull_request: PR_GROUP,
  pull_request_only: ['pull_request'],
  pull_request_assign: ['pull_request_assign'],
  pull_request_label: ['pull_request_label'],
  pull_request_milestone: ['pull_request_milestone'],
  pull_request_comment: ['pull_request_comment'],
  pull_request_sync: ['pull_request_sync'],
  pull_request_review_request: ['pull_request_review_request'],
  pull_request_review: ['pull_request_review'],
};

/** The flags enabled by the names a client sent (case-insensitive); nothing recognised means push only. */
export function flagsFromNames(names: readonly string[] | undefined | null): EventFlag[] {
  const set = new Set<EventFlag>();
  for (const n of names ?? []) for (const f of EVENT_NAMES[n.toLowerCase()] ?? []) set.add(f);
  // Gitea: an empty list means "push only"; a list of only unknown names enables nothing but still passes.
  if (!names || names.length === 0) set.add('push');
  return EVENT_FLAGS.filter((f) => set.has(f));
}

/**
 * The `events` of the Hook JSON, in Gitea's fixed order. Quirk kept: pull_request_review_comment is listed when
 * the pull_request_comment flag is on, approved/rejected when the review flag is on.
 */
export function listEvents(flags: readonly EventFlag[]): string[] {
  const on = new Set(flags);
  const out: string[] = [];
  const add = (name: string, cond: boolean) => cond && out.push(name);
  for (const f of ['create', 'delete', 'fork', 'push', 'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment',
    'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment'] as const) add(f, on.has(f));
  add('pull_request_review_approved', on.has('pull_request_review'));
  add('pull_request_review_rejected', on.has('pull_request_review'));
  add('pull_request_review_comment', on.has('pull_request_comment'));
  add('pull_request_sync', on.has('pull_request_sync'));
  add('wiki', on.has('wiki'));
  add('repository', on.has('repository'));
  add('release', on.has('release'));
  add('package', on.has('package'));
  add('pull_request_review_request', on.has('pull_request_review_request'));
  return out;
}

/** Internal event types (X-Gitea-Event-Type). */
export type HookEventType =
  | 'create' | 'delete' | 'fork' | 'push' | 'issues' | 'issue_assign' | 'issue_label' | 'issue_milestone' | 'issue_comment'
  | 'pull_request' | 'pull_request_assign' | 'pull_request_label' | 'pull_request_milestone' | 'pull_request_comment'
  | 'pull_request_review_approved' | 'pull_request_review_rejected' | 'pull_request_review_comment' | 'pull_request_sync'
  | 'pull_request_review_request' | 'wiki' | 'repository' | 'release' | 'package';

/** The flag an event type needs. */
export function flagOf(type: HookEventType): EventFlag {
  switch (type) {
    case 'pull_request_review_approved':
    case 'pull_request_review_rejected':
    case 'pull_request_review_comment':
      return 'pull_request_review';
    default:
      return type;
  }
}

/** The public event name (X-Gitea-Event, X-GitHub-Event) of an event type. */
export function publicEventName(type: HookEventType | string): string {
  switch (type) {
    case 'issues': case 'issue_assign': case 'issue_label': case 'issue_milestone':
      return 'issues';
    case 'issue_comment': case 'pull_request_comment':
      return 'issue_comment';
    case 'pull_request': case 'pull_request_assign': case 'pull_request_label': case 'pull_request_milestone':
    case 'pull_request_sync': case 'pull_request_review_request':
      return 'pull_request';
    case 'pull_request_review_approved':
      return 'pull_request_approved';
    case 'pull_request_review_rejected':
      return 'pull_request_rejected';
    case 'pull_request_review_comment':
      return 'pull_request_comment';
    case 'package':
      return '';
    default:
      return type;
  }
}

// Branch filters are gobwas globs without separators (as Gitea compiles them): see glob.ts.
export { compileGlob, type CompiledGlob } from './glob.js';

/** Whether a branch (short name) passes a hook's filter; empty and `*` pass everything. */
export function branchFilterMatches(filter: string, branch: string): boolean {
  if (filter === '' || filter === '*') return true;
  const re = compileGlob(filter);
  return re ? re.test(branch) : false;
}

/** Slack channel names: `#name` or `@name` (Gitea's IsValidSlackChannel). */
export function isValidSlackChannel(channel: string): boolean {
  const c = channel.trim();
  if (c.length < 2) return false;
  return (c[0] === '#' || c[0] === '@') && c.slice(1).trim() !== '';
}

/** A webhook as the services see it (the secret and authorization header in clear). */
export interface Webhook {
  readonly id: number;
  readonly repoId: number | null;
  readonly ownerId: number | null;
  readonly isSystem: boolean;
  readonly type: HookType;
  readonly url: string;
  readonly contentType: 'json' | 'form';
  readonly httpMethod: string;
  readonly secret: string;
  readonly events: readonly EventFlag[];
  readonly branchFilter: string;
  readonly authorizationHeader: string;
  readonly isActive: boolean;
  /** Type-specific settings (slack: channel, username, icon_url, color). */
  readonly meta: Readonly<Record<string, string>>;
  readonly createdUnix: number;
  readonly updatedUnix: number;
}

/**
 * Whether a value can be sent as an HTTP header value as is: no control characters but tab (CR/LF would split the
 * header), nothing outside Latin-1 (Node cannot encode it). Go's client refuses the same at delivery time only.
 */
export const isValidHeaderValue = (v: string): boolean => /^[\t\x20-\x7e\x80-\xff]*$/.test(v);

/** Gitea's strconv.ParseBool: the literals a Go bool accepts. */
export function parseGoBool(s: string): boolean | null {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return null;
}
