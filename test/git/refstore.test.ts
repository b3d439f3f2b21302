// directRefResolver against git's own answers: loose refs, packed refs, updates after packing, deletions,
// symbolic refs (left to git) and names that are directories.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { directRefResolver } from '../../src/git/refstore.js';
import { cleanupTmp, git, tmp } from './helpers.js';

describe('directRefResolver', () => {
  let work: string;
  let gitDir: string;
  const ok = async (args: string[]) => (await git(args, { cwd: work })).stdout.trim();

  beforeAll(async () => {
    work = await tmp();
    await ok(['init', '-q', '-b', 'main', work]);
    await writeFile(join(work, 'a'), 'a');
    await ok(['add', 'a']);
    await ok(['commit', '-q', '-m', 'one']);
    gitDir = join(work, '.git');
  });
  afterAll(cleanupTmp);

  it('follows loose refs, then packed-refs, and sees changes to either', async () => {
    const resolve = directRefResolver(gitDir);
    const one = await ok(['rev-parse', 'HEAD']);
    expect(resolve('refs/heads/main')).toBe(one);
    expect(resolve('refs/heads/nope')).toBeNull();
    await ok(['branch', 'feature/x']);
    await ok(['tag', '-a', '-m', 'annotated', 'v1']);
    await ok(['pack-refs', '--all', '--prune']);
    expect(resolve('refs/heads/main')).toBe(one);
    expect(resolve('refs/tags/v1')).toBe(await ok(['rev-parse', 'refs/tags/v1']));
    // `refs/heads/feature` is a directory on disk: no such branch.
    await ok(['branch', 'feature/y']);
    expect(resolve('refs/heads/feature')).toBeNull();
    expect(resolve('refs/heads/feature/x')).toBe(one);
    // A new commit writes a loose ref over the packed one.
    await writeFile(join(work, 'a'), 'b');
    await ok(['commit', '-q', '-am', 'two']);
    const two = await ok(['rev-parse', 'HEAD']);
    expect(resolve('refs/heads/main')).toBe(two);
    // Deleting a packed branch rewrites packed-refs; the cached parse must notice.
    await ok(['branch', '-D', 'feature/x']);
    expect(resolve('refs/heads/feature/x')).toBeNull();
  });

  it('leaves symbolic refs and odd names to git', async () => {
    const resolve = directRefResolver(gitDir);
    await ok(['symbolic-ref', 'refs/heads/alias', 'refs/heads/main']);
    expect(resolve('refs/heads/alias')).toBeUndefined();
    expect(resolve('HEAD')).toBeUndefined();
    expect(resolve('refs/heads/../../config')).toBeUndefined();
  });
});
