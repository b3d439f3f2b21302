/**
 * Branches with their tip commits, read with one `git for-each-ref` process per call whatever the
 * number of branches.
 */
import { isValidBranchName } from './refs.js';
import { runGit } from './run.js';

/** A person as recorded in a commit; `date` is ISO 8601 with the recorded offset. */
export interface GitPerson {
  readonly name: string;
  readonly email: string;
  readonly date: string;
}

/** The commit at the tip of a branch. */
export interface BranchCommit {
  readonly sha: string;
  /** First line(s) of the message up to the first blank line, joined with spaces (git's %(subject)). */
  readonly subject: string;
  /** The full message, unchanged (git's %(contents)). */
  readonly message: string;
  readonly author: GitPerson;
  readonly committer: GitPerson;
  readonly tree: string;
  readonly parents: readonly string[];
}

/** A branch and its tip commit. */
export interface GitBranch {
  readonly name: string;
  readonly commit: BranchCommit;
}

// Fields separated by NUL; each record ends with NUL RS NUL so the message (the last field, which
// may hold newlines) cannot be mistaken for the next record: git refuses NUL in commit messages.
const FIELDS = [
  '%(refname)',
  '%(objecttype)',
  '%(objectname)',
  '%(tree)',
  '%(parent)',
  '%(authorname)',
  '%(authoremail)',
  '%(authordate:iso-strict)',
  '%(committername)',
  '%(committeremail)',
  '%(committerdate:iso-strict)',
  '%(subject)',
  '%(contents)',
];
const END = '\0\x1e\0';
const FORMAT = `--format=${FIELDS.join('%00')}%00%1e%00`;

const unbracket = (email: string): string => (email.startsWith('<') && email.endsWith('>') ? email.slice(1, -1) : email);

function parse(stdout: Buffer): GitBranch[] {
  const text = stdout.toString('utf8');
  const result: GitBranch[] = [];
  for (let record of text.split(END)) {
    if (record.startsWith('\n')) record = record.slice(1);
    if (record.length === 0) continue;
    const parts = record.split('\0');
    if (parts.length < FIELDS.length) continue;
    const [ref, type, sha, tree, parents, an, ae, ad, cn, ce, cd, subject] = parts as string[] as [
      string, string, string, string, string, string, string, string, string, string, string, string,
    ];
    // Branches pointing at something other than a commit cannot come from a normal push; skip them.
    if (type !== 'commit' || !ref.startsWith('refs/heads/')) continue;
    result.push({
      name: ref.slice('refs/heads/'.length),
      commit: {
        sha,
        subject,
        message: parts.slice(FIELDS.length - 1).join('\0'),
        author: { name: an, email: unbracket(ae), date: ad },
        committer: { name: cn, email: unbracket(ce), date: cd },
        tree,
        parents: parents.length > 0 ? parents.split(' ') : [],
      },
    });
  }
  return result;
}

/** All branches, sorted by name (byte order), each with its tip commit; one git process. */
export async function listBranches(repoPath: string): Promise<GitBranch[]> {
  const { stdout } = await runGit(['for-each-ref', FORMAT, '--', 'refs/heads/'], { gitDir: repoPath });
  return parse(stdout);
}

/** One branch by short name, or null when it does not exist (or the name is not a valid branch name). */
export async function getBranch(repoPath: string, name: string): Promise<GitBranch | null> {
  if (!isValidBranchName(name)) return null;
  const ref = `refs/heads/${name}`;
  // for-each-ref matches patterns by prefix up to a slash, so refs/heads/a also lists refs/heads/a/b.
  const { stdout } = await runGit(['for-each-ref', FORMAT, '--', ref], { gitDir: repoPath });
  return parse(stdout).find((b) => b.name === name) ?? null;
}
