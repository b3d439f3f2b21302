/**
 * A cache of `git pack-objects` results for upload-pack (clone and fetch), as GitLab's Gitaly keeps one:
 * CI systems clone the same commit over and over, and the pack for the same wants and haves is the same bytes.
 * upload-pack runs our hook instead of pack-objects (`-c uploadpack.packObjectsHook=<hook>`, honoured only
 * from protected configuration such as the command line, never from a repository); the hook keys the result
 * by the exact arguments and input (wants, haves, shallow and filter lines), serves a hit from disk, and on a
 * miss streams pack-objects' output to upload-pack while keeping a copy (published by rename, so a reader
 * never sees a partial pack). upload-pack checks every want against the refs it advertised before running
 * the hook, so a cached pack is only ever sent to a client allowed to have all of it.
 */
import { chmod, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The environment variable naming the cache directory of the repository being served. */
export const PACK_CACHE_ENV = 'ANVIL_PACK_CACHE';

/**
 * The hook, a POSIX sh script: upload-pack appends `git pack-objects <args>` to it. Without a usable cache
 * directory it simply runs pack-objects. A hit is touched (LRU: the sweep removes the least recent first) and
 * copied out; a miss goes through `tee` and is kept only when
 * pack-objects exited 0 (a client that went away kills the pipe, and the partial copy is dropped).
 */
export const PACK_OBJECTS_HOOK = `#!/bin/sh
# Written by Anvil; do not edit.
dir="\${${PACK_CACHE_ENV}:-}"
if [ -z "$dir" ] || ! mkdir -p "$dir" 2>/dev/null; then exec "$@"; fi
in=$(mktemp "$dir/.in.XXXXXX") || exec "$@"
if ! cat > "$in"; then rm -f "$in"; exit 1; fi
key=$( { printf '%s\\n' "$@"; cat "$in"; } | sha256sum ) || key=
key=\${key%% *}
pack="$dir/$key.pack"
if [ -n "$key" ] && [ -s "$pack" ]; then
  rm -f "$in"
  touch "$pack" 2>/dev/null
  exec cat "$pack"
fi
out=$(mktemp "$dir/.out.XXXXXX") || { exec "$@" < "$in"; }
{ "$@" < "$in"; echo $? > "$out.status"; } | tee "$out"
code=$(cat "$out.status" 2>/dev/null) || code=1
rm -f "$in" "$out.status"
if [ "$code" = 0 ] && [ -n "$key" ] && [ -s "$out" ]; then mv -f "$out" "$pack"; else rm -f "$out"; fi
exit "$code"
`;

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Writes the hook script into `dir` (atomically) and returns the `uploadpack.packObjectsHook` value for it. */
export async function writePackObjectsHook(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'pack-objects-cache');
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, PACK_OBJECTS_HOOK, { mode: 0o755 });
  await chmod(tmp, 0o755);
  await rename(tmp, path);
  // git runs the value through the shell with pack-objects' arguments appended.
  return shQuote(path);
}

/**
 * Keeps a repository's pack cache bounded: at most `maxEntries` packs and `maxBytes` in total, least recently
 * used (mtime) first out; temporary files older than an hour (a killed hook) go too.
 */
export async function sweepPackCache(dir: string, limits: { maxEntries: number; maxBytes: number }, now = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const packs: { path: string; size: number; mtime: number }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const st = await stat(path).catch(() => undefined);
    if (!st) continue;
    if (name.startsWith('.')) {
      if (now - st.mtimeMs > 60 * 60_000) await rm(path, { force: true });
    } else if (name.endsWith('.pack')) packs.push({ path, size: st.size, mtime: st.mtimeMs });
  }
  packs.sort((a, b) => b.mtime - a.mtime);
  let bytes = 0;
  for (const [i, p] of packs.entries()) {
    bytes += p.size;
    if (i >= limits.maxEntries || bytes > limits.maxBytes) await rm(p.path, { force: true });
  }
}
