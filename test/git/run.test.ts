import { describe, it, expect, afterAll, beforeAll } from '@jest/globals';
import { mkdir, writeFile, chmod, access } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { GitError, runGit, spawnGit, gitEnv } from '../../src/git/run.js';
import { initBare, commitFiles } from '../../src/git/repo.js';
import { cleanupTmp, eventually, git, processesIn, tmp } from './helpers.js';

afterAll(cleanupTmp);

const author = { name: 'A U Thor', email: 'author@example.com', when: new Date('2024-01-02T03:04:05Z') };

describe('runGit', () => {
  let repo: string;
  beforeAll(async () => {
    repo = join(await tmp(), 'r.git');
    await initBare(repo, { defaultBranch: 'main' });
  });

  it('returns stdout, stderr and the exit code', async () => {
    const r = await runGit(['rev-parse', '--is-bare-repository'], { gitDir: repo });
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toBe('true\n');
    expect(r.stderr).toBe('');
  });

  it('passes input on stdin', async () => {
    const r = await runGit(['hash-object', '--stdin'], { gitDir: repo, input: 'hello\n' });
    expect(r.stdout.toString().trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('rejects with GitError carrying code and stderr on failure, unless the code is allowed', async () => {
    const e = await runGit(['rev-parse', '--verify', 'nope'], { gitDir: repo }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GitError);
    const ge = e as GitError;
    expect(ge.reason).toBe('exit');
    expect(ge.code).toBe(128);
    expect(ge.stderr).toMatch(/Needed a single revision/);
    expect(ge.message).toMatch(/^git rev-parse --verify exited with 128: fatal: Needed a single revision/);
    const ok = await runGit(['config', '--get', 'no.such'], { gitDir: repo, okCodes: [1] });
    expect(ok.code).toBe(1);
  });

  it('never searches parent directories for a repository when gitDir is missing', async () => {
    // refs/ lies inside a repository: discovery from there would find it.
    const e = await runGit(['rev-parse', '--git-dir'], { gitDir: join(repo, 'refs') }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GitError);
    expect((e as GitError).stderr).toMatch(/not a git repository/);
    const gone = await runGit(['rev-parse', '--git-dir'], { gitDir: join(repo, 'missing') }).catch((x: unknown) => x);
    expect(gone).toBeInstanceOf(GitError);
    expect((gone as GitError).reason).toBe('spawn');
    expect((gone as GitError).message).toMatch(/could not be started: .*missing/);
  });

  it('kills the process group on timeout', async () => {
    const dir = join(await tmp(), 'slow.git');
    await initBare(dir, { defaultBranch: 'main' });
    const input = new PassThrough(); // never ends: cat-file --batch waits for ever
    const started = Date.now();
    const e = await runGit(['cat-file', '--batch'], { gitDir: dir, input, timeoutMs: 200 }).catch((x: unknown) => x);
    const elapsed = Date.now() - started;
    expect(e).toBeInstanceOf(GitError);
    expect((e as GitError).reason).toBe('timeout');
    expect((e as GitError).signal).toBe('SIGKILL');
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(3000);
    expect(await processesIn(dir)).toEqual([]);
  });

  it('kills the process when the abort signal fires', async () => {
    const dir = join(await tmp(), 'abort.git');
    await initBare(dir, { defaultBranch: 'main' });
    const ac = new AbortController();
    const p = runGit(['cat-file', '--batch'], { gitDir: dir, input: new PassThrough(), signal: ac.signal }).catch((x: unknown) => x);
    expect(await eventually(async () => (await processesIn(dir)).length > 0)).toBe(true);
    ac.abort();
    const e = await p;
    expect(e).toBeInstanceOf(GitError);
    expect((e as GitError).reason).toBe('aborted');
    expect(await eventually(async () => (await processesIn(dir)).length === 0)).toBe(true);
  });

  it('stops a process whose output exceeds maxOutputBytes', async () => {
    const sha = (await runGit(['hash-object', '-w', '--stdin'], { gitDir: repo, input: Buffer.alloc(100_000, 'x') })).stdout.toString().trim();
    const e = await runGit(['cat-file', 'blob', sha], { gitDir: repo, maxOutputBytes: 1000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GitError);
    expect((e as GitError).reason).toBe('output_limit');
    const r = await runGit(['cat-file', 'blob', sha], { gitDir: repo });
    expect(r.stdout.length).toBe(100_000);
  });

  it('spawnGit streams output and honours its timeout', async () => {
    const child = spawnGit(['cat-file', '--batch'], { gitDir: repo, timeoutMs: 150 });
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => resolve([c, s])));
    child.stdout!.resume();
    child.stderr!.resume();
    expect(await closed).toEqual([null, 'SIGKILL']);
  });
});

describe('hardened environment', () => {
  const saved: Record<string, string | undefined> = {};
  const keys = ['HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_PARAMETERS', 'GIT_DIR', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM', 'GIT_INDEX_FILE'];
  let evilHome: string;
  let marker: string;
  let repo: string;

  beforeAll(async () => {
    evilHome = await tmp('anvil-evil-home-');
    marker = join(evilHome, 'pwned');
    const hooks = join(evilHome, 'hooks');
    await mkdir(hooks);
    await mkdir(join(evilHome, '.config', 'git'), { recursive: true });
    const hook = `#!/bin/sh\ntouch '${marker}'\n`;
    for (const name of ['reference-transaction', 'post-update', 'pre-receive', 'post-commit']) {
      await writeFile(join(hooks, name), hook);
      await chmod(join(hooks, name), 0o755);
    }
    const config = `[user]\n\tname = Evil\n[alias]\n\tevil = !touch '${marker}'\n[core]\n\thooksPath = ${hooks}\n`;
    await writeFile(join(evilHome, '.gitconfig'), config);
    await writeFile(join(evilHome, '.config', 'git', 'config'), config);
    repo = join(await tmp(), 'h.git');
    await initBare(repo, { defaultBranch: 'main' });
    // The repository's own hooks directory holds a hook too: ours are off unless asked for.
    await writeFile(join(repo, 'hooks', 'reference-transaction'), hook);
    await chmod(join(repo, 'hooks', 'reference-transaction'), 0o755);
    for (const k of keys) saved[k] = process.env[k];
    process.env.HOME = evilHome;
    process.env.XDG_CONFIG_HOME = join(evilHome, '.config');
    process.env.GIT_CONFIG_PARAMETERS = "'user.email'='evil@example.com'";
    process.env.GIT_DIR = join(evilHome, 'not-a-repo');
    process.env.GIT_INDEX_FILE = join(evilHome, 'index');
    delete process.env.GIT_CONFIG_GLOBAL;
    delete process.env.GIT_CONFIG_NOSYSTEM;
  });

  afterAll(() => {
    for (const k of keys) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('the stock git client with the inherited environment does read the evil configuration (the test can fail)', async () => {
    const r = await git(['config', '--get', 'user.name'], { env: { ...process.env } as Record<string, string>, cwd: evilHome });
    expect(r.stdout.trim()).toBe('Evil');
  });

  it('runGit reads no global or XDG config and no GIT_* variables of the parent process', async () => {
    const name = await runGit(['config', '--get', 'user.name'], { gitDir: repo, okCodes: [1] });
    expect(name.code).toBe(1);
    expect(name.stdout.toString()).toBe('');
    const email = await runGit(['config', '--get', 'user.email'], { gitDir: repo, okCodes: [1] });
    expect(email.code).toBe(1);
    const list = (await runGit(['config', '--list', '--show-origin'], { gitDir: repo })).stdout.toString();
    expect(list).not.toContain(evilHome);
    expect(list).not.toContain('Evil');
    const env = gitEnv();
    expect(env.HOME).not.toBe(evilHome);
    expect(Object.keys(env)).not.toContain('GIT_DIR');
    expect(env.GIT_CONFIG_NOSYSTEM).toBe('1');
    expect(env.GIT_CONFIG_GLOBAL).toBe('/dev/null');
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
  });

  it('an alias from the evil config does not exist', async () => {
    const e = await runGit(['evil'], { gitDir: repo }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GitError);
    expect((e as GitError).stderr).toMatch(/'evil' is not a git command/);
    await expect(access(marker)).rejects.toThrow();
  });

  it('no hook runs on a server-side commit (global hooksPath or the repository hooks directory)', async () => {
    const sha = await commitFiles(repo, { branch: 'main', files: [{ path: 'a.txt', content: 'a' }], message: 'm', author });
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    await expect(access(marker)).rejects.toThrow();
    // With our hooks directory named explicitly, the hook does run: hooks are off only by default.
    await runGit(['update-ref', 'refs/heads/other', sha], { gitDir: repo, config: { 'core.hooksPath': join(repo, 'hooks') } });
    await expect(access(marker)).resolves.toBeUndefined();
  });
});
