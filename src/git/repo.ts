/**
 * Bare repositories on disk: creation, refs, and server-side commits built with plumbing on a
 * temporary index (never a working tree, never hooks).
 */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { branchRef, isFullSha, isValidFullRef, InvalidRefNameError } from './refs.js';
import { GitError, runGit } from './run.js';

/** The hash function of a repository. */
export type ObjectFormat = 'sha1' | 'sha256';

/** Options of {@link initBare}. */
export interface InitBareOptions {
  /** The branch HEAD points at (validated like `git check-ref-format --branch`). */
  readonly defaultBranch: string;
  readonly objectFormat?: ObjectFormat;
}

/**
 * Settings every repository we host carries. Pushes may rewrite history (branch protection is
 * enforced by our own hooks), partial clones work, clients cannot ask for unadvertised objects,
 * and repacks write reachability bitmaps (server-side packing is about three times faster).
 */
export const REPO_CONFIG = `[receive]
\tdenyNonFastForwards = false
[uploadpack]
\tallowFilter = true
\tallowAnySHA1InWant = false
[repack]
\twriteBitmaps = true
`;

function assertAbsolute(path: string): void {
  if (!isAbsolute(path)) throw new Error(`repository path must be absolute: ${path}`);
}

/** The repository directory already exists (Gitea: "repository files already exist"). */
export class RepoExistsError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`repository directory already exists: ${path}`);
    this.name = 'RepoExistsError';
    this.path = path;
  }
}

/**
 * Claims `path` by creating it (parents first): exactly one of several concurrent callers wins,
 * the others get {@link RepoExistsError}.
 */
async function claimDirectory(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await mkdir(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new RepoExistsError(path);
    throw e;
  }
}

/**
 * Creates a bare repository at `path` (and its parent directories) with no template: an empty
 * `hooks/` directory, no sample hooks, no description. Throws {@link InvalidRefNameError} for a
 * bad branch name, {@link RepoExistsError} when `path` exists, and {@link GitError} when git fails
 * (for instance when SHA-256 is unsupported), leaving no directory behind.
 */
export async function initBare(path: string, opts: InitBareOptions): Promise<void> {
  assertAbsolute(path);
  const head = branchRef(opts.defaultBranch);
  await claimDirectory(path);
  try {
    await runGit([
      'init',
      '--bare',
      '--quiet',
      '--template=',
      `--initial-branch=${head.slice('refs/heads/'.length)}`,
      `--object-format=${opts.objectFormat ?? 'sha1'}`,
      '--',
      path,
    ]);
    await mkdir(join(path, 'hooks'), { recursive: true });
    await appendFile(join(path, 'config'), REPO_CONFIG);
  } catch (e) {
    await rm(path, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Copies the bare repository `src` to `dst` (for forks): all branches and tags, HEAD as in the
 * source, objects hard-linked when on the same filesystem, no remote left configured. Throws
 * {@link RepoExistsError} when `dst` exists; a failure leaves no directory behind.
 */
export async function cloneBare(src: string, dst: string): Promise<void> {
  assertAbsolute(src);
  assertAbsolute(dst);
  await claimDirectory(dst);
  try {
    await runGit(['clone', '--bare', '--local', '--quiet', '--template=', '--', src, dst], {
      config: { 'protocol.file.allow': 'always' },
      timeoutMs: 10 * 60_000,
    });
    await runGit(['config', '--remove-section', 'remote.origin'], { gitDir: dst, okCodes: [128] });
    await mkdir(join(dst, 'hooks'), { recursive: true });
    await appendFile(join(dst, 'config'), REPO_CONFIG);
  } catch (e) {
    await rm(dst, { recursive: true, force: true });
    throw e;
  }
}

let sha256Probe: Promise<boolean> | undefined;

/** Whether this git can create SHA-256 repositories (probed once per process). */
export function supportsSha256(): Promise<boolean> {
  sha256Probe ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'anvil-sha256-'));
    try {
      await runGit(['init', '--bare', '--quiet', '--template=', '--object-format=sha256', '--', join(dir, 'probe.git')], { timeoutMs: 10_000 });
      return true;
    } catch {
      return false;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return sha256Probe;
}

/** The hash function of an existing repository. */
export async function objectFormatOf(repoPath: string): Promise<ObjectFormat> {
  const { stdout } = await runGit(['rev-parse', '--show-object-format'], { gitDir: repoPath });
  return stdout.toString('utf8').trim() === 'sha256' ? 'sha256' : 'sha1';
}

/** A tree path that server-side edits refuse. */
export class InvalidPathError extends Error {
  readonly path: string;
  constructor(path: string, why: string) {
    super(`invalid path ${JSON.stringify(path)}: ${why}`);
    this.name = 'InvalidPathError';
    this.path = path;
  }
}

/** Why a file cannot be written where it was asked to go. */
export type PathConflict = 'file_in_the_way' | 'directory_exists' | 'duplicate';

/**
 * A written file collides with the tree: a parent directory of it is a file (or symlink) in the
 * parent commit, a directory already exists at its path, or the request names the path twice (or
 * both `x` and `x/y`). Git's index would silently drop the other entry; Gitea refuses.
 */
export class PathConflictError extends Error {
  readonly path: string;
  /** The path in the way (the file that is a parent directory of `path`, or `path` itself). */
  readonly conflictingPath: string;
  readonly conflict: PathConflict;
  constructor(path: string, conflictingPath: string, conflict: PathConflict) {
    const why =
      conflict === 'file_in_the_way'
        ? `${JSON.stringify(conflictingPath)} is a file, not a directory`
        : conflict === 'directory_exists'
          ? 'a directory exists at this path'
          : `conflicts with ${JSON.stringify(conflictingPath)} in the same change`;
    super(`cannot write ${JSON.stringify(path)}: ${why}`);
    this.name = 'PathConflictError';
    this.path = path;
    this.conflictingPath = conflictingPath;
    this.conflict = conflict;
  }
}

/** A revision that names no commit (e.g. the parent given to {@link commitFiles}). */
export class UnknownRevisionError extends Error {
  readonly revision: string;
  constructor(revision: string) {
    super(`${JSON.stringify(revision)} is not a commit`);
    this.name = 'UnknownRevisionError';
    this.revision = revision;
  }
}

/** A ref did not have the value the update expected (a concurrent update won, or it exists / is gone). */
export class RefConflictError extends Error {
  readonly ref: string;
  /** The value the caller expected: a sha, or null for "must not exist". */
  readonly expected: string | null;
  constructor(ref: string, expected: string | null, detail: string) {
    super(`ref ${ref} was not updated: ${detail}`);
    this.name = 'RefConflictError';
    this.ref = ref;
    this.expected = expected;
  }
}

// Unicode characters HFS+ ignores in names (git's is_hfs_dotgit list), so ".g\u200cit" is ".git" there.
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/** True when a path component names the repository directory on some filesystem. */
function isGitDirName(component: string): boolean {
  const c = component.replace(HFS_IGNORABLE, '').toLowerCase();
  // NTFS drops trailing dots and spaces (".git. ", ".git...") and knows the 8.3 name "git~1".
  const trimmed = c.replace(/[. ]+$/u, '');
  return trimmed === '.git' || c === 'git~1' || trimmed.startsWith('.git:');
}

/**
 * Checks a path for a server-side edit and returns it unchanged: relative, `/`-separated, at most
 * 4096 characters, no empty, `.` or `..` components, no `.git` component in any case or disguise
 * (`.GIT`, `.git.`, `git~1`), no backslash, NUL or other control characters. Throws
 * {@link InvalidPathError}.
 */
export function checkTreePath(path: string): string {
  if (path.length === 0) throw new InvalidPathError(path, 'empty');
  if (path.length > 4096) throw new InvalidPathError(path, 'too long');
  if (path.startsWith('/') || /^[A-Za-z]:/u.test(path)) throw new InvalidPathError(path, 'absolute');
  if (path.includes('\0')) throw new InvalidPathError(path, 'contains NUL');
  // eslint-disable-next-line no-control-regex
  if (/[\x01-\x1f\x7f]/u.test(path)) throw new InvalidPathError(path, 'contains a control character');
  if (path.includes('\\')) throw new InvalidPathError(path, 'contains a backslash');
  if (/[\uD800-\uDFFF]/u.test(path)) throw new InvalidPathError(path, 'not valid UTF-16');
  for (const component of path.split('/')) {
    if (component === '') throw new InvalidPathError(path, 'empty component');
    if (component === '.' || component === '..') throw new InvalidPathError(path, `"${component}" component`);
    if (isGitDirName(component)) throw new InvalidPathError(path, '.git component');
  }
  return path;
}

/** A person and time for a commit. */
export interface Signature {
  readonly name: string;
  readonly email: string;
  readonly when: Date;
  /** UTC offset as git writes it, `+0200` / `-0530`; default `+0000`. */
  readonly timezone?: string;
}

/** A file written by {@link commitFiles}. */
export interface CommitFile {
  readonly path: string;
  readonly content: Buffer | string;
  /** Default `100644`. */
  readonly mode?: '100644' | '100755';
}

/** Options of {@link commitFiles}. */
export interface CommitFilesOptions {
  /** Short name of the branch to update. */
  readonly branch: string;
  /**
   * The parent commit: `undefined` = the branch's current tip (none: a root commit); `null` = a
   * root commit; otherwise a revision resolving to a commit.
   */
  readonly parent?: string | null;
  /**
   * The value `refs/heads/<branch>` must have for the update to happen: a sha, or null = the
   * branch must not exist. Default: the parent (null for a root commit), so building on a branch
   * fails with {@link RefConflictError} if someone else moved it meanwhile. Pass null with a
   * parent from another branch to create a new branch.
   */
  readonly expectedOld?: string | null;
  readonly files?: readonly CommitFile[];
  /** Paths of files to remove (a path not in the tree is ignored). Applied before `files`. */
  readonly deletes?: readonly string[];
  /** Commit message; a final newline is added when missing, as Gitea does. */
  readonly message: string;
  readonly author: Signature;
  /** Default: the author. */
  readonly committer?: Signature;
}

function gitDate(s: Signature): string {
  const tz = s.timezone ?? '+0000';
  if (!/^[+-]\d{4}$/u.test(tz)) throw new Error(`invalid timezone offset: ${tz}`);
  const t = s.when.getTime();
  if (!Number.isFinite(t)) throw new Error('invalid date');
  return `@${Math.floor(t / 1000)} ${tz}`;
}

function signatureEnv(author: Signature, committer: Signature): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: gitDate(author),
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: gitDate(committer),
  };
}

const out = (b: Buffer): string => b.toString('utf8').trim();

/**
 * A user-supplied revision must never look like an option or smuggle a second line, and may not
 * use git's message searches (`:/text`, `rev^{/text}`), which walk the whole history.
 */
function plausibleRev(rev: string): boolean {
  return rev.length > 0 && rev.length <= 1024 && !rev.startsWith('-') && !/[\0\n\r]/u.test(rev) && !rev.startsWith(':/') && !rev.includes('{/');
}

/**
 * Builds a commit from the parent's tree plus `files` minus `deletes` and moves
 * `refs/heads/<branch>` to it atomically (compare-and-swap against `expectedOld`). Uses a
 * temporary index (GIT_INDEX_FILE in a temp dir) and plumbing only: `read-tree`, `hash-object -w`,
 * `update-index`, `write-tree`, `commit-tree`, `update-ref`; hooks are disabled. Returns the new
 * commit's sha.
 *
 * Throws {@link InvalidPathError} for a refused path, {@link PathConflictError} when a file would
 * replace a directory or sit below a file, {@link InvalidRefNameError} for a bad branch,
 * {@link RefConflictError} when the branch did not have the expected value (a concurrent update),
 * {@link UnknownRevisionError} when `parent` does not resolve to a commit, {@link GitError} otherwise.
 */
export async function commitFiles(repoPath: string, opts: CommitFilesOptions): Promise<string> {
  const ref = branchRef(opts.branch);
  const files = opts.files ?? [];
  const deletes = opts.deletes ?? [];
  for (const f of files) checkTreePath(f.path);
  for (const d of deletes) checkTreePath(d);

  const parent = await resolveParentAndCheck(repoPath, ref, opts.parent, files, deletes);
  const expectedOld = opts.expectedOld === undefined ? parent : opts.expectedOld;

  const tmp = await mkdtemp(join(tmpdir(), 'anvil-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(tmp, 'index') };
    if (parent !== null) await runGit(['read-tree', parent], { gitDir: repoPath, env });

    // One update-index for removals and additions; mode 0 with a zero id removes a path (deletes
    // only mean something on top of a parent, whose id length gives the zero id's).
    let info = '';
    if (parent !== null) {
      const zero = '0'.repeat(parent.length);
      for (const d of deletes) info += `0 ${zero}\t${d}\0`;
    }
    if (files.length > 0) {
      const shas = await writeBlobs(repoPath, tmp, files);
      info += files.map((f, i) => `${f.mode ?? '100644'} ${shas[i]!}\t${f.path}\0`).join('');
    }
    if (info.length > 0) await runGit(['update-index', '--add', '-z', '--index-info'], { gitDir: repoPath, env, input: info });

    const tree = out((await runGit(['write-tree'], { gitDir: repoPath, env })).stdout);
    const args = ['commit-tree', tree];
    if (parent !== null) args.push('-p', parent);
    const message = opts.message.endsWith('\n') ? opts.message : `${opts.message}\n`;
    const commit = out(
      (
        await runGit(args, {
          gitDir: repoPath,
          env: signatureEnv(opts.author, opts.committer ?? opts.author),
          input: message,
        })
      ).stdout,
    );
    await updateRef(repoPath, ref, commit, expectedOld);
    return commit;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Resolves the parent commit and refuses writes that git's index would resolve by silently
 * dropping entries (see {@link PathConflictError}), with one `cat-file --batch-check` process: the
 * first line resolves the parent, the others look up every parent directory of every written path.
 * If the branch moves between two lines, the compare-and-swap at the end fails anyway.
 */
async function resolveParentAndCheck(
  repoPath: string,
  ref: string,
  parentRev: string | null | undefined,
  files: readonly CommitFile[],
  deletes: readonly string[],
): Promise<string | null> {
  const written = new Set<string>();
  for (const f of files) {
    if (written.has(f.path)) throw new PathConflictError(f.path, f.path, 'duplicate');
    written.add(f.path);
  }
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (written.has(dir)) throw new PathConflictError(f.path, dir, 'duplicate');
    }
  }
  if (parentRev === null) return null;
  if (parentRev !== undefined && (!plausibleRev(parentRev) || parentRev.includes(':'))) throw new UnknownRevisionError(parentRev);
  const base = parentRev === undefined ? ref : `${parentRev}^{commit}`;
  // Every proper prefix must be a directory (or absent); the path itself must not be a directory.
  const queries: { path: string; self: boolean; file: string }[] = [];
  const asked = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const p = parts.slice(0, i).join('/');
      const self = i === parts.length;
      const key = `${self ? 's' : 'd'}${p}`;
      if (asked.has(key)) continue;
      asked.add(key);
      queries.push({ path: p, self, file: f.path });
    }
  }
  const input = [base, ...queries.map((q) => `${base}:${q.path}`)].map((l) => `${l}\n`).join('');
  const { stdout } = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { gitDir: repoPath, input });
  const lines = stdout.toString('utf8').split('\n');
  const head = /^([0-9a-f]{40,64}) commit$/u.exec(lines[0] ?? '');
  if (!head) {
    if (parentRev === undefined && lines[0] === `${base} missing`) return null; // a new branch: root commit
    throw new UnknownRevisionError(parentRev ?? ref);
  }
  const deleted = new Set(deletes);
  queries.forEach((q, i) => {
    const m = /^[0-9a-f]{40,64} (\w+)$/u.exec(lines[i + 1] ?? '');
    if (!m) return; // missing
    const type = m[1];
    if (q.self && type === 'tree') throw new PathConflictError(q.file, q.path, 'directory_exists');
    if (!q.self && type !== 'tree' && !deleted.has(q.path)) throw new PathConflictError(q.file, q.path, 'file_in_the_way');
  });
  return head[1]!;
}

/** Writes the blobs with one `hash-object` process and returns their shas in order. */
async function writeBlobs(repoPath: string, tmp: string, files: readonly CommitFile[]): Promise<string[]> {
  if (files.length === 1) {
    const { stdout } = await runGit(['hash-object', '-w', '--no-filters', '--stdin'], { gitDir: repoPath, input: files[0]!.content });
    return [out(stdout)];
  }
  // Several blobs: the contents go to files we name ourselves in our temp directory, never to
  // paths taken from the request.
  const names: string[] = [];
  for (let i = 0; i < files.length; i++) {
    const name = join(tmp, `blob-${i}`);
    await writeFile(name, files[i]!.content);
    names.push(name);
  }
  const { stdout } = await runGit(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
    gitDir: repoPath,
    input: names.join('\n') + '\n',
  });
  const shas = stdout.toString('utf8').split('\n').filter((l) => l.length > 0);
  if (shas.length !== files.length) throw new Error(`hash-object returned ${shas.length} ids for ${files.length} files`);
  return shas;
}

function refConflictOrRethrow(e: unknown, ref: string, expected: string | null): never {
  if (e instanceof GitError && e.reason === 'exit' && /cannot lock ref|reference already exists|unable to resolve reference|is at .* but expected|Unable to create .*\.lock/u.test(e.stderr)) {
    throw new RefConflictError(ref, expected, e.stderr.trim().split('\n')[0] ?? 'conflict');
  }
  throw e;
}

/**
 * Sets the fully qualified `ref` to `newSha`. With `expectedOld` a sha the ref must currently have
 * that value; with null it must not exist; undefined updates unconditionally. Throws
 * {@link RefConflictError} when the ref had another value or was locked by a concurrent update.
 */
export async function updateRef(repoPath: string, ref: string, newSha: string, expectedOld?: string | null): Promise<void> {
  if (!isValidFullRef(ref)) throw new InvalidRefNameError(ref);
  if (!isFullSha(newSha)) throw new Error(`not a full object id: ${newSha}`);
  if (expectedOld != null && !isFullSha(expectedOld)) throw new Error(`not a full object id: ${expectedOld}`);
  const args = ['update-ref', '--no-deref', ref, newSha];
  if (expectedOld !== undefined) args.push(expectedOld ?? '');
  try {
    await runGit(args, { gitDir: repoPath });
  } catch (e) {
    refConflictOrRethrow(e, ref, expectedOld ?? null);
  }
}

/**
 * Deletes the fully qualified `ref`; with `expectedOld` only if it has that value. Throws
 * {@link RefConflictError} when it had another value or was locked by a concurrent update.
 */
export async function deleteRef(repoPath: string, ref: string, expectedOld?: string): Promise<void> {
  if (!isValidFullRef(ref)) throw new InvalidRefNameError(ref);
  if (expectedOld !== undefined && !isFullSha(expectedOld)) throw new Error(`not a full object id: ${expectedOld}`);
  const args = ['update-ref', '--no-deref', '-d', ref];
  if (expectedOld !== undefined) args.push(expectedOld);
  try {
    await runGit(args, { gitDir: repoPath });
  } catch (e) {
    refConflictOrRethrow(e, ref, expectedOld ?? null);
  }
}

/** Points HEAD at `refs/heads/<branch>` (the default branch; the branch need not exist yet). */
export async function setHead(repoPath: string, branch: string): Promise<void> {
  await runGit(['symbolic-ref', 'HEAD', branchRef(branch)], { gitDir: repoPath });
}

/** The value of a fully qualified ref, or null when it does not exist. */
export async function resolveFullRef(repoPath: string, ref: string): Promise<string | null> {
  if (!isValidFullRef(ref)) return null;
  const { stdout, code } = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', ref], {
    gitDir: repoPath,
    okCodes: [1],
  });
  return code === 0 ? out(stdout) || null : null;
}

/**
 * The commit `rev` names (a sha, a ref, `main~2` ...), or null when it names no commit. Annotated
 * tags are peeled. A value starting with `-` is never passed to git.
 */
export async function resolveRevision(repoPath: string, rev: string): Promise<string | null> {
  if (!plausibleRev(rev)) return null;
  const { stdout, code } = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
    gitDir: repoPath,
    okCodes: [1, 128],
  });
  return code === 0 ? out(stdout) || null : null;
}

/** What a branch, tag or commit name resolves to (see {@link resolveRefish}). */
export interface ResolvedRefish {
  readonly kind: 'branch' | 'tag' | 'commit';
  /** The commit (annotated tags are peeled). */
  readonly sha: string;
  /** The full ref for a branch or tag. */
  readonly ref?: string;
  /** For an annotated tag: the tag object's sha. */
  readonly tagObject?: string;
}

/**
 * Resolves a name the way Gitea resolves `old_ref_name`, `?ref=` and archive refs: a branch
 * first, then a tag, then a commit sha (full or abbreviated); null when none matches. One git
 * process for branches and tags, a second only for a sha.
 */
export async function resolveRefish(repoPath: string, name: string): Promise<ResolvedRefish | null> {
  if (!plausibleRev(name)) return null;
  if (!name.startsWith('refs/') && /^[^\s~^:?*[\\]+$/u.test(name) && !name.includes('..') && !name.includes('@{')) {
    const { stdout } = await runGit(
      ['for-each-ref', '--format=%(refname)%00%(objecttype)%00%(objectname)%00%(*objectname)', '--', `refs/heads/${name}`, `refs/tags/${name}`],
      { gitDir: repoPath },
    );
    const rows = stdout
      .toString('utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => l.split('\0'));
    for (const prefix of ['refs/heads/', 'refs/tags/'] as const) {
      const row = rows.find((r) => r[0] === prefix + name);
      if (!row) continue;
      const [ref, type, sha, peeled] = row as [string, string, string, string];
      if (prefix === 'refs/heads/') {
        if (type === 'commit') return { kind: 'branch', sha, ref };
        continue;
      }
      if (type === 'commit') return { kind: 'tag', sha, ref };
      if (type === 'tag' && peeled) {
        // A tag of a tag: let rev-parse peel all the way.
        const commit = await resolveRevision(repoPath, ref);
        if (commit) return { kind: 'tag', sha: commit, ref, tagObject: sha };
      }
    }
  }
  if (/^[0-9a-fA-F]{4,64}$/u.test(name)) {
    const sha = await resolveRevision(repoPath, name.toLowerCase());
    if (sha) return { kind: 'commit', sha };
  }
  return null;
}

/** The number of commits reachable from `rev` (`git rev-list --count`); 0 when it does not resolve. */
export async function countCommits(repoPath: string, rev: string): Promise<number> {
  if (!plausibleRev(rev)) return 0;
  const { stdout, code } = await runGit(['rev-list', '--count', '--end-of-options', rev, '--'], { gitDir: repoPath, okCodes: [128] });
  if (code !== 0) return 0;
  return Number.parseInt(out(stdout), 10) || 0;
}

/** Disk size of the object store: loose objects plus packs (`git count-objects -v`), in bytes. */
export async function repoSizeBytes(repoPath: string): Promise<number> {
  const { stdout } = await runGit(['count-objects', '-v'], { gitDir: repoPath });
  let kib = 0;
  for (const line of stdout.toString('utf8').split('\n')) {
    const m = /^(size|size-pack): (\d+)$/u.exec(line);
    if (m) kib += Number(m[2]);
  }
  return kib * 1024;
}

/** True when the repository has no refs at all (nothing was ever pushed or committed). */
export async function isEmpty(repoPath: string): Promise<boolean> {
  const { stdout } = await runGit(['for-each-ref', '--count=1', '--format=%(refname)'], { gitDir: repoPath });
  return stdout.length === 0;
}

/**
 * Writes (incrementally, `--split`) the commit-graph with changed-path Bloom filters, which makes counting,
 * walking and path-limited logs (last commit of a path) several times faster on large histories.
 */
export async function writeCommitGraph(repoPath: string): Promise<void> {
  await runGit(['commit-graph', 'write', '--reachable', '--changed-paths', '--split'], { gitDir: repoPath, timeoutMs: 10 * 60_000 });
}
