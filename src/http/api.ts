import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { OperationEntry } from '../../generated/operations.js';
import type { Config } from '../config/index.js';
import { AppError } from '../domain/errors.js';
import { missingScopes, levelForMethod, formatScopes } from '../domain/scopes.js';
import type { Actor } from '../domain/user.js';
import type { Logger } from '../log.js';
import type { Services } from '../services/index.js';
import type { Credentials } from '../services/auth.js';
import { resolvePaging, type Paging } from '../services/paging.js';
import type { Handler, HandlerContext, OperationId } from '../handlers/kit.js';
import { toErrorResponse } from './errors.js';
import { linkHeader } from './paging.js';
import type { Router } from './router.js';
import type { OperationValidator } from './validate.js';
import { readBody } from './body.js';
import { clientAddressResolver, createRateLimit } from './ratelimit.js';

export interface ApiDeps {
  readonly config: Config;
  readonly log: Logger;
  readonly services: Services;
  readonly router: Router;
  readonly validators: { get(id: OperationId): OperationValidator };
  readonly handlers: { readonly [O in OperationId]: Handler<O> };
}

/** A handler's reply without its per-operation typing (checked at the handler). */
interface LooseReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly total?: number;
  readonly link?: boolean;
}

const JSON_TYPE = 'application/json;charset=utf-8';
const QUERY_TOKEN_WARNING =
  'token and access_token API authentication is deprecated and will be removed in gitea 1.23. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization.';

/** Headers Gitea puts on every API response. */
const BASE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'max-age=0, private, must-revalidate, no-transform',
  'X-Frame-Options': 'SAMEORIGIN',
  'Access-Control-Expose-Headers': 'X-Total-Count, Link',
};

/** Credentials as Gitea reads them: query token, Authorization token/bearer/basic, sudo. */
export function credentialsOf(req: IncomingMessage, query: URLSearchParams, clientAddress: string): Credentials {
  const auth = req.headers.authorization;
  let headerToken: string | undefined;
  let basic: Credentials['basic'];
  if (auth) {
    const parts = auth.trim().split(/\s+/);
    if (parts.length === 2) {
      const [scheme, value] = parts as [string, string];
      // Gitea: "token" must be lower case; "bearer" and "basic" are case-insensitive.
      if (scheme === 'token' || scheme.toLowerCase() === 'bearer') headerToken = value;
      else if (scheme.toLowerCase() === 'basic') {
        const decoded = Buffer.from(value, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        basic = colon < 0 ? { username: decoded, password: '' } : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
      }
    }
  }
  const sudoHeader = req.headers.sudo;
  return {
    queryToken: query.get('token') || query.get('access_token') || undefined,
    headerToken,
    basic,
    sudo: query.get('sudo') || (typeof sudoHeader === 'string' ? sudoHeader : undefined) || undefined,
    clientAddress,
  };
}

/** Route-level guards, in Gitea's order: sign-in view, scope, sign-in, basic-only, site admin. */
function guard(entry: OperationEntry, actor: Actor, method: string, config: Config): void {
  const user = actor.user;
  if (!user && config.service.requireSigninView) {
    throw new AppError('forbidden', 'Only signed in user is allowed to call APIs.', { bare: true });
  }
  if (actor.scopes && entry.scopes.length > 0) {
    const level = levelForMethod(method);
    const missing = missingScopes(actor.scopes, entry.scopes, level);
    if (missing.length > 0) {
      const required = entry.scopes.map((c) => `${level}:${c}`).join(' ');
      throw new AppError(
        'forbidden',
        `token does not have at least one of required scope(s), required=[${required}], token scope=${formatScopes(actor.scopes).join(',')}`,
      );
    }
  }
  if (!entry.public && !user) throw new AppError('unauthorized', 'token is required');
  if (entry.basicAuthOnly && !actor.viaBasic) throw new AppError('unauthorized', 'auth required');
  if (entry.tag === 'admin' && !user?.isAdmin) throw new AppError('forbidden', 'user should be the site admin');
  // A public-only token acting as a non-public user on /user and /user/... routes (Gitea 1.22.3+ checkTokenPublicOnly).
  const ownUserRoute = entry.path === '/user' || entry.path.startsWith('/user/');
  if (actor.scopes?.publicOnly && user && entry.scopes.includes('user') && ownUserRoute && user.visibility !== 'public') {
    throw new AppError('forbidden', 'token scope is limited to public users');
  }
}

export function createApiHandler(deps: ApiDeps) {
  const { config, log, services, router, validators, handlers } = deps;
  const idPrefix = randomBytes(4).toString('hex');
  let counter = 0;
  const clientAddressOf = clientAddressResolver(config.security.reverseProxyTrustedProxies);
  const rateLimit = createRateLimit(config);

  return async function handleApi(req: IncomingMessage, res: ServerResponse, originalUrl: string, relativeUrl: string): Promise<void> {
    const started = performance.now();
    const requestId = `${idPrefix}-${(++counter).toString(36)}`;
    const method = req.method ?? 'GET';
    const q = relativeUrl.indexOf('?');
    const pathname = q < 0 ? relativeUrl : relativeUrl.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : relativeUrl.slice(q + 1));
    const headers: Record<string, string> = { ...BASE_HEADERS, 'X-Request-Id': requestId };
    let status = 500;
    let operationId: string | undefined;
    let payload: string | Buffer | undefined;
    // A file body (archives): piped after the headers; the handler sets Content-Length.
    let stream: Readable | undefined;
    try {
      const match = router.find(method, pathname);
      if (!match) throw new AppError('not_found', 'not found');
      const entry = match.entry;
      operationId = entry.operationId;
      const creds = credentialsOf(req, query, clientAddressOf(req));
      if (creds.queryToken) headers['X-Gitea-Warning'] = QUERY_TOKEN_WARNING;
      const actor = await services.auth.authenticate(creds);
      rateLimit(actor, creds.clientAddress, entry.operationId, method);
      guard(entry, actor, method, config);
      const validator = validators.get(entry.operationId)!;
      const path = validator.path(match.params);
      const typedQuery = validator.query(query);
      let body: unknown;
      if (validator.hasBody) body = validator.body(await readBody(req, validator, config.api.maxBodyBytes));
      let paging: Paging | undefined;
      const ctx: HandlerContext<OperationId> = {
        path: path as never,
        query: typedQuery as never,
        body: body as never,
        headers: req.headers,
        actor,
        doer: actor.user,
        services,
        paging: () =>
          (paging ??= resolvePaging(typedQuery.page as number | undefined, typedQuery.limit as number | undefined, config.api)),
      };
      const handler = handlers[entry.operationId] as Handler<OperationId>;
      const reply = (await handler(ctx)) as LooseReply;
      status = reply.status;
      if (reply.headers) Object.assign(headers, reply.headers);
      if (reply.total !== undefined) {
        headers['X-Total-Count'] = String(reply.total);
        if (reply.link) {
          const p = ctx.paging();
          const link = linkHeader(config.server.rootUrl, originalUrl, p.page, p.limit, reply.total);
          if (link) headers['Link'] = link;
        }
      }
      if (reply.body instanceof Readable) {
        stream = reply.body;
        headers['Content-Type'] ??= 'application/octet-stream';
      } else if (reply.body !== undefined && status !== 204) {
        if (Buffer.isBuffer(reply.body)) {
          payload = reply.body;
          headers['Content-Type'] ??= 'application/octet-stream';
        } else if (typeof reply.body === 'string' && headers['Content-Type']) payload = reply.body;
        else {
          payload = JSON.stringify(reply.body);
          headers['Content-Type'] = JSON_TYPE;
        }
      }
    } catch (e) {
      const er = toErrorResponse(e, config.server.rootUrl);
      status = er.status;
      Object.assign(headers, er.headers);
      if (e instanceof AppError && e.kind === 'moved' && e.redirectName) {
        headers['Location'] = redirectLocation(originalUrl, e.redirectName);
      }
      if (e instanceof AppError && e.kind === 'moved' && e.redirectRepo) {
        headers['Location'] = repoRedirectLocation(originalUrl, e.redirectRepo.from, e.redirectRepo.to);
      }
      if (status >= 500) log.error('request failed', { requestId, operationId, err: e instanceof Error ? e.stack : String(e) });
      if (e instanceof AppError && e.emptyBody) {
        payload = '';
      } else if (e instanceof AppError && e.plainText) {
        payload = e.message;
        headers['Content-Type'] = 'text/plain; charset=utf-8';
      } else {
        payload = JSON.stringify(er.body);
        headers['Content-Type'] = JSON_TYPE;
      }
    }
    if (payload !== undefined) headers['Content-Length'] = String(Buffer.byteLength(payload));
    res.writeHead(status, headers);
    if (stream !== undefined) {
      if (method === 'HEAD') {
        stream.destroy();
        res.end();
      } else {
        const body = stream;
        // A read error after the headers can only cut the response short; a client going away ends the read.
        body.once('error', (e) => {
          log.error('response stream failed', { requestId, operationId, err: String(e) });
          res.destroy();
        });
        res.once('close', () => body.destroy());
        body.pipe(res);
      }
    } else res.end(method === 'HEAD' ? undefined : payload);
    if (log.enabled('info')) {
      // The full path (mount included), never the query: ?token= carries credentials.
      log.info('request', { requestId, method, path: originalUrl.split('?', 1)[0], operationId, status, durationMs: Math.round((performance.now() - started) * 1000) / 1000 });
    }
  };
}

/** The same request with `owner/old` replaced by `owner/new` once (Gitea's RedirectToRepo after a repository rename). */
function repoRedirectLocation(originalUrl: string, from: string, to: string): string {
  const [path = '', search] = originalUrl.split('?', 2);
  // Owner and repository names need no escaping; the request may spell them in another case. The match
  // must be whole path segments, after the /api/v1 mount.
  const lower = path.toLowerCase();
  const needle = `/${from.toLowerCase()}`;
  let i = lower.indexOf(needle, lower.startsWith('/api/v1/') ? 7 : 0);
  while (i >= 0 && i + needle.length < path.length && path[i + needle.length] !== '/') i = lower.indexOf(needle, i + 1);
  const replaced = i < 0 ? path : `${path.slice(0, i)}/${to}${path.slice(i + needle.length)}`;
  return replaced + (search !== undefined ? `?${search}` : '');
}

/** The same request with the old account name replaced by the new one (Gitea answers 307 after a rename). */
function redirectLocation(originalUrl: string, newName: string): string {
  const [path = '', search] = originalUrl.split('?', 2);
  const parts = path.split('/');
  // /api/v1/users/{name}/... or /api/v1/admin/users/{name}/...
  const i = parts.findIndex((p, idx) => idx > 0 && (parts[idx - 1] === 'users' || parts[idx - 1] === 'orgs' || parts[idx - 1] === 'following'));
  if (i > 0) parts[i] = encodeURIComponent(newName);
  return parts.join('/') + (search !== undefined ? `?${search}` : '');
}
