/**
 * Refs and trees in bulk: one `git for-each-ref` or `git ls-tree` per call, and a parser for tree
 * objects read through a cat-file reader.
 */
import { runGit } from './run.js';

/** A ref and the object it points at (not peeled). */
export interface GitRef {
  /** Full name, e.g. refs/heads/main. */
  readonly name: string;
  readonly sha: string;
  /** Type of the object the ref points at: commit, or tag for annotated tags. */
  readonly type: string;
}

/** Every ref (HEAD excluded), sorted by name; one git process. */
export async function listRefs(repoPath: string): Promise<GitRef[]> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)'], { gitDir: repoPath });
  const out: GitRef[] = [];
  for (const line of stdout.toString('utf8').split('\n')) {
    const m = /^([0-9a-f]{40,64}) (\w+) (.+)$/u.exec(line);
    if (m) out.push({ sha: m[1]!, type: m[2]!, name: m[3]! });
  }
  return out;
}

/** An entry of a tree. */
export interface TreeEntry {
  /** Six octal digits: 100644, 100755, 120000, 040000, 160000. */
  readonly mode: string;
  /** blob, tree or commit (a submodule). */
  readonly type: 'blob' | 'tree' | 'commit';
  readonly sha: string;
  /** Name, or path below the listed tree in a recursive listing. */
  readonly path: string;
  /** Blob size in bytes; 0 for trees and submodules, and undefined when not known yet. */
  readonly size?: number;
}

function typeOfMode(mode: string): TreeEntry['type'] {
  if (mode === '040000') return 'tree';
  if (mode === '160000') return 'commit';
  return 'blob';
}

/**
 * Parses a raw tree object: `<mode> <name>\0<binary id>` repeated. `idBytes` is 20 for SHA-1
 * repositories and 32 for SHA-256. Sizes are left undefined.
 */
export function parseTree(content: Buffer, idBytes: number): TreeEntry[] {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < content.length) {
    const sp = content.indexOf(0x20, i);
    const nul = content.indexOf(0, sp + 1);
    if (sp < 0 || nul < 0 || nul + 1 + idBytes > content.length) throw new Error('malformed tree object');
    const mode = content.toString('latin1', i, sp).padStart(6, '0');
    const path = content.toString('utf8', sp + 1, nul);
    const sha = content.toString('hex', nul + 1, nul + 1 + idBytes);
    out.push({ mode, type: typeOfMode(mode), sha, path });
    i = nul + 1 + idBytes;
  }
  return out;
}

/**
 * Every entry below the tree `treeSha`, subtrees included before their contents (`git ls-tree -r -t -l`),
 * with blob sizes; one git process.
 */
export async function listTreeRecursive(repoPath: string, treeSha: string): Promise<TreeEntry[]> {
  const { stdout } = await runGit(['ls-tree', '-r', '-t', '-l', '-z', '--end-of-options', treeSha], { gitDir: repoPath });
  const out: TreeEntry[] = [];
  for (const rec of stdout.toString('utf8').split('\0')) {
    const m = /^(\d{6}) (\w+) ([0-9a-f]{40,64}) +(-|\d+)\t([\s\S]*)$/u.exec(rec);
    if (!m) continue;
    const mode = m[1]!;
    out.push({ mode, type: typeOfMode(mode), sha: m[3]!, path: m[5]!, size: m[4] === '-' ? 0 : Number(m[4]) });
  }
  return out;
}
