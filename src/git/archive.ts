/**
 * Archives of one commit written to a file: `git archive` (zip, tar) streamed from git's stdout to disk,
 * tar.gz compressed beside git (see {@link writeTarGzWithGzip}), and `git bundle create` (through a throw-away
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
  if (format === 'tar.gz') {
    const gzip = await gnuGzip();
    return gzip ? writeTarGzWithGzip(gzip, repoPath, sha, prefix, dest) : writeStreamed(repoPath, archiveArgs('tar', prefix, sha), dest, true);
  }
  return writeStreamed(repoPath, archiveArgs('zip', prefix, sha), dest, false);
}

const archiveArgs = (format: 'zip' | 'tar', prefix: string, sha: string) => ['archive', `--format=${format}`, `--prefix=${prefix}`, '--end-of-options', sha];

/** git's output streamed to `dest` through this process, gzip-compressed by zlib on the thread pool when asked. */
async function writeStreamed(repoPath: string, args: readonly string[], dest: string, gzip: boolean): Promise<void> {
  const child = spawnGit(args, { gitDir: repoPath, timeoutMs: ARCHIVE_TIMEOUT_MS });
  const exited = exitOf(child, gitVerdict(child, args));
  try {
    if (gzip) await pipeline(child.stdout!, batcher(GZIP_BATCH_BYTES), createGzip(), createWriteStream(dest));
    else await pipeline(child.stdout!, createWriteStream(dest));
  } catch (e) {
    killGit(child);
    await exited.catch(() => undefined);
    throw e;
  }
  return exited;
}

/** How a process ended; `spawnError` when it never started. */
interface ProcessEnd {
  readonly code: number | null;
  readonly sig: NodeJS.Signals | null;
  readonly stderr: string;
  readonly spawnError?: Error;
}

/** The error a process's end means, or null for success. */
type Verdict = (end: ProcessEnd) => Error | null;

/**
 * Resolves when the process has ended well and its output is drained; rejects with the verdict's error
 * otherwise. The error listener comes first: a process that could not be started (EMFILE) has no stdio
 * streams, and its error must not go unheard.
 */
function exitOf(child: ChildProcess, verdict: Verdict): Promise<void> {
  let stderr = '';
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (e) => {
      if (child.pid === undefined) reject(verdict({ code: null, sig: null, stderr, spawnError: e }));
    });
    child.once('close', (code, sig) => {
      const err = verdict({ code, sig, stderr });
      if (err) reject(err);
      else resolve();
    });
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => {
    if (stderr.length < 64 * 1024) stderr += s;
  });
  // Callers await this after the output is written; the process may fail before then.
  done.catch(() => undefined);
  return done;
}

const gitVerdict =
  (child: ChildProcess, args: readonly string[]): Verdict =>
  ({ code, sig, stderr, spawnError }) => {
    if (spawnError) return new GitError('spawn', args, null, null, spawnError.message, spawnError);
    if (timedOut(child)) return new GitError('timeout', args, code, sig, stderr);
    return code === 0 ? null : new GitError('exit', args, code, sig, stderr);
  };

const gzipVerdict: Verdict = ({ code, sig, stderr, spawnError }) => {
  if (spawnError) return new Error(`gzip could not be started: ${spawnError.message}`, { cause: spawnError });
  if (code === 0) return null;
  const why = sig === 'SIGKILL' ? 'was stopped (timed out)' : `exited with ${code ?? sig}`;
  return new Error(`gzip ${why}${stderr.trim() ? `: ${stderr.trim().split('\n')[0]}` : ''}`);
};

/**
 * tar.gz without git's built-in gzip, which deflates in git's own process after producing each block, so
 * reading objects and compressing take turns. Here they run side by side: git's tar goes straight into a
 * `gzip -n -6` process writing the file (`git archive | gzip -n`, without node touching the bytes). Without
 * GNU gzip on the machine {@link writeStreamed} compresses with zlib instead. Either way the result is a gzip
 * stream at level 6 with no name or time stamp; the bytes for a commit stay the same on a host as long as its
 * compressor does (GNU gzip and zlib, like git's built-in gzip, each choose their own deflate blocks).
 */
async function writeTarGzWithGzip(gzipPath: string, repoPath: string, sha: string, prefix: string, dest: string): Promise<void> {
  const args = archiveArgs('tar', prefix, sha);
  const out = await open(dest, 'w');
  let git: ChildProcess | undefined;
  let gitDone: Promise<void> | undefined;
  let gz: ChildProcess | undefined;
  let gzTimer: NodeJS.Timeout | undefined;
  try {
    git = spawnGit(args, { gitDir: repoPath, timeoutMs: ARCHIVE_TIMEOUT_MS });
    gitDone = exitOf(git, gitVerdict(git, args));
    // gzip reads git's stdout pipe itself; once it holds the descriptor this process lets go of its copy, so
    // git's exit is gzip's end of input. If gzip dies first, git gets SIGPIPE.
    gz = spawn(gzipPath, ['-n', '-6'], { stdio: [git.stdout!, out.fd, 'pipe'], env: { LC_ALL: 'C' }, shell: false });
    const gzDone = exitOf(gz, gzipVerdict);
    git.stdout!.destroy();
    const stuck = gz;
    gzTimer = setTimeout(() => stuck.kill('SIGKILL'), ARCHIVE_TIMEOUT_MS);
    gzTimer.unref();
    const [gitResult, gzResult] = await Promise.allSettled([gitDone, gzDone]);
    // gzip's failure first: git dying of SIGPIPE is only its consequence.
    if (gzResult.status === 'rejected') throw gzResult.reason;
    if (gitResult.status === 'rejected') throw gitResult.reason;
  } catch (e) {
    if (git) killGit(git);
    if (gz && gz.exitCode === null && gz.signalCode === null) gz.kill('SIGKILL');
    await gitDone?.catch(() => undefined);
    throw e;
  } finally {
    clearTimeout(gzTimer);
    await out.close();
  }
}

let gzipProbe: Promise<string | null> | undefined;

/**
 * The path of GNU gzip on PATH (`gzip --version` says so); null when there is none. A definite answer is kept
 * for the life of the process, so that one host keeps one compressor; a probe that failed for another reason
 * (a timeout under load) is tried again next time.
 */
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
    execFile(bin, ['--version'], { env: { LC_ALL: 'C' }, timeout: 5000 }, (err, stdout) => {
      if (!err) return resolve(/^gzip \d/u.test(stdout) ? bin : null);
      // It ran and refused --version: not GNU gzip, for good. Killed by the timeout or not started: ask again.
      if (typeof err.code !== 'number' || err.killed) gzipProbe = undefined;
      resolve(null);
    });
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
