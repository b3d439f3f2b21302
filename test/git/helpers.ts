// Helpers for the git module's tests: temp directories and a stock `git` client with a clean environment.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dirs: string[] = [];

/** A fresh temp directory, removed by cleanupTmp(). */
export async function tmp(prefix = 'anvil-gittest-'): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

export async function cleanupTmp(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

let clientHome: string | undefined;

/** The environment of the test's own git client: no user or system configuration. */
export async function clientEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  clientHome ??= await tmp('anvil-gitclient-home-');
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: clientHome,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Client',
    GIT_AUTHOR_EMAIL: 'client@example.com',
    GIT_COMMITTER_NAME: 'Client',
    GIT_COMMITTER_EMAIL: 'client@example.com',
    LC_ALL: 'C',
    ...extra,
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the stock git CLI (never through the module under test); does not throw on failure. */
export async function git(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<CliResult> {
  const env = opts.env ?? (await clientEnv());
  return new Promise((resolve) => {
    const child = execFile('git', args, { cwd: opts.cwd, env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    else child.stdin!.end();
  });
}

/** Like git() but fails the test on a non-zero exit; returns trimmed stdout. */
export async function gitOk(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<string> {
  const r = await git(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

/** Pids of live processes whose working directory is `dir` (Linux /proc). */
export async function processesIn(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ((await readlink(`/proc/${entry}/cwd`)) !== dir) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // A zombie (state Z) has exited already.
      if (/^\d+ \(.*\) Z/.test(stat)) continue;
      pids.push(Number(entry));
    } catch {
      // gone or not ours
    }
  }
  return pids;
}

/** Pids of live processes whose command line contains `needle`. */
export async function processesMatching(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0').join(' ');
      if (!cmd.includes(needle)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (/^\d+ \(.*\) Z/.test(stat)) continue;
      pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/** Polls `check` until it returns true or `ms` elapse. */
export async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}
