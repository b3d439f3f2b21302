/**
 * Reads refs straight from a files-backend repository (loose ref files, then `packed-refs`), without a git
 * round trip: hot read paths (contents, raw) resolve `refs/heads/<branch>` once per request, and a file read
 * costs microseconds where a request to the cat-file process costs a context switch each way. git writes
 * both files by lock-and-rename, so a read sees the old or the new value, never a torn one. Anything
 * unusual (a symbolic ref, a reftable repository, an unreadable file) answers `undefined`: ask git instead.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const OID_LINE = /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/u;

interface PackedRefs {
  readonly key: string;
  readonly refs: ReadonlyMap<string, string>;
}

/** A resolver of full ref names to object ids: an id, null when the ref does not exist, undefined to ask git. */
export type RefResolver = (fullRef: string) => string | null | undefined;

/** Parsed packed-refs per repository, reused while the file's identity (inode, size, mtime) is unchanged. */
const packedCache = new Map<string, PackedRefs>();
const PACKED_CACHE_MAX = 1024;

function packedRefs(repoPath: string): ReadonlyMap<string, string> | undefined {
  const file = join(repoPath, 'packed-refs');
  let key: string;
  try {
    // throwIfNoEntry: a missing file (the usual case) costs one syscall, no exception.
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st) return new Map();
    key = `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
  const hit = packedCache.get(repoPath);
  if (hit && hit.key === key) return hit.refs;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const refs = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
    const sp = line.indexOf(' ');
    if (sp > 0) refs.set(line.slice(sp + 1), line.slice(0, sp));
  }
  packedCache.delete(repoPath);
  packedCache.set(repoPath, { key, refs });
  if (packedCache.size > PACKED_CACHE_MAX) packedCache.delete(packedCache.keys().next().value as string);
  return refs;
}

/** A {@link RefResolver} for the repository at `repoPath`. `fullRef` must be a validated `refs/...` name. */
export function directRefResolver(repoPath: string): RefResolver {
  return (fullRef) => {
    if (!fullRef.startsWith('refs/') || fullRef.includes('..')) return undefined;
    const file = join(repoPath, fullRef);
    try {
      // A stat first: most candidates of a lookup (the tag named like the branch, say) do not exist, and a
      // failed readFileSync builds an exception with a stack, which costs more than the extra syscall.
      const st = statSync(file, { throwIfNoEntry: false });
      // A directory: `refs/heads/a` is one because `a/b` exists, so `a` itself cannot.
      if (st?.isDirectory()) return null;
      if (st) {
        const m = OID_LINE.exec(readFileSync(file, 'utf8'));
        return m ? m[1]! : undefined;
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EISDIR') return null;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
    }
    const packed = packedRefs(repoPath);
    if (!packed) return undefined;
    return packed.get(fullRef) ?? null;
  };
}
