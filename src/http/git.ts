import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../domain/errors.js';
import type { Logger } from '../log.js';
import type { Services } from '../services/index.js';
import { isGitService, type GitService } from '../git/smarthttp.js';
import { credentialsOf } from './api.js';
import { clientAddressResolver } from './ratelimit.js';

// <owner>/<repo>[.git]/info/refs | git-upload-pack | git-receive-pack
const GIT_PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/**
 * The smart HTTP endpoints git clients talk to. Returns false when the request is not one, so the
 * caller can hand it on. Errors are plain text, as git prints them to the user.
 */
export function createGitHttpHandler(deps: { services: Services; log: Logger }) {
  const { services, log } = deps;
  const clientAddressOf = clientAddressResolver(services.config.security.reverseProxyTrustedProxies);
  return function handleGit(req: IncomingMessage, res: ServerResponse, url: string): boolean {
    const q = url.indexOf('?');
    const m = GIT_PATH.exec(q < 0 ? url : url.slice(0, q));
    if (!m) return false;
    const [, owner, repo, action] = m as unknown as [string, string, string, string];
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    let service: GitService | undefined;
    if (action === 'info/refs' && req.method === 'GET') {
      const s = query.get('service');
      if (isGitService(s)) service = s;
    } else if (action !== 'info/refs' && req.method === 'POST') service = action as GitService;
    const fail = (status: number, message: string, headers: Record<string, string> = {}) => {
      req.resume();
      if (!res.headersSent) {
        res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
        res.end(`${message}\n`);
      }
    };
    if (!service) {
      // Only the smart protocol is served (no dumb HTTP).
      fail(403, 'only the smart HTTP protocol is supported');
      return true;
    }
    const svc = service;
    const protocol = typeof req.headers['git-protocol'] === 'string' ? req.headers['git-protocol'] : undefined;
    (async () => {
      const actor = await services.auth.authenticate(credentialsOf(req, query, clientAddressOf(req)));
      const access = await services.gitHttp.authorize(decodeURIComponent(owner), decodeURIComponent(repo), svc, actor);
      if (action === 'info/refs') await services.gitHttp.advertise(access, svc, protocol, res);
      else await services.gitHttp.rpc(access, svc, protocol, actor, req, res);
    })().catch((e: unknown) => {
      if (e instanceof AppError) {
        if (e.kind === 'unauthorized') return fail(401, e.message, { 'WWW-Authenticate': 'Basic realm="Anvil"' });
        if (e.kind === 'too_many_requests') return fail(429, e.message, { ...e.headers });
        const status = e.kind === 'forbidden' ? 403 : e.kind === 'not_found' ? 404 : 400;
        return fail(status, e.message);
      }
      log.error('git request failed', { url, err: e instanceof Error ? e.stack : String(e) });
      fail(500, 'internal error');
    });
    return true;
  };
}
