// lastCommitsOf against `git rev-list -1 <commit> -- <path>` (what Gitea runs per entry) on a history with a
// merge that takes one side, a merge that changes a file against both parents, nested directories and renames.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastCommitsOf } from '../../src/git/lastcommit.js';
import { cleanupTmp, git, tmp } from './helpers.js';

describe('lastCommitsOf', () => {
  let work: string;
  let bare: string;
  const ok = async (args: string[], cwd = work) => (await git(args, { cwd })).stdout.trim();
  const commit = async (files: Record<string, string>, msg: string) => {
    for (const [p, c] of Object.entries(files)) {
      await mkdir(join(work, p, '..'), { recursive: true });
      await writeFile(join(work, p), c);
    }
    await ok(['add', '-A']);
    await ok(['commit', '-q', '-m', msg]);
    return ok(['rev-parse', 'HEAD']);
  };

  beforeAll(async () => {
    work = await tmp();
    await ok(['init', '-q', '-b', 'main', work]);
    await commit({ 'a.txt': 'a', 'dir/x.txt': 'x', 'dir/sub/y.txt': 'y', 'b.txt': 'b' }, 'one');
    await ok(['checkout', '-q', '-b', 'side']);
    await commit({ 'dir/x.txt': 'x from side' }, 'side changes x');
    await ok(['checkout', '-q', 'main']);
    await commit({ 'b.txt': 'b2' }, 'main changes b');
    await ok(['merge', '-q', '--no-ff', '-m', 'merge side', 'side']);
    await ok(['checkout', '-q', '-b', 'other', 'HEAD~1']);
    await commit({ 'a.txt': 'a other' }, 'other changes a');
    await ok(['checkout', '-q', 'main']);
    await commit({ 'a.txt': 'a main' }, 'main changes a');
    // A conflicting merge resolved to a third content: the merge itself changed a.txt against both parents.
    await git(['merge', '-q', '-m', 'merge other', 'other'], { cwd: work }).catch(() => undefined);
    await writeFile(join(work, 'a.txt'), 'a resolved');
    await ok(['add', 'a.txt']);
    await ok(['commit', '-q', '--no-edit']);
    await commit({ 'dir/sub/z.txt': 'z' }, 'adds z');
    await ok(['mv', 'b.txt', 'dir/b-moved.txt']);
    await ok(['commit', '-q', '-m', 'moves b']);
    bare = join(work, '.git');
  });
  afterAll(cleanupTmp);

  it('agrees with git rev-list -1 for every entry of every directory', async () => {
    const head = await ok(['rev-parse', 'HEAD']);
    for (const dir of ['', 'dir', 'dir/sub']) {
      const names = (await ok(['ls-tree', '--name-only', `HEAD:${dir}`])).split('\n');
      const got = await lastCommitsOf(bare, head, dir, names);
      for (const name of names) {
        const path = dir ? `${dir}/${name}` : name;
        expect([path, got.get(name)]).toEqual([path, await ok(['rev-list', '-1', head, '--', path])]);
      }
      // One entry asked for alone takes the single-path route; same answers.
      const single = await lastCommitsOf(bare, head, dir, [names[0]!]);
      expect(single.get(names[0]!)).toBe(got.get(names[0]!));
    }
  });

  it('treats names as literal paths and returns nothing for paths without history', async () => {
    const head = await ok(['rev-parse', 'HEAD']);
    expect((await lastCommitsOf(bare, head, '', ['*.txt'])).size).toBe(0);
    expect((await lastCommitsOf(bare, head, 'dir', ['nope', 'x.txt'])).get('nope')).toBeUndefined();
  });
});
