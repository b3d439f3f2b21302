import { describe, it, expect, afterAll, beforeAll } from '@jest/globals';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  checkTreePath,
  cloneBare,
  commitFiles,
  countCommits,
  deleteRef,
  initBare,
  InvalidPathError,
  isEmpty,
  PathConflictError,
  RepoExistsError,
  UnknownRevisionError,
  objectFormatOf,
  RefConflictError,
  repoSizeBytes,
  resolveFullRef,
  resolveRefish,
  resolveRevision,
  setHead,
  supportsSha256,
  updateRef,
} from '../../src/git/repo.js';
import { InvalidRefNameError } from '../../src/git/refs.js';
import { GitError } from '../../src/git/run.js';
import { CatFileBatch } from '../../src/git/catfile.js';
import { cleanupTmp, clientEnv, git, gitOk, tmp } from './helpers.js';

afterAll(cleanupTmp);

const author = { name: 'A U Thor', email: 'author@example.com', when: new Date('2024-01-02T03:04:05Z'), timezone: '+0200' };
const committer = { name: 'Com Mitter', email: 'committer@example.com', when: new Date('2024-02-03T04:05:06Z') };

async function newRepo(name = 'r.git', defaultBranch = 'main'): Promise<string> {
  const path = join(await tmp(), 'deep', 'owner', name);
  await initBare(path, { defaultBranch, objectFormat: 'sha1' });
  return path;
}

describe('initBare', () => {
  it('creates a bare repository, parents included, with our settings and no sample hooks', async () => {
    const repo = await newRepo('x.git', 'trunk');
    expect(await gitOk(['rev-parse', '--is-bare-repository'], { env: { ...(await clientEnv()), GIT_DIR: repo } })).toBe('true');
    expect(await readFile(join(repo, 'HEAD'), 'utf8')).toBe('ref: refs/heads/trunk\n');
    expect(await readdir(join(repo, 'hooks'))).toEqual([]);
    const cfg = async (k: string) => (await git(['config', '--file', join(repo, 'config'), '--get', k])).stdout.trim();
    expect(await cfg('receive.denyNonFastForwards')).toBe('false');
    expect(await cfg('uploadpack.allowFilter')).toBe('true');
    expect(await cfg('uploadpack.allowAnySHA1InWant')).toBe('false');
    expect(await cfg('repack.writeBitmaps')).toBe('true');
    expect(await cfg('core.bare')).toBe('true');
    expect(await isEmpty(repo)).toBe(true);
    expect(await objectFormatOf(repo)).toBe('sha1');
  });

  it('claims the directory: concurrent creates of one path give one repository and RepoExistsError for the rest', async () => {
    const path = join(await tmp(), 'o', 'same.git');
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => initBare(path, { defaultBranch: 'main' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) expect(r.reason).toBeInstanceOf(RepoExistsError);
    expect(await isEmpty(path)).toBe(true);
    // Our settings were written once.
    expect((await readFile(join(path, 'config'), 'utf8')).match(/\[uploadpack\]/g)).toHaveLength(1);
  });

  it('leaves no directory behind when git fails', async () => {
    const dir = await tmp();
    await expect(initBare(join(dir, 'bad.git'), { defaultBranch: 'main', objectFormat: 'md5' as 'sha1' })).rejects.toThrow(GitError);
    expect(await readdir(dir)).toEqual([]);
    await expect(cloneBare(join(dir, 'missing.git'), join(dir, 'copy.git'))).rejects.toThrow(GitError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a bad default branch before touching the disk', async () => {
    const dir = await tmp();
    await expect(initBare(join(dir, 'a', 'b.git'), { defaultBranch: '-evil' })).rejects.toThrow(InvalidRefNameError);
    await expect(initBare(join(dir, 'a', 'b.git'), { defaultBranch: 'a..b' })).rejects.toThrow(InvalidRefNameError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('probes SHA-256 support once and creates SHA-256 repositories when available', async () => {
    const probe = git(['init', '--bare', '--object-format=sha256', join(await tmp(), 'p.git')]);
    const expected = (await probe).code === 0;
    const first = supportsSha256();
    expect(supportsSha256()).toBe(first);
    expect(await first).toBe(expected);
    if (!expected) return;
    const repo = join(await tmp(), 's.git');
    await initBare(repo, { defaultBranch: 'main', objectFormat: 'sha256' });
    expect(await objectFormatOf(repo)).toBe('sha256');
    const sha = await commitFiles(repo, { branch: 'main', files: [{ path: 'a', content: 'x' }], message: 'm', author });
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    const second = await commitFiles(repo, { branch: 'main', files: [{ path: 'b', content: 'y' }, { path: 'c', content: 'z' }], message: 'm2', author });
    expect(await resolveRevision(repo, 'main')).toBe(second);
    expect(await countCommits(repo, 'main')).toBe(2);
  });
});

describe('commitFiles', () => {
  let repo: string;
  let first: string;
  let second: string;

  beforeAll(async () => {
    repo = await newRepo();
    first = await commitFiles(repo, {
      branch: 'main',
      files: [
        { path: 'README.md', content: '# hello\n' },
        { path: 'src/lib/deep/file.ts', content: Buffer.from('export {};\n') },
        { path: 'bin/run.sh', content: '#!/bin/sh\necho hi\n', mode: '100755' },
        { path: 'bin/data.bin', content: Buffer.from([0, 1, 2, 255, 10, 0]) },
      ],
      message: 'Initial commit',
      author,
      committer,
    });
    second = await commitFiles(repo, {
      branch: 'main',
      files: [{ path: 'src/lib/deep/file.ts', content: 'export const x = 1;\n' }, { path: 'docs/new.md', content: 'new' }],
      deletes: ['bin/run.sh', 'does/not/exist'],
      message: 'Second\n\nWith a body.\n',
      author,
    });
  });

  it('builds a root commit with nested paths, modes, author and committer', async () => {
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    const env = { ...(await clientEnv()), GIT_DIR: repo };
    const tree = await gitOk(['ls-tree', '-r', '--full-tree', first], { env });
    expect(tree.split('\n').map((l) => l.replace(/ [0-9a-f]{40}\t/, ' ')).sort()).toEqual(
      ['100644 blob README.md', '100644 blob bin/data.bin', '100644 blob src/lib/deep/file.ts', '100755 blob bin/run.sh'].sort(),
    );
    const raw = await gitOk(['cat-file', 'commit', first], { env });
    expect(raw).toMatch(/^tree [0-9a-f]{40}\nauthor A U Thor <author@example.com> 1704164645 \+0200\ncommitter Com Mitter <committer@example.com> 1706933106 \+0000\n\nInitial commit$/);
    expect(await gitOk(['show', `${first}:src/lib/deep/file.ts`], { env })).toBe('export {};');
    expect(await gitOk(['rev-parse', 'refs/heads/main'], { env })).toBe(second);
    expect(await gitOk(['rev-parse', `${second}^`], { env })).toBe(first);
    expect(await isEmpty(repo)).toBe(false);
  });

  it('applies deletes and updates on top of the parent; the committer defaults to the author', async () => {
    const env = { ...(await clientEnv()), GIT_DIR: repo };
    const files = (await gitOk(['ls-tree', '-r', '--name-only', second], { env })).split('\n').sort();
    expect(files).toEqual(['README.md', 'bin/data.bin', 'docs/new.md', 'src/lib/deep/file.ts']);
    expect(await gitOk(['log', '-1', '--format=%cn <%ce> %B', second], { env })).toBe('A U Thor <author@example.com> Second\n\nWith a body.');
    // No working tree and no index appear in the bare repository.
    expect((await readdir(repo)).sort()).toEqual(['HEAD', 'config', 'hooks', 'objects', 'refs']);
  });

  it('reads the commit back through CatFileBatch', async () => {
    const batch = new CatFileBatch(repo);
    try {
      const commit = await batch.read(second);
      expect(commit?.type).toBe('commit');
      expect(commit?.content.toString()).toContain(`parent ${first}\n`);
      const blob = await batch.read(`${first}:bin/data.bin`);
      expect(blob).toMatchObject({ type: 'blob', size: 6 });
      expect([...blob!.content]).toEqual([0, 1, 2, 255, 10, 0]);
      expect((await batch.read('main:src/lib/deep/file.ts'))?.content.toString()).toBe('export const x = 1;\n');
      expect(await batch.read('main:bin/run.sh')).toBeNull();
    } finally {
      await batch.close();
    }
  });

  it.each([
    ['../x', /"\.\." component/],
    ['a/../../x', /"\.\." component/],
    ['/etc/passwd', /absolute/],
    ['.git/config', /\.git component/],
    ['a/.GIT/x', /\.git component/],
    ['a/.Git./x', /\.git component/],
    ['GIT~1/config', /\.git component/],
    ['.git', /\.git component/],
    ['a//b', /empty component/],
    ['a/', /empty component/],
    ['./a', /"\." component/],
    ['', /empty/],
    ['a\\b', /backslash/],
    ['a\0b', /NUL/],
    ['a\nb', /control character/],
  ])('refuses the path %j with a typed error and changes nothing', async (path, why) => {
    expect(() => checkTreePath(path)).toThrow(InvalidPathError);
    expect(() => checkTreePath(path)).toThrow(why);
    const before = await resolveRevision(repo, 'main');
    await expect(commitFiles(repo, { branch: 'main', files: [{ path, content: 'x' }], message: 'm', author })).rejects.toThrow(InvalidPathError);
    await expect(commitFiles(repo, { branch: 'main', deletes: [path], message: 'm', author })).rejects.toThrow(InvalidPathError);
    expect(await resolveRevision(repo, 'main')).toBe(before);
  });

  it('refuses a file below a file, over a directory, or named twice, instead of silently dropping entries', async () => {
    const r = await newRepo('df.git');
    const base = await commitFiles(r, { branch: 'main', files: [{ path: 'file', content: '1' }, { path: 'dir/sub/x', content: '1' }], message: 'm', author });
    const attempt = (files: { path: string; content: string }[], deletes?: string[]) => commitFiles(r, { branch: 'main', files, deletes, message: 'm', author });
    await expect(attempt([{ path: 'file/below', content: '2' }])).rejects.toMatchObject({ name: 'PathConflictError', conflict: 'file_in_the_way', conflictingPath: 'file' });
    await expect(attempt([{ path: 'dir/sub', content: '2' }])).rejects.toMatchObject({ name: 'PathConflictError', conflict: 'directory_exists', conflictingPath: 'dir/sub' });
    await expect(attempt([{ path: 'dir', content: '2' }])).rejects.toThrow(PathConflictError);
    await expect(attempt([{ path: 'n', content: '1' }, { path: 'n', content: '2' }])).rejects.toMatchObject({ conflict: 'duplicate' });
    await expect(attempt([{ path: 'n', content: '1' }, { path: 'n/m', content: '2' }])).rejects.toMatchObject({ conflict: 'duplicate', conflictingPath: 'n' });
    expect(await resolveRevision(r, 'main')).toBe(base);
    // Deleting the file first makes room for a directory of the same name.
    const moved = await attempt([{ path: 'file/below', content: '2' }], ['file']);
    const env = await clientEnv({ GIT_DIR: r });
    expect((await gitOk(['ls-tree', '-r', '--name-only', moved], { env })).split('\n')).toEqual(['dir/sub/x', 'file/below']);
  });

  it('accepts ordinary dotted names', () => {
    for (const p of ['.gitignore', '.github/workflows/ci.yml', 'a/.gitkeep', 'x.git/y', '.gitmodules', 'a/..b/c']) expect(checkTreePath(p)).toBe(p);
  });

  it('concurrent commits on the same branch: one wins, the other fails with RefConflictError', async () => {
    const r = await newRepo('race.git');
    const base = await commitFiles(r, { branch: 'main', files: [{ path: 'f', content: '0' }], message: 'base', author });
    const attempts = await Promise.allSettled(
      [1, 2, 3, 4].map((i) => commitFiles(r, { branch: 'main', parent: base, files: [{ path: 'f', content: String(i) }], message: `c${i}`, author })),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled');
    const lost = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(3);
    for (const l of lost) {
      expect(l.reason).toBeInstanceOf(RefConflictError);
      expect((l.reason as RefConflictError).ref).toBe('refs/heads/main');
      expect((l.reason as RefConflictError).expected).toBe(base);
    }
    expect(await resolveRevision(r, 'main')).toBe((won[0] as PromiseFulfilledResult<string>).value);
    expect(await countCommits(r, 'main')).toBe(2);
  });

  it('a stale parent fails: the branch moved since the caller read it', async () => {
    const r = await newRepo('stale.git');
    const a = await commitFiles(r, { branch: 'main', files: [{ path: 'f', content: 'a' }], message: 'a', author });
    await commitFiles(r, { branch: 'main', files: [{ path: 'f', content: 'b' }], message: 'b', author });
    await expect(commitFiles(r, { branch: 'main', parent: a, files: [{ path: 'f', content: 'c' }], message: 'c', author })).rejects.toThrow(RefConflictError);
  });

  it('creates a new branch from another branch with expectedOld null, and refuses when it exists', async () => {
    const sha = await commitFiles(repo, { branch: 'feature/x', parent: 'main', expectedOld: null, files: [{ path: 'f.txt', content: 'f' }], message: 'f', author });
    expect(await resolveRevision(repo, 'feature/x')).toBe(sha);
    expect(await resolveRevision(repo, `${sha}^`)).toBe(second);
    await expect(
      commitFiles(repo, { branch: 'feature/x', parent: 'main', expectedOld: null, files: [{ path: 'g', content: 'g' }], message: 'g', author }),
    ).rejects.toThrow(RefConflictError);
    await expect(commitFiles(repo, { branch: 'HEAD', files: [{ path: 'g', content: 'g' }], message: 'g', author })).rejects.toThrow(InvalidRefNameError);
    await expect(commitFiles(repo, { branch: 'x', parent: 'no-such-rev', files: [{ path: 'g', content: 'g' }], message: 'g', author })).rejects.toThrow(
      UnknownRevisionError,
    );
    await expect(commitFiles(repo, { branch: 'x', parent: '--all', files: [{ path: 'g', content: 'g' }], message: 'g', author })).rejects.toThrow(UnknownRevisionError);
    await expect(commitFiles(repo, { branch: 'x', parent: 'main:README.md', files: [{ path: 'g', content: 'g' }], message: 'g', author })).rejects.toThrow(
      UnknownRevisionError,
    );
    expect(await resolveRevision(repo, 'x')).toBeNull();
    await deleteRef(repo, 'refs/heads/feature/x', sha);
  });
});

describe('refs and revisions', () => {
  let repo: string;
  let c1: string;
  let c2: string;
  let c3: string;
  beforeAll(async () => {
    repo = await newRepo();
    c1 = await commitFiles(repo, { branch: 'main', files: [{ path: 'a', content: '1' }], message: '1', author });
    c2 = await commitFiles(repo, { branch: 'main', files: [{ path: 'a', content: '2' }], message: '2', author });
    c3 = await commitFiles(repo, { branch: 'main', files: [{ path: 'a', content: '3' }], message: '3', author });
    const env = { ...(await clientEnv()), GIT_DIR: repo };
    await gitOk(['tag', 'light', c1], { env });
    await gitOk(['tag', '-a', '-m', 'annotated', 'v1', c2], { env });
    await gitOk(['tag', '-a', '-m', 'tag of tag', 'v1-again', 'v1'], { env });
    await gitOk(['branch', 'main-2', c1], { env });
    await gitOk(['tag', 'both', c1], { env });
    await gitOk(['branch', 'both', c2], { env });
  });

  it('countCommits', async () => {
    expect(await countCommits(repo, 'main')).toBe(3);
    expect(await countCommits(repo, c2)).toBe(2);
    expect(await countCommits(repo, `${c1}..${c3}`)).toBe(2);
    expect(await countCommits(repo, 'nope')).toBe(0);
    expect(await countCommits(repo, '--all')).toBe(0);
  });

  it('resolveRevision peels to commits and never passes options', async () => {
    expect(await resolveRevision(repo, 'main')).toBe(c3);
    expect(await resolveRevision(repo, 'main~2')).toBe(c1);
    expect(await resolveRevision(repo, 'v1')).toBe(c2);
    expect(await resolveRevision(repo, c1.slice(0, 7))).toBe(c1);
    expect(await resolveRevision(repo, `${c3}:a`)).toBeNull();
    expect(await resolveRevision(repo, 'nope')).toBeNull();
    expect(await resolveRevision(repo, '--all')).toBeNull();
    expect(await resolveRevision(repo, '')).toBeNull();
    expect(await resolveRevision(repo, 'main\nmain')).toBeNull();
    expect(await resolveRevision(repo, 'main^{/2}')).toBeNull();
    expect(await resolveRevision(repo, ':/2')).toBeNull();
    expect(await resolveFullRef(repo, 'refs/heads/main')).toBe(c3);
    expect(await resolveFullRef(repo, 'refs/heads/none')).toBeNull();
  });

  it('resolveRefish: branch first, then tag, then sha', async () => {
    expect(await resolveRefish(repo, 'main')).toEqual({ kind: 'branch', sha: c3, ref: 'refs/heads/main' });
    expect(await resolveRefish(repo, 'both')).toEqual({ kind: 'branch', sha: c2, ref: 'refs/heads/both' });
    expect(await resolveRefish(repo, 'light')).toEqual({ kind: 'tag', sha: c1, ref: 'refs/tags/light' });
    const v1 = await resolveRefish(repo, 'v1');
    expect(v1).toMatchObject({ kind: 'tag', sha: c2, ref: 'refs/tags/v1' });
    expect(v1?.tagObject).toMatch(/^[0-9a-f]{40}$/);
    expect(await resolveRefish(repo, 'v1-again')).toMatchObject({ kind: 'tag', sha: c2, ref: 'refs/tags/v1-again' });
    expect(await resolveRefish(repo, c1)).toEqual({ kind: 'commit', sha: c1 });
    expect(await resolveRefish(repo, c1.slice(0, 8))).toEqual({ kind: 'commit', sha: c1 });
    // "main" must not match refs/heads/main-2 or refs/heads/main/x by prefix.
    expect(await resolveRefish(repo, 'mai')).toBeNull();
    expect(await resolveRefish(repo, 'main~1')).toBeNull();
    expect(await resolveRefish(repo, '-main')).toBeNull();
    expect(await resolveRefish(repo, 'nope')).toBeNull();
  });

  it('updateRef and deleteRef compare and swap', async () => {
    await updateRef(repo, 'refs/heads/tmp', c1, null);
    await expect(updateRef(repo, 'refs/heads/tmp', c2, null)).rejects.toThrow(RefConflictError);
    await expect(updateRef(repo, 'refs/heads/tmp', c2, c3)).rejects.toThrow(RefConflictError);
    await updateRef(repo, 'refs/heads/tmp', c2, c1);
    await updateRef(repo, 'refs/heads/tmp', c3);
    expect(await resolveFullRef(repo, 'refs/heads/tmp')).toBe(c3);
    await expect(deleteRef(repo, 'refs/heads/tmp', c1)).rejects.toThrow(RefConflictError);
    await deleteRef(repo, 'refs/heads/tmp', c3);
    expect(await resolveFullRef(repo, 'refs/heads/tmp')).toBeNull();
    await expect(updateRef(repo, 'heads/x', c1)).rejects.toThrow(InvalidRefNameError);
    await expect(updateRef(repo, 'refs/heads/a..b', c1)).rejects.toThrow(InvalidRefNameError);
    await expect(updateRef(repo, 'refs/heads/x', 'main')).rejects.toThrow(/not a full object id/);
  });

  it('setHead', async () => {
    await setHead(repo, 'main-2');
    expect(await readFile(join(repo, 'HEAD'), 'utf8')).toBe('ref: refs/heads/main-2\n');
    await setHead(repo, 'main');
    await expect(setHead(repo, '-x')).rejects.toThrow(InvalidRefNameError);
  });

  it('repoSizeBytes counts loose objects and packs', async () => {
    const env = { ...(await clientEnv()), GIT_DIR: repo };
    const loose = await repoSizeBytes(repo);
    const counted = await gitOk(['count-objects', '-v'], { env });
    const kib = counted.split('\n').filter((l) => /^size(-pack)?: /.test(l)).reduce((n, l) => n + Number(l.split(': ')[1]), 0);
    expect(loose).toBe(kib * 1024);
    expect(loose).toBeGreaterThan(0);
    await gitOk(['repack', '-adq'], { env });
    const packed = await repoSizeBytes(repo);
    const packs = (await readdir(join(repo, 'objects', 'pack'))).filter((f) => f.endsWith('.pack'));
    expect(packs.length).toBe(1);
    expect(packed).toBeGreaterThanOrEqual((await stat(join(repo, 'objects', 'pack', packs[0]!))).size);
  });

  it('cloneBare copies branches, tags and HEAD without a remote', async () => {
    const dst = join(await tmp(), 'forks', 'f.git');
    await cloneBare(repo, dst);
    const env = { ...(await clientEnv()), GIT_DIR: dst };
    const refs = await gitOk(['for-each-ref', '--format=%(refname) %(objectname)'], { env });
    const srcRefs = await gitOk(['for-each-ref', '--format=%(refname) %(objectname)'], { env: { ...env, GIT_DIR: repo } });
    expect(refs).toBe(srcRefs);
    expect((await git(['config', '--get-regexp', '^remote\\.'], { env })).stdout).toBe('');
    expect(await readdir(join(dst, 'hooks'))).toEqual([]);
    expect((await git(['config', '--get', 'uploadpack.allowFilter'], { env })).stdout.trim()).toBe('true');
  });

  it('errors from git are GitError', async () => {
    await expect(isEmpty(join(repo, 'refs'))).rejects.toThrow(GitError);
  });
});
