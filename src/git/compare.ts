/** Comparing two commits: their merge base, in one `git merge-base` process. */
import { runGit } from './run.js';

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/u;

/** The best common ancestor of two commits (object ids), or null when their histories are unrelated. */
export async function mergeBase(repoPath: string, a: string, b: string): Promise<string | null> {
  if (!OID.test(a) || !OID.test(b)) throw new Error('merge-base needs object ids');
  // Exit 1 without output: no common ancestor.
  const { stdout, code } = await runGit(['merge-base', '--end-of-options', a, b], { gitDir: repoPath, okCodes: [1] });
  const out = stdout.toString('utf8').trim();
  return code === 0 && OID.test(out) ? out : null;
}
