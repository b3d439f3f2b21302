/**
 * Archives of one commit written to a file: `git archive` (zip; tar, compressed here for tar.gz) streamed
 * from git's stdout to disk, and `git bundle create` (through a throw-away repository that borrows the objects, as
 * Gitea's CreateBundle does, because git refuses to bundle a bare object id). The caller chooses the
 * destination (a temporary name it renames when this resolves), so no partial file is ever visible.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { GitError, killGit, runGit, spawnGit, timedOut } from './run.js';

/** The archive formats Gitea serves. */
export type ArchiveFormat = 'zip' | 'tar.gz' | 'bundle';

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/u;
/** Archives of large trees take a while; a stuck process must still end. */
const ARCHIVE_TIMEOUT_MS = 10 * 60_000;
/** git writes tar output in 10 KiB records; zlib gets them in batches of at least this size. */
const GZIP_BATCH_BYTES = 64 * 1024;

/**
 * Joins small chunks into batches of at least `size` bytes. Each write to a zlib stream is one job on
 * libuv's thread pool; per-record jobs spend more on hand-offs than on compressing.
 */
function batcher(size: number): Transform {
  let parts: Buffer[] = [];
  let length = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      parts.push(chunk);
      length += chunk.length;
      if (length >= size) {
        this.push(parts.length === 1 ? parts[0] : Buffer.concat(parts, length));
        parts = [];
        length = 0;
      }
      done();
    },
    flush(done: TransformCallback) {
      if (length > 0) this.push(Buffer.concat(parts, length));
      done();
    },
  });
}

/**
 * Writes the archive of commit `sha` in `format` to `dest` (created or truncated). zip and tar.gz put
 * every path under `prefix` (e.g. `repo/`); a bundle holds the commit's history as `refs/heads/bundle`
 * and `HEAD`. Rejects with {@link GitError} when git fails; `dest` may then hold partial output.
 */
export async function writeArchive(repoPath: string, sha: string, format: ArchiveFormat, prefix: string, dest: string): Promise<void> {
  if (!OID.test(sha)) throw new Error('archives are made from object ids');
  if (format === 'bundle') return writeBundle(repoPath, sha, dest);
  if (prefix.includes('\0') || prefix.startsWith('-')) throw new Error('unsafe archive prefix');
  // tar.gz: git makes the tar and zlib compresses it on the thread pool while git is still reading
  // objects, so the two halves run side by side (git's built-in gzip runs them one after the other in
  // one process). Same deflate level (6) as git and gzip; a single gzip member.
  const gzip = format === 'tar.gz';
  const args = ['archive', `--format=${gzip ? 'tar' : format}`, `--prefix=${prefix}`, '--end-of-options', sha];
  const child = spawnGit(args, { gitDir: repoPath, timeoutMs: ARCHIVE_TIMEOUT_MS });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (s: string) => {
    if (stderr.length < 64 * 1024) stderr += s;
  });
  const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', (e) => {
      if (child.pid === undefined) reject(new GitError('spawn', args, null, null, e.message, e));
    });
    child.once('close', (code, sig) => resolve({ code, sig }));
  });
  try {
    if (gzip) await pipeline(child.stdout!, batcher(GZIP_BATCH_BYTES), createGzip(), createWriteStream(dest));
    else await pipeline(child.stdout!, createWriteStream(dest));
  } catch (e) {
    killGit(child);
    await exited.catch(() => undefined);
    throw e;
  }
  const { code, sig } = await exited;
  if (timedOut(child)) throw new GitError('timeout', args, code, sig, stderr);
  if (code !== 0) throw new GitError('exit', args, code, sig, stderr);
}

async function writeBundle(repoPath: string, sha: string, dest: string): Promise<void> {
  const tmp = await mkdtemp(join(tmpdir(), 'anvil-bundle-'));
  try {
    // A bare repository whose object directory is the real one: nothing is copied and nothing is
    // written to the real repository's refs.
    const env = { GIT_OBJECT_DIRECTORY: join(repoPath, 'objects') };
    await runGit(['init', '--bare', '--quiet', tmp], { cwd: tmp, env });
    await writeFile(join(tmp, 'HEAD'), 'ref: refs/heads/bundle\n');
    await runGit(['update-ref', '--end-of-options', 'refs/heads/bundle', sha], { gitDir: tmp, env });
    await runGit(['bundle', 'create', '--quiet', '--end-of-options', dest, 'bundle', 'HEAD'], { gitDir: tmp, env, timeoutMs: ARCHIVE_TIMEOUT_MS });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
