/**
 * Reading trees, commits and refs through a long-lived `git cat-file` reader (see catfile.ts): a file
 * or directory read at a ref costs a few pipe round trips, never a git process.
 */
import type { RefResolver } from './refstore.js';
import type { GitObject, GitObjectInfo } from './catfile.js';
import type { GitPerson } from './branches.js';
import { isValidBranchName, isValidFullRef, isValidTagName } from './refs.js';

/** What {@link resolveCommitish} and the tree readers need from a reader (a CatFileBatch). */
export interface ObjectReader {
  read(spec: string): Promise<GitObject | null>;
  info(spec: string): Promise<GitObjectInfo | null>;
  /** Optional fast path for full ref names (see git/refstore.ts); undefined means "ask git". */
  readonly resolveRef?: RefResolver;
}

/** The kind of a tree entry, in Gitea's words. */
export type EntryKind = 'file' | 'dir' | 'symlink' | 'submodule';

/** One entry of a tree object. */
export interface ContentEntry {
  readonly name: string;
  /** Octal mode as git stores it: 100644, 100755, 120000, 40000, 160000. */
  readonly mode: string;
  readonly sha: string;
  readonly kind: EntryKind;
}

function kindOf(mode: string): EntryKind {
  if (mode === '40000' || mode === '040000') return 'dir';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  return 'file';
}

/**
 * Parses a tree object (`<mode> <name>\0<raw id>` repeated). `idBytes` is 20 for SHA-1 and 32 for
 * SHA-256 repositories. Names are decoded as UTF-8.
 */
export function parseTreeEntries(content: Buffer, idBytes: number): ContentEntry[] {
  const out: ContentEntry[] = [];
  let pos = 0;
  while (pos < content.length) {
    const space = content.indexOf(0x20, pos);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > content.length) throw new Error('malformed tree object');
    const mode = content.toString('latin1', pos, space);
    const name = content.toString('utf8', space + 1, nul);
    const sha = content.toString('hex', nul + 1, nul + 1 + idBytes);
    out.push({ name, mode, sha, kind: kindOf(mode) });
    pos = nul + 1 + idBytes;
  }
  return out;
}

/** A tree entry as the contents API shows it. */
export interface ContentItem {
  readonly name: string;
  readonly path: string;
  readonly sha: string;
  readonly kind: EntryKind;
  readonly size: number;
  /** A file's bytes, only when asked for (not in directory listings); empty when over the size limit. */
  readonly content: Buffer | null;
  readonly target: string | null;
  readonly submoduleUrl: string | null;
  /** The last commit that changed the entry (Gitea's last_commit_sha), when it was looked up. */
  readonly lastCommitSha?: string;
}

/** A commit object's fields. */
export interface CommitObject {
  readonly sha: string;
  readonly tree: string;
  readonly parents: readonly string[];
  readonly author: GitPerson;
  readonly committer: GitPerson;
  /** The full message, unchanged. */
  readonly message: string;
}

/** `Name <email> 1700000000 +0200` -> name, email and an ISO 8601 date with the recorded offset. */
function parsePerson(value: string): GitPerson {
  const m = /^(.*?) ?<([^>]*)> (-?\d+) ([+-])(\d\d)(\d\d)$/u.exec(value);
  if (!m) return { name: value, email: '', date: new Date(0).toISOString() };
  const [, name, email, secs, sign, hh, mm] = m as unknown as [string, string, string, string, string, string, string];
  const offsetMin = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  const local = new Date(Number(secs) * 1000 + offsetMin * 60_000).toISOString().replace(/\.\d{3}Z$/u, '');
  return { name, email, date: `${local}${sign}${hh}:${mm}` };
}

/** Parses a commit object. */
export function parseCommit(sha: string, content: Buffer): CommitObject {
  const text = content.toString('utf8');
  const blank = text.indexOf('\n\n');
  const headers = (blank < 0 ? text : text.slice(0, blank)).split('\n');
  let tree = '';
  const parents: string[] = [];
  let author: GitPerson = { name: '', email: '', date: new Date(0).toISOString() };
  let committer = author;
  for (const line of headers) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header (gpgsig, mergetag)
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parsePerson(value);
    else if (key === 'committer') committer = parsePerson(value);
  }
  return { sha, tree, parents, author, committer, message: blank < 0 ? '' : text.slice(blank + 2) };
}

/** How a name given as `?ref=` resolved. */
export interface ResolvedCommit {
  readonly kind: 'branch' | 'tag' | 'commit';
  /** The branch or tag short name, or the full commit id for a commit. */
  readonly name: string;
  /** The commit (annotated tags peeled). */
  readonly sha: string;
}

async function commitOf(r: ObjectReader, spec: string): Promise<string | null> {
  const direct = spec.startsWith('refs/') ? r.resolveRef?.(spec) : undefined;
  if (direct === null) return null;
  if (direct !== undefined) return peelToCommit(r, direct);
  const info = await r.info(`${spec}^{commit}`);
  return info?.type === 'commit' ? info.sha : null;
}

/** The commit an object id names, peeling annotated tags by reading the (cached) objects, as `^{commit}` would. */
async function peelToCommit(r: ObjectReader, id: string): Promise<string | null> {
  let sha = id;
  for (let depth = 0; depth < 8; depth++) {
    const o = await r.read(sha);
    if (!o) return null;
    if (o.type === 'commit') return sha;
    if (o.type !== 'tag') return null;
    const m = /^object ([0-9a-f]+)$/mu.exec(o.content.subarray(0, 200).toString('latin1'));
    if (!m) return null;
    sha = m[1]!;
  }
  return null;
}

/**
 * Resolves a branch, tag or commit id (full or abbreviated, at least 4 hex digits), in Gitea's order;
 * also a full `refs/heads/...` or `refs/tags/...` name. Null when nothing matches. Names that could be
 * read as revision syntax (`-x`, `a:b`, `x^{...}`, `@{...}`) never reach git.
 */
export async function resolveCommitish(r: ObjectReader, name: string): Promise<ResolvedCommit | null> {
  if (name.length === 0 || name.length > 1024 || /[\0\n\r]/u.test(name) || name.startsWith('-')) return null;
  if (name.startsWith('refs/')) {
    if (!isValidFullRef(name)) return null;
    const sha = await commitOf(r, name);
    if (!sha) return null;
    if (name.startsWith('refs/heads/')) return { kind: 'branch', name: name.slice(11), sha };
    if (name.startsWith('refs/tags/')) return { kind: 'tag', name: name.slice(10), sha };
    return { kind: 'commit', name: sha, sha };
  }
  const candidates: { kind: ResolvedCommit['kind']; spec: string }[] = [];
  if (isValidBranchName(name)) candidates.push({ kind: 'branch', spec: `refs/heads/${name}` });
  if (isValidTagName(name)) candidates.push({ kind: 'tag', spec: `refs/tags/${name}` });
  if (/^[0-9a-fA-F]{4,64}$/u.test(name)) candidates.push({ kind: 'commit', spec: name.toLowerCase() });
  return firstMatch(r, candidates.map((c) => ({ ...c, name })));
}

/**
 * The first candidate, in order, that names a commit. Refs the ref files answer are taken one by one, so
 * the usual lookup (a branch that exists) stops there without looking at the tag of the same name or at
 * packed-refs; whatever is left for git (object ids, unusual ref storage) is asked at once, in one
 * pipelined round trip.
 */
async function firstMatch(r: ObjectReader, candidates: readonly { kind: ResolvedCommit['kind']; name: string; spec: string }[]): Promise<ResolvedCommit | null> {
  const found = (c: (typeof candidates)[number], sha: string): ResolvedCommit => ({ kind: c.kind, name: c.kind === 'commit' ? sha : c.name, sha });
  let next = 0;
  for (; next < candidates.length && r.resolveRef; next++) {
    const c = candidates[next]!;
    const direct = c.spec.startsWith('refs/') ? r.resolveRef(c.spec) : undefined;
    if (direct === undefined) break;
    const sha = direct === null ? null : await peelToCommit(r, direct);
    if (sha) return found(c, sha);
  }
  const rest = candidates.slice(next);
  const shas = await Promise.all(rest.map((c) => commitOf(r, c.spec)));
  for (const [i, c] of rest.entries()) {
    const sha = shas[i];
    if (sha) return found(c, sha);
  }
  return null;
}

/**
 * Gitea's ref selection for raw paths without `?ref=`: the shortest leading run of segments naming a
 * branch, else a tag, else a full commit id as the first segment. Null when none matches (the caller
 * then reads the whole path at the default branch). Candidates are tried in that order (see firstMatch).
 */
export async function resolveRefInPath(
  r: ObjectReader,
  path: string,
  fullIdLength: number,
): Promise<{ ref: ResolvedCommit; treePath: string } | null> {
  const parts = path.split('/');
  const candidates: { kind: ResolvedCommit['kind']; name: string; spec: string; rest: string }[] = [];
  for (const [prefix, kind] of [['refs/heads/', 'branch'], ['refs/tags/', 'tag']] as const) {
    for (let i = 1; i <= parts.length; i++) {
      const name = parts.slice(0, i).join('/');
      if (kind === 'branch' ? isValidBranchName(name) : isValidTagName(name)) candidates.push({ kind, name, spec: prefix + name, rest: parts.slice(i).join('/') });
    }
  }
  const first = parts[0] ?? '';
  if (first.length === fullIdLength && /^[0-9a-f]+$/u.test(first)) candidates.push({ kind: 'commit', name: first, spec: first, rest: parts.slice(1).join('/') });
  const ref = await firstMatch(r, candidates);
  if (!ref) return null;
  const chosen = candidates.find((c) => c.kind === ref.kind && (c.kind === 'commit' || c.name === ref.name))!;
  return { ref, treePath: chosen.rest };
}

/** An entry found by {@link findEntry}; the root is a `dir` entry with an empty name. */
export interface FoundEntry extends ContentEntry {
  /** The entry's path (components joined by `/`). */
  readonly path: string;
}

// Parsed entries per tree object: cached objects are shared instances, so a hot tree is parsed once.
const parsedTrees = new WeakMap<GitObject, readonly ContentEntry[]>();
function treeEntriesOf(tree: GitObject, idBytes: number): ContentEntry[] {
  let entries = parsedTrees.get(tree);
  if (!entries) {
    entries = parseTreeEntries(tree.content, idBytes);
    parsedTrees.set(tree, entries);
  }
  // A copy: callers may sort or filter what they get.
  return [...entries];
}

/**
 * Walks from the tree `rootTree` down `path` (`''` = the root) reading one tree per component. Null
 * when a component is missing or a non-final component is not a directory.
 */
export async function findEntry(r: ObjectReader, rootTree: string, path: string): Promise<FoundEntry | null> {
  const idBytes = rootTree.length / 2;
  let current: FoundEntry = { name: '', path: '', mode: '40000', sha: rootTree, kind: 'dir' };
  if (path === '') return current;
  for (const component of path.split('/')) {
    if (current.kind !== 'dir' || component === '') return null;
    const tree = await r.read(current.sha);
    if (!tree || tree.type !== 'tree') return null;
    const entry = treeEntriesOf(tree, idBytes).find((e) => e.name === component);
    if (!entry) return null;
    current = { ...entry, path: current.path ? `${current.path}/${entry.name}` : entry.name };
  }
  return current;
}

/**
 * The entry at `path` in commit `commitSha` (`''` = the root directory), with the blob size for files
 * and links. Walks from the commit through one tree per component with `read`, so with a
 * {@link cachedReader} a warm path costs no git round trip at all (commits and trees never change).
 * A submodule is found in its parent tree (its commit is not in this repository). Null when the path
 * does not exist.
 */
export async function findEntryAt(r: ObjectReader, commitSha: string, path: string): Promise<(FoundEntry & { readonly size: number }) | null> {
  const commit = await r.read(commitSha);
  if (!commit || commit.type !== 'commit') return null;
  const m = /^tree ([0-9a-f]+)$/mu.exec(commit.content.subarray(0, 100).toString('latin1'));
  if (!m) return null;
  const found = await findEntry(r, m[1]!, path);
  if (!found) return null;
  const size = found.kind === 'file' || found.kind === 'symlink' ? ((await r.info(found.sha))?.size ?? 0) : 0;
  return { ...found, size };
}

/** The entries of the tree `treeSha`. */
export async function readTree(r: ObjectReader, treeSha: string): Promise<ContentEntry[]> {
  const tree = await r.read(treeSha);
  if (!tree || tree.type !== 'tree') return [];
  return treeEntriesOf(tree, treeSha.length / 2);
}

/** Submodule paths and URLs from a `.gitmodules` file. */
export function parseGitmodules(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let path: string | undefined;
  let url: string | undefined;
  const flush = () => {
    if (path !== undefined && url !== undefined) out.set(path, url);
    path = undefined;
    url = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      flush();
      continue;
    }
    const m = /^(\w+)\s*=\s*(.*)$/u.exec(line);
    if (!m) continue;
    const value = m[2]!.replace(/^"(.*)"$/u, '$1');
    if (m[1]!.toLowerCase() === 'path') path = value;
    else if (m[1]!.toLowerCase() === 'url') url = value;
  }
  flush();
  return out;
}

const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/u;

/**
 * Trees, small blobs and commits by repository and object id, least recently used first out, bounded in bytes.
 * Objects never change, so an entry never goes stale. Keys carry the repository: an id named by a caller (a
 * `?ref=` commit id, a blob sha) must never be answered from another repository's objects.
 */
export class ObjectCache {
  private readonly objects = new Map<string, GitObject>();
  private readonly infos = new Map<string, GitObjectInfo>();
  private bytes = 0;
  constructor(
    private readonly maxBytes = 32 << 20,
    private readonly maxObjectBytes = 256 << 10,
    private readonly maxInfos = 100_000,
  ) {}

  get(key: string): GitObject | undefined {
    const o = this.objects.get(key);
    if (o) {
      this.objects.delete(key);
      this.objects.set(key, o);
    }
    return o;
  }

  info(key: string): GitObjectInfo | undefined {
    return this.objects.get(key) ?? this.infos.get(key);
  }

  put(key: string, o: GitObject): void {
    if (o.content.length > this.maxObjectBytes || this.objects.has(key) || (o.type !== 'tree' && o.type !== 'blob' && o.type !== 'commit' && o.type !== 'tag')) return;
    this.objects.set(key, o);
    this.bytes += o.content.length;
    for (const [k, old] of this.objects) {
      if (this.bytes <= this.maxBytes) break;
      this.objects.delete(k);
      this.bytes -= old.content.length;
    }
  }

  putInfo(key: string, i: GitObjectInfo): void {
    if (this.infos.has(key) || (i.type !== 'tree' && i.type !== 'blob')) return;
    this.infos.set(key, { sha: i.sha, type: i.type, size: i.size });
    if (this.infos.size > this.maxInfos) this.infos.delete(this.infos.keys().next().value as string);
  }
}

/** `r` (the reader of repository `repoKey`) with trees, blobs and commits served from `cache` when possible. */
export function cachedReader(r: ObjectReader, cache: ObjectCache, repoKey: string, resolveRef?: RefResolver): ObjectReader {
  return {
    ...(resolveRef ? { resolveRef } : {}),
    async read(spec) {
      if (FULL_ID.test(spec)) {
        const hit = cache.get(`${repoKey}\0${spec}`);
        if (hit) return hit;
      }
      const o = await r.read(spec);
      if (o) cache.put(`${repoKey}\0${o.sha}`, o);
      return o;
    },
    async info(spec) {
      if (FULL_ID.test(spec)) {
        const hit = cache.info(`${repoKey}\0${spec}`);
        if (hit) return hit;
      }
      const i = await r.info(spec);
      if (i) cache.putInfo(`${repoKey}\0${i.sha}`, i);
      return i;
    },
  };
}
