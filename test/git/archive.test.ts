// writeArchive's tar.gz against git's own tar: through a gzip process when GNU gzip is on PATH, and through
// zlib when it is not; each decompresses to git's tar and repeats its bytes, and failures of git or gzip are
// reported as such, never as a finished archive.
import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cleanupTmp, gitOk, tmp } from './helpers.js';

type ArchiveModule = typeof import('../../src/git/archive.js');

/** The module loaded afresh, so its one-time gzip probe sees the PATH of the moment. */
async function freshArchiveModule(): Promise<ArchiveModule> {
  let m: ArchiveModule | undefined;
  await jest.isolateModulesAsync(async () => {
    m = await import('../../src/git/archive.js');
  });
  return m!;
}

const gitPath = () =>
  new Promise<string>((resolve, reject) => execFile('sh', ['-c', 'command -v git'], (e, out) => (e ? reject(e) : resolve(out.trim()))));

describe('writeArchive tar.gz', () => {
  let work: string;
  let gitDir: string;
  let sha: string;
  let expectedTar: Buffer;
  const savedPath = process.env.PATH;

  beforeAll(async () => {
    work = await tmp();
    await gitOk(['init', '-q', '-b', 'main', work]);
    await mkdir(join(work, 'dir'));
    for (let i = 0; i < 40; i++) await writeFile(join(work, 'dir', `f${i}.txt`), `file ${i}\n`.repeat(200 + i));
    await gitOk(['add', '.'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'files'], { cwd: work });
    sha = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
    gitDir = join(work, '.git');
    const tarFile = join(await tmp(), 'expected.tar');
    await gitOk(['--git-dir', gitDir, 'archive', '--format=tar', '--prefix=repo/', '-o', tarFile, sha]);
    expectedTar = await readFile(tarFile);
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });
  afterAll(cleanupTmp);

  it('compresses with gzip when it is on PATH: the tar git writes, the same bytes every time', async () => {
    const { writeArchive } = await freshArchiveModule();
    const out = await tmp();
    await writeArchive(gitDir, sha, 'tar.gz', 'repo/', join(out, 'a.tar.gz'));
    await writeArchive(gitDir, sha, 'tar.gz', 'repo/', join(out, 'b.tar.gz'));
    const a = await readFile(join(out, 'a.tar.gz'));
    expect(gunzipSync(a).equals(expectedTar)).toBe(true);
    expect(a.equals(await readFile(join(out, 'b.tar.gz')))).toBe(true);
    // gzip -n: no file name flag, no time stamp.
    expect(a[3]! & 0x08).toBe(0);
    expect(a.readUInt32LE(4)).toBe(0);
  });

  it('falls back to zlib without gzip on PATH', async () => {
    const bin = await tmp();
    await symlink(await gitPath(), join(bin, 'git'));
    process.env.PATH = bin;
    const { writeArchive } = await freshArchiveModule();
    const out = join(await tmp(), 'c.tar.gz');
    await writeArchive(gitDir, sha, 'tar.gz', 'repo/', out);
    const c = await readFile(out);
    expect(gunzipSync(c).equals(expectedTar)).toBe(true);
    expect(c.readUInt32LE(4)).toBe(0);
  });

  it('reports gzip failing, not the SIGPIPE it leaves git with', async () => {
    const bin = await tmp();
    await symlink(await gitPath(), join(bin, 'git'));
    // A GNU-looking gzip that gives up after reading a little.
    await writeFile(join(bin, 'gzip'), '#!/bin/sh\nif [ "$1" = --version ]; then echo "gzip 1.12"; exit 0; fi\nhead -c 100 >/dev/null\necho "gzip: boom" >&2\nexit 1\n');
    await chmod(join(bin, 'gzip'), 0o755);
    process.env.PATH = `${bin}:/usr/bin:/bin`;
    const { writeArchive } = await freshArchiveModule();
    await expect(writeArchive(gitDir, sha, 'tar.gz', 'repo/', join(await tmp(), 'z.tar.gz'))).rejects.toThrow('gzip exited with 1: gzip: boom');
  });

  it('rejects with the git failure for a commit that is not there, on either path', async () => {
    const missing = '0123456789abcdef0123456789abcdef01234567';
    const viaGzip = await freshArchiveModule();
    await expect(viaGzip.writeArchive(gitDir, missing, 'tar.gz', 'repo/', join(await tmp(), 'x.tar.gz'))).rejects.toThrow(/git archive/u);
    const bin = await tmp();
    await symlink(await gitPath(), join(bin, 'git'));
    process.env.PATH = bin;
    const viaZlib = await freshArchiveModule();
    await expect(viaZlib.writeArchive(gitDir, missing, 'tar.gz', 'repo/', join(await tmp(), 'y.tar.gz'))).rejects.toThrow(/git archive/u);
  });
});
