import { killGit, spawnGit } from './run.js';

/**
 * The last commit that changed each of `names` (entries of directory `dir`, '' for the root), walking back from
 * `commitSha` — what Gitea's contents API reports as `last_commit_sha` (it runs `git log -1 -- <path>` per entry;
 * this is one path-limited `git log` for a whole directory, stopped as soon as every entry is found).
 * Merge commits show their combined diff (`-c`), so a merge that changed an entry against every parent counts,
 * as in git's default history simplification. Entries not found (should not happen) are left out.
 */
export async function lastCommitsOf(repoPath: string, commitSha: string, dir: string, names: readonly string[], timeoutMs = 30_000): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (names.length === 0) return found;
  const wanted = new Set(names);
  const prefix = dir === '' ? '' : `${dir}/`;
  // One entry asked for by its own path: the first commit the path-limited log shows is the answer.
  const single = names.length === 1 ? `${prefix}${names[0]}` : null;
  const pathspec = single ?? (dir === '' ? '.' : dir);
  const child = spawnGit(
    ['log', '-z', '--format=%x01%H', '--name-only', '-c', '--no-renames', '--no-ext-diff', '--end-of-options', commitSha, '--', `:(literal)${pathspec}`],
    { gitDir: repoPath, timeoutMs },
  );
  child.stderr?.resume();
  return new Promise<Map<string, string>>((resolve) => {
    let pending = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      killGit(child);
      resolve(found);
    };
    const consume = (record: string) => {
      const nul = record.indexOf('\0');
      const sha = (nul < 0 ? record : record.slice(0, nul)).trim();
      if (!/^[0-9a-f]{40,64}$/u.test(sha)) return;
      if (single !== null) {
        found.set(names[0]!, sha);
        return finish();
      }
      for (const raw of (nul < 0 ? '' : record.slice(nul + 1)).split('\0')) {
        const path = raw.replace(/^\n/u, '');
        if (!path.startsWith(prefix)) continue;
        const rest = path.slice(prefix.length);
        const slash = rest.indexOf('/');
        const entry = slash < 0 ? rest : rest.slice(0, slash);
        if (wanted.has(entry) && !found.has(entry)) found.set(entry, sha);
      }
      if (found.size === wanted.size) finish();
    };
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (done) return;
      pending += chunk;
      let at: number;
      // Records start with \x01; the last one may be incomplete until the next starts or the stream ends.
      while (!done && (at = pending.indexOf('\x01', 1)) > 0) {
        consume(pending.slice(1, at));
        pending = pending.slice(at);
      }
    });
    child.once('close', () => {
      if (!done && pending.startsWith('\x01')) consume(pending.slice(1));
      finish();
    });
    child.once('error', finish);
  });
}
