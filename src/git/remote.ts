/**
 * Fetching from other servers (migrations and pull mirrors). The caller has already checked the address
 * against the outbound policy; here git is made to connect to exactly what was checked and nothing else:
 * redirects off, the host name pinned to the checked address (`http.curloptResolve`; for `git://` the URL
 * already names the address), no credential helpers or prompts, and credentials only in the environment
 * (never in argv, in the stored remote URL or in git's config file).
 */
import { appendFile, mkdir, rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { isAbsolute, join } from 'node:path';
import { REPO_CONFIG } from './repo.js';
import { runGit } from './run.js';

/** How to reach the remote. */
export interface RemoteTarget {
  /** http(s) or git URL without credentials. For git:// the host is already the checked IP address. */
  readonly url: string;
  /** For http(s): `host:port:address` entries handed to curl so it connects only to the checked addresses. */
  readonly resolve?: readonly string[];
  /** Extra HTTP headers (the Authorization header); passed through the environment. */
  readonly headers?: readonly string[];
  /** Whole-command budget; default 10 minutes. */
  readonly timeoutMs?: number;
  /** Kills git (and what it forked) when aborted, e.g. at shutdown. */
  readonly signal?: AbortSignal;
}

const DEFAULT_TIMEOUT = 10 * 60_000;

/**
 * The `http.curloptResolve` entries that pin `host:port` to the checked addresses. curl (seen with 7.88) keys its
 * DNS cache by the host exactly as written, so `example.com.` misses an entry for `example.com` and curl resolves
 * the name itself (DNS rebinding past the check): both spellings are pinned, and callers also hand git the URL
 * without the trailing dot. IP-literal hosts need no entry.
 */
export function pinnedResolve(host: string, port: string, addresses: readonly string[]): string[] {
  const bare = host.replace(/\.+$/u, '');
  if (bare === '' || addresses.length === 0 || isIP(bare) !== 0 || bare.startsWith('[')) return [];
  const list = addresses.map((a) => (isIP(a) === 6 ? `[${a}]` : a)).join(',');
  return [`${bare}:${port}:${list}`, `${bare}.:${port}:${list}`];
}

function remoteOptions(t: RemoteTarget): { config: Record<string, string>; env: Record<string, string> } {
  const config: Record<string, string> = {
    'http.followRedirects': 'false',
    // Only the transports a migration may use; file://, ext:: and ssh stay off whatever the URL says.
    'protocol.allow': 'never',
    'protocol.http.allow': 'always',
    'protocol.https.allow': 'always',
    'protocol.git.allow': 'always',
    // Server-advertised bundle URIs (newer git) would send git to other hosts, past the pinning below; packfile
    // URIs stay off because fetch.uriProtocols is never set.
    'transfer.bundleURI': 'false',
    'http.lowSpeedLimit': '1',
    'http.lowSpeedTime': '120',
  };
  // Multi-valued settings (several resolve entries, several headers) go through GIT_CONFIG_* so that values
  // (credentials among them) never appear in the process list.
  const env: Record<string, string> = {};
  const entries: [string, string][] = [];
  for (const r of t.resolve ?? []) entries.push(['http.curloptResolve', r]);
  for (const h of t.headers ?? []) entries.push(['http.extraHeader', h]);
  entries.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  if (entries.length) env.GIT_CONFIG_COUNT = String(entries.length);
  return { config, env };
}

/**
 * Clones the branches and tags of `t.url` into a new bare repository at `dst` (which must not exist), with HEAD
 * as the remote's. No remote is left configured. On failure nothing is left at `dst`.
 */
export async function cloneRemote(t: RemoteTarget, dst: string): Promise<void> {
  if (!isAbsolute(dst)) throw new Error(`repository path must be absolute: ${dst}`);
  const { config, env } = remoteOptions(t);
  try {
    await runGit(['clone', '--bare', '--quiet', '--no-tags', '--template=', '--', t.url, dst], { config, env, timeoutMs: t.timeoutMs ?? DEFAULT_TIMEOUT, cwd: '/', ...(t.signal ? { signal: t.signal } : {}) });
    // --bare clones heads only with --no-tags; tags come with an explicit refspec (no remote-tracking refs kept).
    await runGit(['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', '--', t.url, '+refs/tags/*:refs/tags/*'], {
      gitDir: dst,
      config,
      env,
      timeoutMs: t.timeoutMs ?? DEFAULT_TIMEOUT,
      ...(t.signal ? { signal: t.signal } : {}),
    });
    await runGit(['config', '--remove-section', 'remote.origin'], { gitDir: dst, okCodes: [128] });
    await mkdir(join(dst, 'hooks'), { recursive: true });
    await appendFile(join(dst, 'config'), REPO_CONFIG);
  } catch (e) {
    await rm(dst, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Updates the branches and tags of the bare repository at `repoPath` from `t.url` (a mirror sync); with `prune`,
 * branches and tags gone from the remote are removed too.
 */
export async function fetchRemote(repoPath: string, t: RemoteTarget, opts: { prune: boolean }): Promise<void> {
  const { config, env } = remoteOptions(t);
  // Submodules of what is fetched are data: git never follows their URLs from here.
  const args = ['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', '--force'];
  if (opts.prune) args.push('--prune');
  args.push('--', t.url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*');
  await runGit(args, { gitDir: repoPath, config, env, timeoutMs: t.timeoutMs ?? DEFAULT_TIMEOUT, ...(t.signal ? { signal: t.signal } : {}) });
}

/** The branch HEAD names (short), or null when HEAD is detached or missing. */
export async function headBranch(repoPath: string): Promise<string | null> {
  const { stdout, code } = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], { gitDir: repoPath, okCodes: [1, 128] });
  const name = stdout.toString('utf8').trim();
  return code === 0 && name !== '' ? name : null;
}
