/**
 * Archives of one commit written to a file: `git archive` (zip, tar) streamed from git's stdout to disk,
 * tar.gz compressed beside git (see {@link writeTarGz}), and `git bundle create` (through a throw-away
 * repository that borrows the objects, as Gitea's CreateBundle does, because git refuses to bundle a bare
 * object id). The caller chooses the destination (a temporary name it renames when this resolves), so no
 * partial file is ever visible.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
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
 * Writes the archive of commit `sha` in `format` to `dest` (created or truncated). zip and tar.gz put
 * every path under `prefix` (e.g. `repo/`); a bundle holds the commit's history as `refs/heads/bundle`
 * and `HEAD`. Rejects with {@link GitError} when git fails; `dest` may then hold partial output.
 */
export async function writeArchive(repoPath: string, sha: string, format: ArchiveFormat, prefix: string, dest: string): Promise<void> {
  if (!OID.test(sha)) throw new Error('archives are made from object ids');
  if (format === 'bundle') return writeBundle(repoPath, sha, dest);
  if (prefix.includes('\0') || prefix.startsWith('-')) throw new Error('unsafe archive prefix');
  if (format === 'tar.gz') return writeTarGz(repoPath, sha, prefix, dest);
  const args = archiveArgs('zip', prefix, sha);
  const child = spawnGit(args, { gitDir: repoPath, timeoutMs: ARCHIVE_TIMEOUT_MS });
  const exited = exitOf(child, args);
  try {
    await pipeline(child.stdout!, createWriteStream(dest));
  } catch (e) {
    killGit(child);
    await exited.catch(() => undefined);
    throw e;
  }
  await exited;
}

const archiveArgs = (format: 'zip' | 'tar', prefix: string, sha: string) => ['archive', `--format=${format}`, `--prefix=${prefix}`, '--end-of-options', sha];

/** Resolves when git has exited 0 and its output is drained; rejects with {@link GitError} otherwise. */
function exitOf(child: ChildProcess, args: readonly string[]): Promise<void> {
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (s: string) => {
    if (stderr.length < 64 * 1024) stderr += s;
  });
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (e) => {
      if (child.pid === undefined) reject(new GitError('spawn', args, null, null, e.message, e));
    });
    child.once('close', (code, sig) => {
      if (timedOut(child)) reject(new GitError('timeout', args, code, sig, stderr));
      else if (code !== 0) reject(new GitError('exit', args, code, sig, stderr));
      else resolve();
    });
  });
  // Callers await this after the output is written; git may fail before then.
  done.catch(() => undefined);
  return done;
}

/**
 * tar.gz without git's built-in gzip, which deflates in git's own process after producing each block, so
 * reading objects and compressing take turns. Here they run side by side: git's tar goes straight into a
 * `gzip -n` process writing the file (what `git archive | gzip` does, without node touching the bytes), or,
 * without GNU gzip on the machine, through zlib on node's thread pool. Both give one gzip member at
 * level 6 with no name or time stamp, so the same commit always gives the same bytes.
 */
async function writeTarGz(repoPath: string, sha: string, prefix: string, dest: string): Promise<void> {
  const args = archiveArgs('tar', prefix, sha);
  const gzip = await gnuGzip();
  const out = gzip ? await open(dest, 'w') : null;
  const git = spawnGit(args, { gitDir: repoPath, timeoutMs: ARCHIVE_TIMEOUT_MS });
  const gitDone = exitOf(git, args);
  if (!gzip || !out) {
    try {
      await pipeline(git.stdout!, batcher(GZIP_BATCH_BYTES), createGzip(), createWriteStream(dest));
    } catch (e) {
      killGit(git);
      await gitDone.catch(() => undefined);
      throw e;
    }
    return gitDone;
  }
  try {
    // gzip reads git's stdout pipe itself; once it holds the descriptor this process lets go of its copy,
    // so git's exit is gzip's end of input. If gzip dies first, git gets EPIPE and fails too.
    const gz = spawn(gzip, ['-n', '-6'], { stdio: [git.stdout!, out.fd, 'pipe'], env: { LC_ALL: 'C' }, shell: false });
    git.stdout!.destroy();
    let gzErr = '';
    gz.stderr!.setEncoding('utf8');
    gz.stderr!.on('data', (s: string) => {
      if (gzErr.length < 4096) gzErr += s;
    });
    const gzDone = new Promise<void>((resolve, reject) => {
      gz.once('error', reject);
      gz.once('close', (code, sig) => (code === 0 ? resolve() : reject(new Error(`gzip failed (${code ?? sig}): ${gzErr.trim()}`))));
    });
    const [gitResult, gzResult] = await Promise.allSettled([gitDone, gzDone]);
    if (gitResult.status === 'rejected') throw gitResult.reason;
    if (gzResult.status === 'rejected') throw gzResult.reason;
  } catch (e) {
    killGit(git);
    await gitDone.catch(() => undefined);
    throw e;
  } finally {
    await out.close();
  }
}

let gzipProbe: Promise<string | null> | undefined;

/** The path of GNU gzip on PATH, probed once (`gzip --version`); null when there is none. */
function gnuGzip(): Promise<string | null> {
  gzipProbe ??= new Promise((resolve) => {
    let found: string | undefined;
    for (const dir of (process.env.PATH ?? '').split(':')) {
      if (!dir.startsWith('/')) continue; // relative PATH entries depend on the working directory
      try {
        accessSync(join(dir, 'gzip'), fsConstants.X_OK);
        found = join(dir, 'gzip');
        break;
      } catch {
        // not here
      }
    }
    if (!found) return resolve(null);
    const bin = found;
    execFile(bin, ['--version'], { env: { LC_ALL: 'C' }, timeout: 5000 }, (err, stdout) => resolve(!err && /^gzip \d/u.test(stdout) ? bin : null));
  });
  return gzipProbe;
}

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
