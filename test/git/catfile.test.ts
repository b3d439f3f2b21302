import { describe, it, expect, afterAll, beforeAll } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CatFileBatch, CatFilePool } from '../../src/git/catfile.js';
import { commitFiles, initBare } from '../../src/git/repo.js';
import { GitError } from '../../src/git/run.js';
import { cleanupTmp, clientEnv, eventually, gitOk, processesIn, tmp } from './helpers.js';

afterAll(cleanupTmp);

const author = { name: 'A', email: 'a@example.com', when: new Date('2024-01-01T00:00:00Z') };

async function makeRepo(files = 3): Promise<{ repo: string; commit: string }> {
  const repo = join(await tmp(), 'c.git');
  await initBare(repo, { defaultBranch: 'main' });
  const commit = await commitFiles(repo, {
    branch: 'main',
    files: Array.from({ length: files }, (_, i) => ({ path: `dir/f${i}.txt`, content: `content ${i}\n`.repeat(i + 1) })),
    message: 'files',
    author,
  });
  return { repo, commit };
}

describe('CatFileBatch', () => {
  let repo: string;
  let commit: string;
  let batch: CatFileBatch;
  const big = Buffer.alloc(3 * 1024 * 1024 + 17);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff;

  beforeAll(async () => {
    ({ repo, commit } = await makeRepo(50));
    commit = await commitFiles(repo, { branch: 'main', files: [{ path: 'big.bin', content: big }], message: 'big', author });
    const env = await clientEnv({ GIT_DIR: repo });
    await gitOk(['tag', '-a', '-m', 'a tag\n', 'v1', commit], { env });
    batch = new CatFileBatch(repo);
  });
  afterAll(() => batch.close());

  it('reads blobs, trees, commits and tags; missing objects are null', async () => {
    const env = await clientEnv({ GIT_DIR: repo });
    const blob = await batch.read('main:dir/f2.txt');
    expect(blob).toEqual({
      sha: await gitOk(['rev-parse', 'main:dir/f2.txt'], { env }),
      type: 'blob',
      size: 30,
      content: Buffer.from('content 2\n'.repeat(3)),
    });
    const c = await batch.read(commit);
    expect(c?.type).toBe('commit');
    expect(c?.content.toString()).toBe(await gitOk(['cat-file', 'commit', commit], { env }).then((s) => `${s}\n`));
    expect((await batch.read('main^{tree}'))?.type).toBe('tree');
    const tag = await batch.read('v1');
    expect(tag?.type).toBe('tag');
    expect(tag?.content.toString()).toContain(`object ${commit}\n`);
    expect(await batch.read('main:nope')).toBeNull();
    expect(await batch.read('0'.repeat(40))).toBeNull();
    expect(await batch.read('no-such-branch')).toBeNull();
    expect(await batch.read('a\nb')).toBeNull();
    expect(await batch.read('')).toBeNull();
    // Still in step after the misses.
    expect((await batch.read('main:dir/f0.txt'))?.content.toString()).toBe('content 0\n');
  });

  it('answers many interleaved requests, large objects included, in order and from one process', async () => {
    const specs = Array.from({ length: 50 }, (_, i) => `main:dir/f${i}.txt`);
    const all = [...specs.slice(0, 25), 'main:big.bin', 'missing:x', ...specs.slice(25), 'main:big.bin'];
    const results = await Promise.all(all.map((s) => batch.read(s)));
    for (let i = 0; i < 50; i++) {
      const r = results[all.indexOf(`main:dir/f${i}.txt`)];
      expect(r?.content.toString()).toBe(`content ${i}\n`.repeat(i + 1));
    }
    expect(results[25]?.size).toBe(big.length);
    expect(results[25]?.content.equals(big)).toBe(true);
    expect(results[26]).toBeNull();
    expect(results[52]?.content.equals(big)).toBe(true);
    expect(await processesIn(repo)).toHaveLength(1);
    expect(batch.processes).toBe(1);
  });

  it('info gives type and size without content (a second, --batch-check process)', async () => {
    expect(await batch.info('main:big.bin')).toEqual({ sha: expect.stringMatching(/^[0-9a-f]{40}$/), type: 'blob', size: big.length });
    expect(await batch.info('main:dir')).toMatchObject({ type: 'tree' });
    expect(await batch.info('main:none')).toBeNull();
    expect(batch.processes).toBe(2);
  });

  it('sees commits made after it started (no stale refs or packs)', async () => {
    expect((await batch.read('main:dir/f1.txt'))?.content.toString()).toBe('content 1\ncontent 1\n');
    const next = await commitFiles(repo, { branch: 'main', files: [{ path: 'dir/f1.txt', content: 'changed' }], message: 'change', author });
    expect((await batch.read('main:dir/f1.txt'))?.content.toString()).toBe('changed');
    expect((await batch.read(next))?.type).toBe('commit');
    // Even after a repack moved every object into a new pack.
    await gitOk(['repack', '-adq'], { env: await clientEnv({ GIT_DIR: repo }) });
    expect((await batch.read('main:dir/f1.txt'))?.content.toString()).toBe('changed');
  });

  it('close() lets queued requests finish, then a new request starts a new process', async () => {
    const pending = batch.read('main:dir/f3.txt');
    await batch.close();
    expect((await pending)?.content.toString()).toBe('content 3\n'.repeat(4));
    expect(await eventually(async () => (await processesIn(repo)).length === 0)).toBe(true);
    expect((await batch.read('main:dir/f4.txt'))?.size).toBe(50);
    expect(await processesIn(repo)).toHaveLength(1);
  });

  it('a missing repository fails with GitError, and every queued request with it', async () => {
    const gone = join(await tmp(), 'gone.git');
    await initBare(gone, { defaultBranch: 'main' });
    const b = new CatFileBatch(gone);
    await rm(join(gone, 'objects'), { recursive: true });
    const results = await Promise.allSettled([b.read('HEAD'), b.read('main')]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(GitError);
    }
    await b.close();
  });

  it('stops its process after the idle period', async () => {
    const { repo: r } = await makeRepo();
    let idle = 0;
    const b = new CatFileBatch(r, { idleMs: 100, onIdle: () => idle++ });
    expect((await b.read('main:dir/f0.txt'))?.size).toBe(10);
    expect(await processesIn(r)).toHaveLength(1);
    expect(await eventually(async () => (await processesIn(r)).length === 0, 2000)).toBe(true);
    expect(idle).toBe(1);
    expect((await b.read('main:dir/f1.txt'))?.size).toBe(20);
    await b.close();
  });
});

describe('CatFilePool', () => {
  it('keeps at most maxReaders repositories open, closing the least recently used', async () => {
    const repos = await Promise.all([makeRepo(), makeRepo(), makeRepo()]);
    const pool = new CatFilePool({ maxReaders: 2 });
    try {
      const [a, b, c] = repos.map((r) => r.repo) as [string, string, string];
      expect((await pool.read(a, 'main:dir/f0.txt'))?.size).toBe(10);
      expect((await pool.read(b, 'main:dir/f0.txt'))?.size).toBe(10);
      expect(pool.get(a)).toBe(pool.get(a));
      // a was used last, so b is evicted when c arrives.
      expect((await pool.read(c, 'main:dir/f1.txt'))?.size).toBe(20);
      expect(pool.size).toBe(2);
      expect(await eventually(async () => (await processesIn(b)).length === 0)).toBe(true);
      expect(await processesIn(a)).toHaveLength(1);
      expect(await processesIn(c)).toHaveLength(1);
      // b comes back on demand.
      expect((await pool.info(b, 'main:dir/f2.txt'))?.size).toBe(30);
      await pool.close(c);
      expect(await eventually(async () => (await processesIn(c)).length === 0)).toBe(true);
    } finally {
      await pool.closeAll();
    }
    expect(pool.size).toBe(0);
    for (const r of repos) expect(await processesIn(r.repo)).toEqual([]);
  });

  it('forgets readers that went idle', async () => {
    const { repo } = await makeRepo();
    const pool = new CatFilePool({ idleMs: 80 });
    expect((await pool.read(repo, 'main:dir/f0.txt'))?.size).toBe(10);
    expect(pool.size).toBe(1);
    expect(await eventually(async () => pool.size === 0 && (await processesIn(repo)).length === 0, 2000)).toBe(true);
    await pool.closeAll();
  });
});
