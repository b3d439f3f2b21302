/**
 * The one place that starts git processes. Every process gets the same hardened environment: no
 * shell, no system or global configuration, no prompts, no hooks unless the caller names a hooks
 * directory, no `file://` or `ext::` transports, a private empty HOME, and a timeout that kills
 * the whole process group (git forks pack-objects, index-pack and friends).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** Why a git process failed. */
export type GitFailure = 'exit' | 'timeout' | 'output_limit' | 'spawn' | 'aborted';

/** A git process that did not succeed: non-zero exit, killed on timeout, too much output, or not started. */
export class GitError extends Error {
  /** The git arguments, without the `-c` safety options added here. */
  readonly args: readonly string[];
  /** Exit code, or null when the process was killed by a signal or never started. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Standard error, capped at 64 KiB. */
  readonly stderr: string;
  readonly reason: GitFailure;
  constructor(reason: GitFailure, args: readonly string[], code: number | null, signal: NodeJS.Signals | null, stderr: string, cause?: unknown) {
    const what = args.slice(0, 2).join(' ');
    const detail =
      reason === 'timeout'
        ? 'timed out'
        : reason === 'output_limit'
          ? 'produced too much output'
          : reason === 'spawn'
            ? 'could not be started'
            : reason === 'aborted'
              ? 'was aborted'
              : `exited with ${code ?? signal ?? 'unknown status'}`;
    const first = stderr.trim().split('\n')[0] ?? '';
    super(`git ${what} ${detail}${first ? `: ${first}` : ''}`, cause === undefined ? undefined : { cause });
    this.name = 'GitError';
    this.args = args;
    this.code = code;
    this.signal = signal;
    this.stderr = stderr;
    this.reason = reason;
  }
}

/** Options shared by {@link runGit} and {@link spawnGit}. */
export interface GitSpawnOptions {
  /** Working directory (defaults to `gitDir`, else the process's). */
  readonly cwd?: string;
  /**
   * The repository (bare) directory, passed as GIT_DIR so git never searches parent directories
   * for another repository when this one is missing.
   */
  readonly gitDir?: string;
  /** Extra environment variables (e.g. GIT_PROTOCOL, GIT_INDEX_FILE, GIT_AUTHOR_*). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Extra `-c key=value` settings; they win over the defaults, so `{ 'core.hooksPath': dir }`
   * enables our own hooks and `{ 'protocol.file.allow': 'always' }` allows a local clone.
   */
  readonly config?: Readonly<Record<string, string>>;
  /** Kill the process group with SIGKILL after this many milliseconds (spawnGit: no default). */
  readonly timeoutMs?: number;
  /** Kill the process group when this signal aborts. */
  readonly signal?: AbortSignal;
}

/** Options of {@link runGit}. */
export interface RunGitOptions extends GitSpawnOptions {
  /** Standard input; a stream is piped. Without it stdin is closed at once. */
  readonly input?: string | Buffer | Readable;
  /** Default 60 s. */
  readonly timeoutMs?: number;
  /** Kill the process and fail when stdout grows beyond this (default 256 MiB). */
  readonly maxOutputBytes?: number;
  /** Exit codes other than 0 that count as success (e.g. `[1]` for `git config --get`). */
  readonly okCodes?: readonly number[];
}

/** What a finished git process produced. */
export interface GitResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly code: number;
}

/** The default timeout of {@link runGit}. */
export const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024;
const STDERR_CAP = 64 * 1024;

/**
 * Settings passed with `-c` on every command. Command-line settings win over the repository's own
 * config, so a repository cannot turn hooks or helpers back on.
 */
const SAFE_CONFIG: Readonly<Record<string, string>> = {
  'core.hooksPath': '/dev/null',
  'credential.helper': '',
  'core.fsmonitor': 'false',
  'core.attributesFile': '/dev/null',
  'core.excludesFile': '/dev/null',
  'protocol.file.allow': 'never',
  'protocol.ext.allow': 'never',
  'submodule.recurse': 'false',
};

let privateHome: string | undefined;
const killedOnTimeout = new WeakSet<ChildProcess>();

/** A private, empty HOME for git processes, created once per process and removed at exit. */
function gitHome(): string {
  if (privateHome === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'anvil-git-home-'));
    privateHome = dir;
    process.once('exit', () => {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // best effort
      }
    });
  }
  return privateHome;
}

/**
 * The environment of every git process: PATH and nothing else from ours (no GIT_DIR,
 * GIT_CONFIG_PARAMETERS, GIT_SSH_COMMAND, XDG_CONFIG_HOME ... can leak in).
 */
export function gitEnv(extra?: Readonly<Record<string, string>>): Record<string, string> {
  const home = gitHome();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    // An askpass that prints nothing and fails: git gives up instead of asking anyone.
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_ATTR_NOSYSTEM: '1',
    LC_ALL: 'C',
    LANG: 'C',
  };
  if (extra) Object.assign(env, extra);
  return env;
}

function configArgs(extra?: Readonly<Record<string, string>>): string[] {
  const merged = { ...SAFE_CONFIG, ...extra };
  const out: string[] = [];
  for (const [k, v] of Object.entries(merged)) out.push('-c', `${k}=${v}`);
  return out;
}

/** Kills the process group started by {@link spawnGit} (git and what it forked). */
export function killGit(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Starts `git <args>` with the hardened environment and pipes on all three streams; for
 * upload-pack, receive-pack and archive, whose output is streamed. The process leads its own
 * process group so a timeout or {@link killGit} also ends what it forked. The caller must consume
 * stdout and stderr.
 */
export function spawnGit(args: readonly string[], opts: GitSpawnOptions = {}): ChildProcess {
  const env = gitEnv(opts.gitDir === undefined ? opts.env : { ...opts.env, GIT_DIR: opts.gitDir });
  const child = spawn('git', [...configArgs(opts.config), ...args], {
    cwd: opts.cwd ?? opts.gitDir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    shell: false,
    windowsHide: true,
  });
  if (!child.stdout || !child.stderr || !child.stdin) {
    // node gives a process it could not start for lack of descriptors (EMFILE, ENFILE) no stdio at all and
    // reports the error on the next tick; it must not reach the process as an uncaught 'error' event.
    child.once('error', () => undefined);
    throw new GitError('spawn', args, null, null, 'no file descriptors left for its pipes (EMFILE or ENFILE)');
  }
  let timer: NodeJS.Timeout | undefined;
  if (opts.timeoutMs !== undefined && opts.timeoutMs > 0) {
    timer = setTimeout(() => {
      killedOnTimeout.add(child);
      killGit(child);
    }, opts.timeoutMs);
    timer.unref();
  }
  const signal = opts.signal;
  const onAbort = () => killGit(child);
  if (signal) {
    if (signal.aborted) queueMicrotask(onAbort);
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  child.once('close', () => {
    if (timer) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
  // Writing to a process that already exited raises EPIPE on stdin; the exit status tells the story.
  child.stdin?.on('error', () => undefined);
  return child;
}

/** True when {@link spawnGit}'s own timeout killed the process. */
export function timedOut(child: ChildProcess): boolean {
  return killedOnTimeout.has(child);
}

/**
 * Runs `git <args>` to completion and collects its output. Rejects with {@link GitError} on a
 * non-zero exit (unless listed in `okCodes`), on timeout (default 60 s, the process group is
 * SIGKILLed), when stdout exceeds `maxOutputBytes`, or when the process cannot be started.
 * User values in `args` must come after `--end-of-options` or `--`.
 */
export function runGit(args: readonly string[], opts: RunGitOptions = {}): Promise<GitResult> {
  const maxOut = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise<GitResult>((resolve, reject) => {
    const child = spawnGit(args, { ...opts, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    const chunks: Buffer[] = [];
    let outLen = 0;
    let err = '';
    let overflow = false;
    child.stdout!.on('data', (c: Buffer) => {
      if (overflow) return;
      outLen += c.length;
      if (outLen > maxOut) {
        overflow = true;
        chunks.length = 0;
        killGit(child);
        return;
      }
      chunks.push(c);
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (s: string) => {
      if (err.length < STDERR_CAP) err += s.slice(0, STDERR_CAP - err.length);
    });
    child.once('error', (e) => {
      // 'error' without a pid: git could not be started (and 'close' may never come).
      if (child.pid === undefined) {
        const cwd = opts.cwd ?? opts.gitDir;
        const why = (e as NodeJS.ErrnoException).code === 'ENOENT' && cwd !== undefined ? `${e.message} (git not found or no directory ${cwd})` : e.message;
        reject(new GitError('spawn', args, null, null, why, e));
      }
    });
    child.once('close', (code, sig) => {
      if (timedOut(child)) return reject(new GitError('timeout', args, code, sig, err));
      if (overflow) return reject(new GitError('output_limit', args, code, sig, err));
      if (opts.signal?.aborted && code === null) return reject(new GitError('aborted', args, code, sig, err));
      if (code === null || (code !== 0 && !(opts.okCodes ?? []).includes(code))) {
        return reject(new GitError('exit', args, code, sig, err));
      }
      resolve({ stdout: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, outLen), stderr: err, code });
    });
    const input = opts.input;
    const stdin = child.stdin!;
    if (input === undefined) stdin.end();
    else if (typeof input === 'string' || Buffer.isBuffer(input)) stdin.end(input);
    else {
      input.on('error', () => killGit(child));
      input.pipe(stdin);
    }
  });
}
