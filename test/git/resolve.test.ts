// resolveCommitish and resolveRefInPath with the ref-file fast path: Gitea's order (branch, tag, commit id)
// holds whether a name is answered from the ref files, from packed-refs or by git.
import { describe, it, expect, afterAll, beforeAll } from '@jest/globals';
import { join } from 'node:path';
import { CatFileBatch } from '../../src/git/catfile.js';
import { cachedReader, ObjectCache, resolveCommitish, resolveRefInPath, type ObjectReader } from '../../src/git/contents.js';
import { directRefResolver } from '../../src/git/refstore.js';
import { commitFiles, initBare } from '../../src/git/repo.js';
import { cleanupTmp, gitOk, tmp } from './helpers.js';

const author = { name: 'A', email: 'a@example.com', when: new Date('2024-01-01T00:00:00Z') };

describe('resolveCommitish with the ref files', () => {
  let repo: string;
  let batch: CatFileBatch;
  let withFiles: ObjectReader;
  let gitOnly: ObjectReader;
  const c: Record<string, string> = {};
  const ok = (args: string[]) => gitOk(['--git-dir', repo, ...args]).then((s) => s.trim());

  beforeAll(async () => {
    repo = join(await tmp(), 'r.git');
    await initBare(repo, { defaultBranch: 'main' });
    c.one = await commitFiles(repo, { branch: 'main', files: [{ path: 'a.txt', content: 'one\n' }], message: 'one', author });
    c.two = await commitFiles(repo, { branch: 'main', files: [{ path: 'a.txt', content: 'two\n' }], message: 'two', author });
    // `same` is a branch at two and a tag at one; `onlytag` an annotated tag of one; `treetag` names a tree.
    await ok(['branch', 'same', c.two!]);
    await ok(['tag', 'same', c.one!]);
    await ok(['tag', '-a', '-m', 'annotated', 'onlytag', c.one!]);
    await ok(['tag', 'treetag', `${c.one!}^{tree}`]);
    // A tag named like a prefix of commit two's id that names a tree: git reads the name as that ref before any
    // object id (rev-parse's order), so it names no commit, as in Gitea.
    await ok(['tag', c.two!.slice(0, 9), `${c.two!}^{tree}`]);
    // A branch named like a prefix of commit one's id.
    await ok(['branch', c.one!.slice(0, 7), c.two!]);
    await ok(['branch', 'feature/x', c.one!]);
    batch = new CatFileBatch(repo);
    withFiles = cachedReader(batch, new ObjectCache(), 'r', directRefResolver(repo));
    gitOnly = cachedReader(batch, new ObjectCache(), 'g');
  });
  afterAll(async () => {
    await batch.close();
    await cleanupTmp();
  });

  const both = async (name: string) => {
    const a = await resolveCommitish(withFiles, name);
    expect(await resolveCommitish(gitOnly, name)).toEqual(a);
    return a;
  };

  it('prefers the branch over the tag of the same name, loose or packed', async () => {
    expect(await both('same')).toEqual({ kind: 'branch', name: 'same', sha: c.two });
    expect(await both('onlytag')).toEqual({ kind: 'tag', name: 'onlytag', sha: c.one });
    expect(await both(c.one!.slice(0, 7))).toEqual({ kind: 'branch', name: c.one!.slice(0, 7), sha: c.two });
    expect(await both(c.one!.slice(0, 8))).toEqual({ kind: 'commit', name: c.one, sha: c.one });
    expect(await both('treetag')).toBeNull();
    expect(await both(c.two!.slice(0, 9))).toBeNull();
    expect(await both(c.two!.slice(0, 10))).toEqual({ kind: 'commit', name: c.two, sha: c.two });
    expect(await both('nothing')).toBeNull();
    await ok(['pack-refs', '--all', '--prune']);
    expect(await both('same')).toEqual({ kind: 'branch', name: 'same', sha: c.two });
    expect(await both('onlytag')).toEqual({ kind: 'tag', name: 'onlytag', sha: c.one });
    expect(await both('refs/tags/same')).toEqual({ kind: 'tag', name: 'same', sha: c.one });
  });

  it('takes the shortest branch that starts a raw path, then tags, then a full id', async () => {
    expect(await resolveRefInPath(withFiles, 'feature/x/a.txt', 40)).toEqual({ ref: { kind: 'branch', name: 'feature/x', sha: c.one }, treePath: 'a.txt' });
    expect(await resolveRefInPath(withFiles, 'same/a.txt', 40)).toEqual({ ref: { kind: 'branch', name: 'same', sha: c.two }, treePath: 'a.txt' });
    expect(await resolveRefInPath(withFiles, 'onlytag/a.txt', 40)).toEqual({ ref: { kind: 'tag', name: 'onlytag', sha: c.one }, treePath: 'a.txt' });
    expect(await resolveRefInPath(withFiles, `${c.two!}/a.txt`, 40)).toEqual({ ref: { kind: 'commit', name: c.two, sha: c.two }, treePath: 'a.txt' });
    expect(await resolveRefInPath(withFiles, 'nope/a.txt', 40)).toBeNull();
  });
});
