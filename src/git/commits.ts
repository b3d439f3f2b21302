/**
 * Commit history: one `git log` process per page of commits (with the per-commit file list and line
 * counts when asked for), `git rev-list --count` for totals, and raw diffs/patches of one commit.
 * Revisions reaching these functions are resolved object ids; user paths are passed after `--` with
 * literal pathspecs (no globs, no `:(magic)`).
 */
import type { GitPerson } from './branches.js';
import { runGit } from './run.js';

/** How a commit changed a file, in Gitea's words (renames are reported as a removal and an addition). */
export type FileChange = 'added' | 'removed' | 'modified';

/** A commit as listed by {@link logCommits}. */
export interface GitCommit {
  readonly sha: string;
  readonly tree: string;
  readonly parents: readonly string[];
  readonly author: GitPerson;
  readonly committer: GitPerson;
  /** The full message, unchanged. */
  readonly message: string;
  /** Files changed against the first parent (the empty tree for a root commit); null when not asked for. */
  readonly files: readonly { readonly filename: string; readonly status: FileChange }[] | null;
  /** Added and deleted lines against the first parent (binary files count 0); null when not asked for. */
  readonly stats: { readonly additions: number; readonly deletions: number } | null;
}

/** What {@link logCommits} and {@link countLog} walk. */
export interface LogRange {
  /** Start commit (an object id). */
  readonly rev: string;
  /** Commits reachable from this object id are left out. */
  readonly not?: string | undefined;
  /** Only commits touching this path (literal, relative to the repository root). */
  readonly path?: string | undefined;
}

export interface LogOptions extends LogRange {
  readonly skip: number;
  readonly maxCount: number;
  readonly files: boolean;
  readonly stats: boolean;
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/u;

function rangeArgs(r: LogRange): string[] {
  if (!OID.test(r.rev) || (r.not !== undefined && !OID.test(r.not))) throw new Error('log range must be resolved object ids');
  const args = ['--end-of-options', r.rev];
  if (r.not !== undefined) args.push(`^${r.not}`);
  args.push('--');
  if (r.path) args.push(r.path);
  return args;
}

// Each commit starts with RS; header fields end with NUL (git refuses NUL in messages, so %B cannot
// hold one). After the message come the --raw entries (`:modes shas X\0path\0`) and the --numstat
// entries (`adds\tdels\tpath\0`), parsed positionally so no path content can be taken for a boundary.
const FORMAT = '--format=%x1e%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00';
const HEADER_FIELDS = 10;

const STATUS: Readonly<Record<string, FileChange>> = { A: 'added', D: 'removed', M: 'modified', T: 'modified' };

function parseLog(text: string, files: boolean, stats: boolean): GitCommit[] {
  const out: GitCommit[] = [];
  let pos = 0;
  const field = (): string => {
    const end = text.indexOf('\0', pos);
    if (end < 0) throw new Error('truncated git log output');
    const v = text.slice(pos, end);
    pos = end + 1;
    return v;
  };
  const skipSeparators = () => {
    while (pos < text.length && (text[pos] === '\0' || text[pos] === '\n')) pos++;
  };
  skipSeparators();
  while (pos < text.length) {
    if (text[pos] !== '\x1e') throw new Error('unexpected git log output');
    pos++;
    const h: string[] = [];
    for (let i = 0; i < HEADER_FIELDS; i++) h.push(field());
    const [sha, tree, parents, an, ae, ad, cn, ce, cd, message] = h as [string, string, string, string, string, string, string, string, string, string];
    const changed: { filename: string; status: FileChange }[] = [];
    let additions = 0;
    let deletions = 0;
    skipSeparators();
    while (pos < text.length && text[pos] !== '\x1e') {
      const entry = field();
      if (entry.startsWith(':')) {
        const path = field();
        const letter = entry.slice(entry.lastIndexOf(' ') + 1, entry.lastIndexOf(' ') + 2);
        changed.push({ filename: path, status: STATUS[letter] ?? 'modified' });
      } else {
        const t1 = entry.indexOf('\t');
        const t2 = entry.indexOf('\t', t1 + 1);
        if (t1 < 0 || t2 < 0) throw new Error('unexpected numstat entry');
        additions += Number.parseInt(entry.slice(0, t1), 10) || 0;
        deletions += Number.parseInt(entry.slice(t1 + 1, t2), 10) || 0;
      }
      skipSeparators();
    }
    out.push({
      sha,
      tree,
      parents: parents.length > 0 ? parents.split(' ') : [],
      author: { name: an, email: ae, date: ad },
      committer: { name: cn, email: ce, date: cd },
      message,
      files: files ? changed : null,
      stats: stats ? { additions, deletions } : null,
    });
  }
  return out;
}

/**
 * A page of history from `range.rev`, newest first (git's default order), in one `git log` process.
 * File lists and line counts compare each commit with its first parent and cover the whole commit
 * even when the history is limited to a path.
 */
export async function logCommits(repoPath: string, opts: LogOptions): Promise<GitCommit[]> {
  if (opts.maxCount <= 0) return [];
  const args = ['log', FORMAT, '-z', `--skip=${Math.max(0, Math.floor(opts.skip))}`, `--max-count=${Math.floor(opts.maxCount)}`];
  if (opts.files || opts.stats) {
    args.push('--no-renames', '--diff-merges=first-parent', '--full-diff', '--no-ext-diff', '--no-textconv');
    if (opts.files) args.push('--raw', '--abbrev=40');
    if (opts.stats) args.push('--numstat');
  }
  args.push(...rangeArgs(opts));
  const { stdout } = await runGit(args, { gitDir: repoPath, env: { GIT_LITERAL_PATHSPECS: '1' } });
  return parseLog(stdout.toString('utf8'), opts.files, opts.stats);
}

/** The number of commits {@link logCommits} walks for `range` (`git rev-list --count`). */
export async function countLog(repoPath: string, range: LogRange): Promise<number> {
  const { stdout } = await runGit(['rev-list', '--count', ...rangeArgs(range)], { gitDir: repoPath, env: { GIT_LITERAL_PATHSPECS: '1' } });
  return Number.parseInt(stdout.toString('utf8').trim(), 10) || 0;
}

/**
 * One commit's raw diff or patch, as Gitea's GetRawDiff makes it:
 * diff: `git diff -M <parent> <sha>` (`git show <sha>` for a root commit);
 * patch: `git format-patch --no-signature --stdout <sha>...<parent>` (`--root <sha>` for a root commit).
 */
export async function commitDiff(repoPath: string, sha: string, firstParent: string | null, type: 'diff' | 'patch'): Promise<Buffer> {
  if (!OID.test(sha) || (firstParent !== null && !OID.test(firstParent))) throw new Error('commit diff needs object ids');
  const args =
    type === 'diff'
      ? firstParent === null
        ? ['show', '--no-ext-diff', '--no-textconv', '--end-of-options', sha, '--']
        : ['diff', '-M', '--no-ext-diff', '--no-textconv', '--end-of-options', firstParent, sha, '--']
      : firstParent === null
        ? ['format-patch', '--no-signature', '--stdout', '--root', '--end-of-options', sha, '--']
        : ['format-patch', '--no-signature', '--stdout', '--end-of-options', `${sha}...${firstParent}`, '--'];
  const { stdout } = await runGit(args, { gitDir: repoPath });
  return stdout;
}

/**
 * True when `spec` may be given to `git cat-file --batch` as one request line (a ref, a sha, `main~2`,
 * `v1^{commit}` ...): not empty, no control characters (they would break the line protocol), bounded.
 */
export function isBatchSafeRev(spec: string): boolean {
  if (spec.length === 0 || spec.length > 1024) return false;
  for (let i = 0; i < spec.length; i++) {
    const c = spec.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  return true;
}

/** The header of a commit object read with cat-file: tree and parents. */
export function parseCommitHeader(content: Buffer): { tree: string; parents: string[] } {
  const text = content.toString('utf8', 0, Math.min(content.length, 64 * 1024));
  const end = text.indexOf('\n\n');
  const lines = (end < 0 ? text : text.slice(0, end)).split('\n');
  let tree = '';
  const parents: string[] = [];
  for (const l of lines) {
    if (l.startsWith('tree ')) tree = l.slice(5);
    else if (l.startsWith('parent ')) parents.push(l.slice(7));
  }
  return { tree, parents };
}
