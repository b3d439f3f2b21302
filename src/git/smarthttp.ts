/**
 * Git's smart HTTP protocol (v0 and v2) served by streaming `git upload-pack` / `git receive-pack
 * --stateless-rpc` to and from the HTTP exchange, the way `git http-backend` does, without holding
 * a pack in memory. Authentication and repository lookup belong to the caller.
 */
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute } from 'node:path';
import { createGunzip } from 'node:zlib';
import { killGit, spawnGit, timedOut } from './run.js';

/** The two services of the smart protocol. */
export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** True for `git-upload-pack` and `git-receive-pack`. */
export function isGitService(s: unknown): s is GitService {
  return s === 'git-upload-pack' || s === 'git-receive-pack';
}

/**
 * The `Git-Protocol` request header if it is safe to hand to git as GIT_PROTOCOL (`key=value`
 * pairs separated by `:`, e.g. `version=2`, `object-format=sha256`), else undefined.
 */
export function sanitizeGitProtocol(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.length > 256) return undefined;
  const pair = '[0-9A-Za-z][0-9A-Za-z._-]*=[0-9A-Za-z._-]+';
  return new RegExp(`^${pair}(?::${pair})*$`, 'u').test(value) ? value : undefined;
}

const wantsV2 = (gitProtocol: string | undefined): boolean => gitProtocol?.split(':').includes('version=2') ?? false;

/** Encodes one pkt-line. */
export function pktLine(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0'), 'ascii'), body]);
}

/** The flush packet. */
export const FLUSH_PKT = Buffer.from('0000', 'ascii');

/** The headers `git http-backend` sends to keep proxies and browsers from caching protocol answers. */
const NO_CACHE: Readonly<Record<string, string>> = {
  Expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
  Pragma: 'no-cache',
  'Cache-Control': 'no-cache, max-age=0, must-revalidate',
};

/** Options of {@link advertiseRefs} and {@link serviceRpc}. */
export interface SmartHttpOptions {
  /** Kill git after this long: default 60 s for the advertisement, 10 minutes for an exchange. */
  readonly timeoutMs?: number;
  /** Extra `-c` settings, e.g. `{ 'core.hooksPath': ourHooks }` for receive-pack. */
  readonly config?: Readonly<Record<string, string>>;
  /**
   * Runs after git exited and before the response ends (also when the client is gone), with git's exit
   * code: the client sees the end of a push only once what the push changes elsewhere is recorded.
   */
  readonly beforeEnd?: (code: number | null) => Promise<void>;
}

/** How a streamed git exchange ended. */
export interface SmartHttpResult {
  /** git's exit code; null when it was killed (timeout, client gone) or never started. */
  readonly code: number | null;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** The client went away before the response was complete. */
  readonly clientGone: boolean;
}

function serviceArgs(repoPath: string, service: GitService, advertise: boolean): string[] {
  if (!isAbsolute(repoPath)) throw new Error(`repository path must be absolute: ${repoPath}`);
  const args = [service === 'git-upload-pack' ? 'upload-pack' : 'receive-pack', '--stateless-rpc'];
  if (advertise) args.push('--advertise-refs');
  if (service === 'git-upload-pack') args.push('--strict');
  args.push(repoPath);
  return args;
}

/**
 * Copies git's stdout to the response with backpressure. The status line and headers are sent
 * with the first byte of output, so a git that fails before writing anything still gets a 500.
 */
function pump(
  child: ChildProcess,
  res: ServerResponse,
  headers: Record<string, string>,
  prefix: Buffer | null,
  failure: () => { status: number; message: string } = () => ({ status: 500, message: 'git failed' }),
  beforeEnd?: (code: number | null) => Promise<void>,
): Promise<SmartHttpResult> {
  return new Promise((resolve) => {
    let stderr = '';
    let clientGone = false;
    let exited: { code: number | null } | null = null;
    let stdoutEnded = false;
    const started = () => res.headersSent;
    const start = () => {
      if (started()) return;
      res.writeHead(200, headers);
      if (prefix) res.write(prefix);
    };
    let settled = false;
    const finish = () => {
      if (settled || !exited || !stdoutEnded) return;
      settled = true;
      const { code } = exited;
      if (beforeEnd) void beforeEnd(code).catch(() => undefined).then(() => end(code));
      else end(code);
    };
    const end = (code: number | null) => {
      if (!clientGone) {
        if (started()) res.end();
        else if (code === 0) {
          start();
          res.end();
        } else if (!res.writableEnded) {
          const { status, message } = failure();
          res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...NO_CACHE });
          res.end(`${message}\n`);
        }
      }
      resolve({ code, stderr, timedOut: timedOut(child), clientGone });
    };
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (s: string) => {
      if (stderr.length < 65536) stderr += s;
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      if (clientGone) return;
      start();
      if (!res.write(chunk)) {
        child.stdout!.pause();
        res.once('drain', () => child.stdout!.resume());
      }
    });
    child.stdout!.once('end', () => {
      stdoutEnded = true;
      finish();
    });
    child.once('error', (e) => {
      if (child.pid !== undefined) return;
      stderr += e.message;
      exited = { code: null };
      stdoutEnded = true;
      finish();
    });
    child.once('close', (code) => {
      exited = { code };
      stdoutEnded = true;
      finish();
    });
    res.once('close', () => {
      if (!res.writableFinished) {
        clientGone = true;
        killGit(child);
      }
    });
  });
}

/**
 * Answers `GET <repo>/info/refs?service=<service>`: `git <service> --stateless-rpc
 * --advertise-refs` streamed with Content-Type `application/x-<service>-advertisement`. Like
 * `git http-backend`, protocol v0 answers start with the `# service=<service>` pkt-line and a
 * flush; a protocol v2 upload-pack answer (GIT_PROTOCOL `version=2`) starts with git's own
 * `version 2` capability advertisement and has no such header. `gitProtocol` is the request's
 * `Git-Protocol` header (sanitized here).
 */
export function advertiseRefs(
  repoPath: string,
  service: GitService,
  gitProtocol: string | string[] | undefined,
  res: ServerResponse,
  opts: SmartHttpOptions = {},
): Promise<SmartHttpResult> {
  const protocol = sanitizeGitProtocol(gitProtocol);
  const child = spawnGit(serviceArgs(repoPath, service, true), {
    env: protocol ? { GIT_PROTOCOL: protocol } : {},
    config: opts.config,
    timeoutMs: opts.timeoutMs ?? 60_000,
  });
  child.stdin!.end();
  // receive-pack has no protocol v2 and answers v0 whatever the client asked, so it keeps the header.
  const v2 = service === 'git-upload-pack' && wantsV2(protocol);
  const prefix = v2 ? null : Buffer.concat([pktLine(`# service=${service}\n`), FLUSH_PKT]);
  return pump(child, res, { 'Content-Type': `application/x-${service}-advertisement`, ...NO_CACHE }, prefix);
}

/**
 * Answers `POST <repo>/<service>`: the request body (gunzipped when `Content-Encoding: gzip`) is
 * piped into `git <service> --stateless-rpc <repoPath>` and its output streamed back with
 * Content-Type `application/x-<service>-result`. The process is killed when the client
 * disconnects or after `timeoutMs` (default 10 minutes). `env` reaches git and its hooks (e.g. the
 * pusher's identity for receive-pack). Resolves when the exchange is over; never rejects.
 * An unsupported Content-Encoding is answered 415 without starting git.
 */
export function serviceRpc(
  repoPath: string,
  service: GitService,
  req: IncomingMessage,
  res: ServerResponse,
  gitProtocol?: string | string[],
  env?: Readonly<Record<string, string>>,
  opts: SmartHttpOptions = {},
): Promise<SmartHttpResult> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
    res.writeHead(415, { 'Content-Type': 'text/plain; charset=utf-8', ...NO_CACHE });
    res.end('Unsupported Content-Encoding\n');
    req.resume();
    return Promise.resolve({ code: null, stderr: '', timedOut: false, clientGone: false });
  }
  const protocol = sanitizeGitProtocol(gitProtocol);
  const child = spawnGit(serviceArgs(repoPath, service, false), {
    env: { ...env, ...(protocol ? { GIT_PROTOCOL: protocol } : {}) },
    config: opts.config,
    timeoutMs: opts.timeoutMs ?? 10 * 60_000,
  });
  const stdin = child.stdin!;
  let badBody = false;
  const abandon = () => {
    // Stop feeding git, and keep reading the body so the client is not left blocked on a full socket.
    req.unpipe();
    req.resume();
    killGit(child);
  };
  req.once('error', abandon);
  if (encoding === 'identity') req.pipe(stdin);
  else {
    const gunzip = createGunzip();
    gunzip.once('error', () => {
      badBody = true;
      abandon();
    });
    req.pipe(gunzip).pipe(stdin);
  }
  child.once('close', () => {
    req.unpipe();
    if (!req.complete) req.resume();
  });
  return pump(
    child,
    res,
    { 'Content-Type': `application/x-${service}-result`, ...NO_CACHE },
    null,
    () => (badBody ? { status: 400, message: 'Bad request body' } : { status: 500, message: 'git failed' }),
    opts.beforeEnd,
  );
}
