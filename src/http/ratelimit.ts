/**
 * Abuse limits on the API (SECURITY.md "Input limits and abuse"; Gitea has none): separate budgets for reads,
 * writes and expensive operations, per signed-in account or, for anonymous callers, per client address. The
 * client address is the socket's, or, when the socket belongs to a trusted reverse proxy, the last address in
 * X-Forwarded-For that is not itself a trusted proxy (Gitea's REVERSE_PROXY_TRUSTED_PROXIES).
 */
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config/index.js';
import { RateLimiter, type BudgetKind } from '../domain/ratelimit.js';
import { AppError } from '../domain/errors.js';
import type { Actor } from '../domain/user.js';
import type { OperationId } from '../handlers/kit.js';
import { HostMatchList, normalizeIp } from '../net/hostpolicy.js';

/**
 * Reads that run git over much of a repository's history or tree, search across repositories, or render, and
 * writes that start long work: each costs far more than a lookup.
 */
const EXPENSIVE = new Set<OperationId>([
  'repoGetArchive',
  'repoGetAllCommits',
  'repoCompareDiff',
  'repoDownloadCommitDiffOrPatch',
  'repoGetLanguages',
  'GetTree',
  'repoSearch',
  'userSearch',
  'topicSearch',
  'renderMarkdown',
  'renderMarkdownRaw',
  'renderMarkup',
  'repoMigrate',
  'createFork',
  'generateRepo',
  'repoApplyDiffPatch',
  'repoChangeFiles',
]);

export function budgetKindOf(operationId: OperationId, method: string): BudgetKind {
  if (EXPENSIVE.has(operationId)) return 'expensive';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/** The address a request comes from, looking through trusted reverse proxies. */
export function clientAddressResolver(trustedProxies: readonly string[]): (req: IncomingMessage) => string {
  const trusted = new HostMatchList(trustedProxies);
  return (req) => {
    const socket = normalizeIp(req.socket.remoteAddress ?? 'unknown');
    const forwarded = req.headers['x-forwarded-for'];
    if (!forwarded || !trusted.matchIp(socket)) return socket;
    const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)
      .split(',')
      .map((h) => normalizeIp(h.trim()))
      .filter((h) => h !== '');
    // From the nearest hop back: the first address that is not one of our proxies is the client.
    for (let i = hops.length - 1; i >= 0; i--) if (!trusted.matchIp(hops[i]!)) return hops[i]!;
    return hops[0] ?? socket;
  };
}

/** Throws 429 with Retry-After when the caller has used up the budget this request draws on. */
export function createRateLimit(config: Config): (actor: Actor, clientAddress: string, operationId: OperationId, method: string) => void {
  const limits = config.rateLimit;
  const limiter = new RateLimiter();
  return (actor, clientAddress, operationId, method) => {
    if (!limits.enabled || actor.user?.isAdmin) return;
    const kind = budgetKindOf(operationId, method);
    const [caller, perMinute] = actor.user ? [`u:${actor.user.id}`, limits.user[kind]] : [`a:${clientAddress}`, limits.anonymous[kind]];
    const wait = limiter.take(kind, caller, perMinute, Date.now());
    if (wait > 0) {
      throw new AppError('too_many_requests', 'API rate limit exceeded, please retry later', { headers: { 'Retry-After': String(wait) } });
    }
  };
}
