import { describe, it, expect, afterAll, beforeAll } from '@jest/globals';
import { join } from 'node:path';
import { getBranch, listBranches } from '../../src/git/branches.js';
import { commitFiles, initBare } from '../../src/git/repo.js';
import { cleanupTmp, clientEnv, git, gitOk, tmp } from './helpers.js';

afterAll(cleanupTmp);

describe('listBranches / getBranch', () => {
  let repo: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    repo = join(await tmp(), 'b.git');
    await initBare(repo, { defaultBranch: 'main' });
    env = await clientEnv({ GIT_DIR: repo });
    const author = { name: 'Ann Author', email: 'ann@example.com', when: new Date('2023-05-06T07:08:09Z'), timezone: '-0530' };
    const committer = { name: 'Carl Committer', email: 'carl@example.com', when: new Date('2023-06-07T08:09:10Z'), timezone: '+0100' };
    const root = await commitFiles(repo, { branch: 'main', files: [{ path: 'a', content: 'a' }], message: 'Root', author });
    await commitFiles(repo, {
      branch: 'main',
      files: [{ path: 'b', content: 'b' }],
      message: 'Subject line\n\nBody with\nseveral lines\n\n',
      author,
      committer,
    });
    await commitFiles(repo, { branch: 'feature/deep/x', parent: root, expectedOld: null, files: [{ path: 'c', content: 'c' }], message: 'ünïcödé subject', author });
    await commitFiles(repo, { branch: 'main-2', parent: root, expectedOld: null, files: [{ path: 'd', content: 'd' }], message: 'no newline', author });
    // A merge commit (two parents) made with the stock client's plumbing.
    const tree = await gitOk(['rev-parse', 'main^{tree}'], { env });
    const merge = await gitOk(['commit-tree', tree, '-p', 'main', '-p', 'main-2', '-m', 'Merge'], { env });
    await gitOk(['update-ref', 'refs/heads/merged', merge], { env });
    // Tags are not branches.
    await gitOk(['tag', 'v1', 'main'], { env });
  });

  it('matches git for-each-ref field for field', async () => {
    const branches = await listBranches(repo);
    const expected = (
      await gitOk(
        [
          'for-each-ref',
          '--format=%(refname:strip=2)|%(objectname)|%(tree)|%(parent)|%(authorname)|%(authoremail:trim)|%(authordate:iso-strict)|%(committername)|%(committeremail:trim)|%(committerdate:iso-strict)|%(subject)',
          'refs/heads/',
        ],
        { env },
      )
    ).split('\n');
    expect(branches.map((b) => b.name)).toEqual(['feature/deep/x', 'main', 'main-2', 'merged']);
    expect(
      branches.map((b) =>
        [
          b.name,
          b.commit.sha,
          b.commit.tree,
          b.commit.parents.join(' '),
          b.commit.author.name,
          b.commit.author.email,
          b.commit.author.date,
          b.commit.committer.name,
          b.commit.committer.email,
          b.commit.committer.date,
          b.commit.subject,
        ].join('|'),
      ),
    ).toEqual(expected);
    for (const b of branches) {
      // for-each-ref ends each record with a newline of its own.
      const raw = (await git(['for-each-ref', '--format=%(contents)', `refs/heads/${b.name}`], { env })).stdout;
      expect(b.commit.message).toBe(raw.slice(0, -1));
    }
  });

  it('keeps the full message, dates with their offsets, and every parent', async () => {
    const main = await getBranch(repo, 'main');
    expect(main).not.toBeNull();
    expect(main!.commit.subject).toBe('Subject line');
    expect(main!.commit.message).toBe('Subject line\n\nBody with\nseveral lines\n\n');
    expect(main!.commit.author).toEqual({ name: 'Ann Author', email: 'ann@example.com', date: '2023-05-06T01:38:09-05:30' });
    expect(main!.commit.committer).toEqual({ name: 'Carl Committer', email: 'carl@example.com', date: '2023-06-07T09:09:10+01:00' });
    const merged = await getBranch(repo, 'merged');
    expect(merged!.commit.parents).toEqual([main!.commit.sha, (await getBranch(repo, 'main-2'))!.commit.sha]);
    expect((await getBranch(repo, 'feature/deep/x'))!.commit.subject).toBe('ünïcödé subject');
  });

  it('getBranch matches exactly, not by prefix, and refuses bad names', async () => {
    expect(await getBranch(repo, 'feature')).toBeNull();
    expect(await getBranch(repo, 'feature/deep')).toBeNull();
    expect(await getBranch(repo, 'mai')).toBeNull();
    expect(await getBranch(repo, 'v1')).toBeNull();
    expect(await getBranch(repo, '--all')).toBeNull();
    expect(await getBranch(repo, 'HEAD')).toBeNull();
    expect((await getBranch(repo, 'main-2'))!.name).toBe('main-2');
  });

  it('an empty repository has no branches', async () => {
    const empty = join(await tmp(), 'e.git');
    await initBare(empty, { defaultBranch: 'main' });
    expect(await listBranches(empty)).toEqual([]);
    expect(await getBranch(empty, 'main')).toBeNull();
  });
});
