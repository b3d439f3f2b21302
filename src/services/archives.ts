import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../domain/errors.js';
import { writeArchive, type ArchiveFormat } from '../git/archive.js';
import { isValidBranchName } from '../git/refs.js';
import { directRefResolver } from '../git/refstore.js';
import type { CommitService } from './commits.js';
import type { ServiceDeps } from './context.js';
import type { RepoAccess, RepoService } from './repos.js';

/** An archive ready to be streamed: an open file, so a later eviction cannot cut the download short. */
export interface ArchiveDownload {
  readonly stream: Readable;
  readonly size: number;
  readonly modified: Date;
  /** `<repo>-<ref>.<ext>`, slashes of the ref replaced by dashes (Gitea's download name). */
  readonly filename: string;
  readonly contentType: string;
}

const FORMATS: readonly { suffix: string; format: ArchiveFormat; contentType: string }[] = [
  { suffix: '.zip', format: 'zip', contentType: 'application/zip' },
  { suffix: '.tar.gz', format: 'tar.gz', contentType: 'application/gzip' },
  { suffix: '.bundle', format: 'bundle', contentType: 'application/octet-stream' },
];
/** A temporary file older than this belongs to a build that died with its process. */
const STALE_TMP_MS = 60 * 60_000;

/**
 * repoGetArchive: archives built once per repository, commit, name and format under
 * `<APP_DATA_PATH>/repo-archive/<repo id>/`, written to a temporary name and renamed into place, so a
 * crash never leaves a partial archive; identical concurrent requests share one build. After each build
 * the oldest archives (by modification time) are removed until the cache fits `[repository]
 * ARCHIVE_CACHE_MAX_BYTES`.
 */
export function createArchiveService(deps: ServiceDeps, repos: RepoService, commits: CommitService) {
  const cacheDir = join(deps.config.server.appDataPath, 'repo-archive');
  const maxBytes = deps.config.repository.archiveCacheMaxBytes;
  const inflight = new Map<string, Promise<void>>();
  /** Requests waiting to open an archive being built, by file. */
  const waiting = new Map<string, number>();
  let builds = 0;

  async function build(repoPath: string, sha: string, format: ArchiveFormat, prefix: string, file: string): Promise<void> {
    const dir = join(file, '..');
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
    builds++;
    try {
      await writeArchive(repoPath, sha, format, prefix, tmp);
      await rename(tmp, file);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    await evict(file).catch((e: unknown) => deps.log.warn('archive cache eviction failed', { err: String(e) }));
  }

  /** Removes the oldest archives until the cache fits, never `keep` (the archive just built) nor one a request waits for. */
  async function evict(keep: string): Promise<void> {
    const files: { path: string; size: number; mtime: number }[] = [];
    const now = Date.now();
    for (const d of await readdir(cacheDir, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      const sub = join(cacheDir, d.name);
      for (const name of await readdir(sub).catch(() => [] as string[])) {
        const p = join(sub, name);
        const st = await stat(p).catch(() => null);
        if (!st?.isFile()) continue;
        if (name.startsWith('.tmp-')) {
          if (now - st.mtimeMs > STALE_TMP_MS) await rm(p, { force: true });
          continue;
        }
        files.push({ path: p, size: st.size, mtime: st.mtimeMs });
      }
    }
    let total = files.reduce((n, f) => n + f.size, 0);
    files.sort((a, b) => a.mtime - b.mtime);
    for (const f of files) {
      if (total <= maxBytes) break;
      if (f.path === keep || waiting.has(f.path)) continue;
      await rm(f.path, { force: true });
      total -= f.size;
    }
  }

  /**
   * The common case without a git round trip (a cold archive otherwise starts a cat-file process first): a
   * plain branch name that git's own lookup order (`refs/<name>`, `refs/tags/<name>`, then `refs/heads/<name>`)
   * resolves to the branch, read from the ref files. Anything else (tags, ids, odd names) is left to git.
   */
  function branchTip(repoPath: string, ref: string): string | null {
    if (!isValidBranchName(ref) || /^[0-9a-f]{4,64}$/iu.test(ref) || ref === 'HEAD' || !/^[\w.-]+(?:\/[\w.-]+)*$/u.test(ref)) return null;
    const resolve = directRefResolver(repoPath);
    if (resolve(`refs/${ref}`) !== null || resolve(`refs/tags/${ref}`) !== null) return null;
    return resolve(`refs/heads/${ref}`) ?? null;
  }

  /**
   * The archive `archive` names (`<ref>.zip`, `<ref>.tar.gz` or `<ref>.bundle`), from the cache or
   * built now. 400 "unknown format: X" for another suffix; 404 "unrecognized repository reference: X"
   * when the ref names no commit.
   */
  async function get(access: RepoAccess, archive: string): Promise<ArchiveDownload> {
    const kind = FORMATS.find((f) => archive.endsWith(f.suffix) && archive.length > f.suffix.length);
    if (!kind) throw new AppError('bad_request', `unknown format: ${archive}`);
    const ref = archive.slice(0, -kind.suffix.length);
    const repoPath = repos.repoPath(access.repo.id);
    const sha = access.repo.isEmpty ? null : (branchTip(repoPath, ref) ?? (await commits.resolveCommit(repoPath, ref)));
    if (!sha) throw new AppError('not_found', `unrecognized repository reference: ${ref}`);
    const name = access.repo.name;
    // The prefix inside zip and tar archives is the repository name, so the name is part of the key.
    const file = join(cacheDir, String(access.repo.id), `${sha}.${name}.${kind.format}`);
    let fh = await open(file, 'r').catch(() => null);
    if (!fh) {
      // Waiters are counted so that no eviction removes the archive between its build and their open.
      waiting.set(file, (waiting.get(file) ?? 0) + 1);
      try {
        let pending = inflight.get(file);
        if (!pending) {
          pending = build(repoPath, sha, kind.format, `${name}/`, file).finally(() => inflight.delete(file));
          inflight.set(file, pending);
        }
        await pending;
        fh = await open(file, 'r');
      } finally {
        const n = (waiting.get(file) ?? 1) - 1;
        if (n > 0) waiting.set(file, n);
        else waiting.delete(file);
      }
    }
    const st = await fh.stat();
    return {
      stream: fh.createReadStream(),
      size: st.size,
      modified: st.mtime,
      filename: `${name}-${ref.replaceAll('/', '-')}.${kind.format}`,
      contentType: kind.contentType,
    };
  }

  /** Number of archives built since start (the cache's miss count). */
  const buildCount = (): number => builds;

  return { get, buildCount, cacheDir };
}

export type ArchiveService = ReturnType<typeof createArchiveService>;
