import { describe, it, expect, afterAll } from '@jest/globals';
import { isFullSha, isSha, isValidBranchName, isValidRefName, isValidTagName, branchRef, InvalidRefNameError } from '../../src/git/refs.js';
import { cleanupTmp, git, tmp } from './helpers.js';

afterAll(cleanupTmp);

const VALID = [
  'main',
  'feature/x',
  'a/b/c',
  'v1.0',
  'release-1.2.3',
  'foo.bar',
  'x@y',
  'a.lockx',
  'ünïcödé',
  'we#ird',
  'a+b',
  'a_b',
  'a{b}',
  '@x',
  'x@',
  'a-',
  'A',
];
const INVALID = [
  '',
  'a..b',
  '..',
  '.hidden',
  'a/.hidden',
  'a.',
  'a/',
  '/a',
  'a//b',
  'a.lock',
  'a/b.lock/c',
  'a b',
  'a~1',
  'a^',
  'a:b',
  'a?',
  'a*',
  'a[b',
  'a\\b',
  'a\tb',
  'a\x7fb',
  'a\x01b',
  'a@{b',
  '@{-1}',
];

describe('isValidRefName / isValidBranchName agree with git check-ref-format', () => {
  it.each(VALID)('valid: %j', async (name) => {
    expect(isValidRefName(name)).toBe(true);
    expect(isValidBranchName(name)).toBe(true);
    expect(isValidTagName(name)).toBe(true);
    const r = await git(['check-ref-format', '--branch', name], { cwd: await tmp() });
    expect(r.code).toBe(0);
    expect((await git(['check-ref-format', `refs/heads/${name}`])).code).toBe(0);
  });

  it.each(INVALID)('invalid: %j', async (name) => {
    expect(isValidRefName(name)).toBe(false);
    expect(isValidBranchName(name)).toBe(false);
    expect(isValidTagName(name)).toBe(false);
    expect(() => branchRef(name)).toThrow(InvalidRefNameError);
    // `--branch` expands @{-1} against a repository's reflog; outside one it is refused too.
    const r = await git(['check-ref-format', '--branch', name], { cwd: await tmp() });
    expect(r.code).not.toBe(0);
  });

  it('refuses a leading dash (git would take it for an option) although git accepts refs/heads/-x', async () => {
    expect((await git(['check-ref-format', 'refs/heads/-x'])).code).toBe(0);
    expect((await git(['check-ref-format', '--branch', '-x'], { cwd: await tmp() })).code).not.toBe(0);
    expect(isValidRefName('-x')).toBe(false);
    expect(isValidBranchName('-x')).toBe(false);
    expect(isValidTagName('--force')).toBe(false);
  });

  it('refuses "@" (shorthand for HEAD to git) as a ref and branch name', async () => {
    // git expands `--branch @` to the current branch rather than refusing it.
    expect(isValidRefName('@')).toBe(false);
    expect(isValidBranchName('@')).toBe(false);
    expect(isValidRefName('a/@')).toBe(true);
  });

  it('HEAD is a valid ref name but never a branch name', async () => {
    expect((await git(['check-ref-format', '--branch', 'HEAD'], { cwd: await tmp() })).code).not.toBe(0);
    expect(isValidRefName('HEAD')).toBe(true);
    expect(isValidBranchName('HEAD')).toBe(false);
    expect(branchRef('main')).toBe('refs/heads/main');
  });

  it('full refs', () => {
    expect(isValidRefName('refs/heads/main')).toBe(true);
    expect(isValidRefName('refs/heads/')).toBe(false);
    expect(isValidRefName('refs/tags/v1.lock')).toBe(false);
  });

  it('refuses lone surrogates', () => {
    expect(isValidRefName('a\uD800b')).toBe(false);
    expect(isValidRefName('a\u{1F600}b')).toBe(true);
  });
});

describe('isSha', () => {
  it.each<[string, boolean]>([
    ['abcd', true],
    ['0123456789abcdef0123456789abcdef01234567', true],
    ['a'.repeat(64), true],
    ['abc', false],
    ['a'.repeat(65), false],
    ['ABCD', false],
    ['abcg', false],
    ['', false],
    ['-abc', false],
  ])('%j -> %s', (s, ok) => {
    expect(isSha(s)).toBe(ok);
  });

  it('isFullSha takes 40 or 64 digits only', () => {
    expect(isFullSha('a'.repeat(40))).toBe(true);
    expect(isFullSha('a'.repeat(64))).toBe(true);
    expect(isFullSha('a'.repeat(41))).toBe(false);
    expect(isFullSha('abcd')).toBe(false);
  });
});
