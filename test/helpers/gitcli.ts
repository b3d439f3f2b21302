// The stock `git` client for end-to-end tests against the running server: a clean environment (temp HOME,
// no system or global configuration, no prompts, no credential helpers), never the module under test.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GitRunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string>;
}

export interface GitCli {
  /** A fresh directory under the client's temp root. */
  dir(prefix?: string): Promise<string>;
  /** Runs git; never throws on a non-zero exit. */
  run(args: readonly string[], opts?: GitRunOptions): Promise<GitResult>;
  /** Runs git and throws with git's stderr on failure; returns trimmed stdout. */
  ok(args: readonly string[], opts?: GitRunOptions): Promise<string>;
  /** A new local repository on `branch` with one commit per entry of `files` (path -> content); returns its path. */
  initWithCommit(branch: string, files: Record<string, string>, message?: string): Promise<string>;
  /** Writes `files` and commits them in `cwd`; returns the new commit's sha. */
  commit(cwd: string, files: Record<string, string>, message: string, env?: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

/** The author and committer of commits made by the test client (a dotted domain: PayloadUser.email is format email). */
/** The HTTP remote of `owner/repo` on the test server, authenticated with the owner's token. */
export function tokenRemote(serverUrl: string, owner: { name: string; token: string }, repo: string): string {
  const u = new URL(`${serverUrl}/${owner.name}/${repo}.git`);
  u.username = owner.name;
  u.password = owner.token;
  return u.toString();
}

export const CLIENT_NAME = 'Test Pusher';
export const CLIENT_EMAIL = 'pusher@example.com';

/** A git client with its own temporary HOME. */
export async function createGitCli(): Promise<GitCli> {
  const root = await mkdtemp(join(tmpdir(), 'anvil-gitcli-'));
  const home = join(root, 'home');
  await mkdir(home);
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    LC_ALL: 'C',
  };
  const baseArgs = ['-c', `user.name=${CLIENT_NAME}`, '-c', `user.email=${CLIENT_EMAIL}`, '-c', 'init.defaultBranch=main', '-c', 'credential.helper=', '-c', 'advice.detachedHead=false'];

  const run: GitCli['run'] = (args, opts = {}) =>
    new Promise((resolve) => {
      const child = execFile(
        'git',
        [...baseArgs, ...args],
        { cwd: opts.cwd ?? root, env: { ...baseEnv, ...opts.env }, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', timeout: 60_000 },
        (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
      child.stdin?.end();
    });
  const ok: GitCli['ok'] = async (args, opts) => {
    const r = await run(args, opts);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout.trim();
  };
  let n = 0;
  const dir: GitCli['dir'] = (prefix = 'w') => mkdtemp(join(root, `${prefix}${n++}-`));
  const commit: GitCli['commit'] = async (cwd, files, message, env) => {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(cwd, path)), { recursive: true });
      await writeFile(join(cwd, path), content);
    }
    await ok(['add', '--', ...Object.keys(files)], { cwd });
    await ok(['commit', '-q', '-m', message], { cwd, env });
    return ok(['rev-parse', 'HEAD'], { cwd });
  };
  return {
    dir,
    run,
    ok,
    commit,
    async initWithCommit(branch, files, message = 'first commit') {
      const d = await dir('local');
      await ok(['init', '-q', '-b', branch, d]);
      await commit(d, files, message);
      return d;
    },
    close: () => rm(root, { recursive: true, force: true }),
  };
}
