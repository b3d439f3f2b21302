import http from 'node:http';
import https from 'node:https';
import { checkUrlAllowed, guardedLookup, OutboundBlockedError, type HostPolicy } from './hostpolicy.js';

export interface OutboundRequestOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer | string;
  /** Whole-request budget across redirects, in milliseconds. */
  readonly timeoutMs: number;
  /** Redirects followed (each hop re-checked against the policy); 0 returns the 3xx itself. */
  readonly maxRedirects?: number;
  readonly policy: HostPolicy;
  /** Keep-alive agents for callers that send many requests; they are used with our guarded lookup. */
  readonly agents?: { readonly http?: http.Agent; readonly https?: https.Agent };
  /** Response bytes kept; the rest is read and dropped. */
  readonly maxResponseBytes?: number;
  readonly skipTlsVerify?: boolean;
}

export interface OutboundResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** True when the body was cut at maxResponseBytes. */
  readonly truncated: boolean;
  /** The URL that answered, after redirects. */
  readonly finalUrl: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'www-authenticate'];

const withoutHeaders = (h: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !names.includes(k.toLowerCase())));

/** Keep-alive agents whose connections resolve names through the policy (for callers with many requests). */
export function guardedAgents(policy: HostPolicy, opts: { maxSockets?: number; skipTlsVerify?: boolean } = {}) {
  const lookup = guardedLookup(policy) as unknown as http.AgentOptions['lookup'];
  const common = { keepAlive: true, maxSockets: opts.maxSockets ?? 64, lookup };
  return {
    http: new http.Agent(common),
    https: new https.Agent({ ...common, rejectUnauthorized: !opts.skipTlsVerify }),
  };
}

/**
 * One server-side HTTP request under the outbound policy: the URL is checked before connecting (IP literals and
 * names), the connection's own DNS lookup is checked again (no rebinding between check and connect), and every
 * redirect target is checked the same way. Only http and https. Never throws the resolved address in a message.
 */
export async function outboundRequest(target: string | URL, opts: OutboundRequestOptions): Promise<OutboundResponse> {
  const deadline = Date.now() + opts.timeoutMs;
  let url = new URL(target);
  let method = (opts.method ?? 'GET').toUpperCase();
  let body = opts.body;
  let headers: Readonly<Record<string, string>> = opts.headers ?? {};
  const origin = url.origin;
  const maxRedirects = opts.maxRedirects ?? 0;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundBlockedError('only http and https URLs may be requested');
    // The name check resolves too: it counts against the same budget (a resolver that hangs must not hold a
    // delivery past its timeout, and so past the worker's lease on it).
    await withDeadline(checkUrlAllowed(url, opts.policy), deadline);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Error('the request timed out');
    const res = await requestOnce(url, method, headers, body, remaining, opts);
    const location = res.headers.location;
    if (!REDIRECTS.has(res.status) || !location || hop >= maxRedirects) return res;
    url = new URL(location, url);
    // Credentials are for the origin they were configured for (a webhook's authorization header): a redirect
    // elsewhere (another host, port or scheme) must not carry them, as Go's client strips them too.
    if (url.origin !== origin) headers = withoutHeaders(headers, CREDENTIAL_HEADERS);
    // As browsers and Go's client do: 303, and 301/302 after a POST, become a GET without a body.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = withoutHeaders(headers, ['content-type']);
    }
  }
}

async function withDeadline<T>(p: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the request timed out')), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

function requestOnce(
  url: URL,
  method: string,
  headers: Readonly<Record<string, string>>,
  body: Buffer | string | undefined,
  timeoutMs: number,
  opts: OutboundRequestOptions,
): Promise<OutboundResponse> {
  const isHttps = url.protocol === 'https:';
  const lib = isHttps ? https : http;
  const agent = isHttps ? opts.agents?.https : opts.agents?.http;
  const cap = opts.maxResponseBytes ?? 64 * 1024;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = lib.request(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: agent ?? false,
      lookup: guardedLookup(opts.policy) as unknown as http.RequestOptions['lookup'],
      ...(isHttps ? { rejectUnauthorized: !opts.skipTlsVerify } : {}),
    });
    const timer = setTimeout(() => req.destroy(new Error('the request timed out')), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (kept >= cap) {
          truncated = true;
          return;
        }
        const part = chunk.length > cap - kept ? chunk.subarray(0, cap - kept) : chunk;
        truncated ||= part.length < chunk.length;
        chunks.push(part);
        kept += part.length;
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks), truncated, finalUrl: url.toString() });
      });
    });
    if (body !== undefined) req.end(body);
    else req.end();
  });
}
