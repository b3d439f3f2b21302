/**
 * What a push changed, for webhooks: branch and tag values before and after (one `for-each-ref` each), and the
 * commits a ref update brought (one `git log` and one `rev-list --count`).
 */
import { logCommits, type GitCommit } from './commits.js';
import { runGit } from './run.js';

/** refs/heads/* and refs/tags/* with their values (tags not peeled: a tag update is a value change). */
export async function snapshotRefs(repoPath: string): Promise<Map<string, string>> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/heads/', 'refs/tags/'], { gitDir: repoPath });
  const out = new Map<string, string>();
  for (const line of stdout.toString('utf8').split('\n')) {
    const i = line.indexOf('\0');
    if (i > 0) out.set(line.slice(0, i), line.slice(i + 1));
  }
  return out;
}

export interface RefUpdate {
  readonly ref: string;
  /** '' when the ref was created. */
  readonly before: string;
  /** '' when the ref was deleted. */
  readonly after: string;
}

/** The refs whose value differs between two snapshots, branches first, in name order. */
export function diffRefs(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): RefUpdate[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  const out: RefUpdate[] = [];
  for (const ref of names) {
    const b = before.get(ref) ?? '';
    const a = after.get(ref) ?? '';
    if (a !== b) out.push({ ref, before: b, after: a });
  }
  return out.sort((x, y) => (x.ref.startsWith('refs/heads/') === y.ref.startsWith('refs/heads/') ? x.ref.localeCompare(y.ref) : x.ref.startsWith('refs/heads/') ? -1 : 1));
}

/**
 * The commits of a branch update, newest first: `before..after`, or for a new branch the commits of `after` that
 * no other branch or tag has (at most `newBranchLimit`, as Gitea looks at a bounded history for new branches).
 */
export async function pushedCommits(
  repoPath: string,
  u: { ref: string; before: string; after: string },
  max: number,
  newBranchLimit = 10,
): Promise<{ commits: GitCommit[]; total: number; compareFrom: string }> {
  if (!u.after) return { commits: [], total: 0, compareFrom: '' };
  if (u.before) {
    const commits = await logCommits(repoPath, { rev: u.after, not: u.before, skip: 0, maxCount: max, files: true, stats: false });
    const { stdout } = await runGit(['rev-list', '--count', '--end-of-options', u.after, `^${u.before}`, '--'], { gitDir: repoPath });
    return { commits, total: Number.parseInt(stdout.toString('utf8').trim(), 10) || 0, compareFrom: u.before };
  }
  // Every other branch and tag as it is now (the pattern is a validated ref name: no glob characters).
  const self = u.ref.startsWith('refs/heads/') ? [`--exclude=${u.ref.slice('refs/heads/'.length)}`] : [];
  const args = ['rev-list', `--max-count=${newBranchLimit}`, u.after, '--not', ...self, '--branches', '--tags', '--'];
  const { stdout } = await runGit(args, { gitDir: repoPath });
  const shas = stdout.toString('utf8').split('\n').filter((s) => s.length > 0);
  if (shas.length === 0) return { commits: [], total: 0, compareFrom: '' };
  const commits = await logCommits(repoPath, { rev: u.after, skip: 0, maxCount: Math.min(max, shas.length), files: true, stats: false });
  const oldest = await logCommits(repoPath, { rev: shas[shas.length - 1]!, skip: 0, maxCount: 1, files: false, stats: false });
  // Gitea compares a new branch from the parent of its oldest new commit.
  return { commits, total: shas.length, compareFrom: oldest[0]?.parents[0] ?? '' };
}

/** One commit with its file lists (the test delivery). */
export async function commitForPayload(repoPath: string, sha: string): Promise<GitCommit | null> {
  const [c] = await logCommits(repoPath, { rev: sha, skip: 0, maxCount: 1, files: true, stats: false });
  return c ?? null;
}
