import { describe, it, expect } from '@jest/globals';
import { FILE_GLOB_SEPARATORS, filePatterns, firstMatchingRule, isGlobRule, ruleMatcher, ruleMatches } from '../../src/domain/protection.js';
import { compileGlob } from '../../src/domain/glob.js';
import { PRE_RECEIVE_SCRIPT } from '../../src/git/hooks.js';

const matches = (rule: string, branch: string) => ruleMatches(rule, branch);

describe('branch protection rule names', () => {
  it('tells glob rules from plain branch names', () => {
    expect(isGlobRule('main')).toBe(false);
    expect(isGlobRule('release/v1.0')).toBe(false);
    for (const g of ['release/*', 'v?', '[ab]', '{a,b}', 'a\\*']) expect(isGlobRule(g)).toBe(true);
  });

  it('matches plain names exactly, ignoring case (Gitea uses EqualFold)', () => {
    expect(matches('main', 'main')).toBe(true);
    expect(matches('main', 'MAIN')).toBe(true);
    expect(matches('main', 'main2')).toBe(false);
    expect(matches('a.b', 'axb')).toBe(false);
  });

  it('matches globs like gobwas/glob with / as separator', () => {
    expect(matches('release/*', 'release/1.0')).toBe(true);
    expect(matches('release/*', 'release/1.0/hotfix')).toBe(false);
    expect(matches('release/**', 'release/1.0/hotfix')).toBe(true);
    expect(matches('v?', 'v1')).toBe(true);
    expect(matches('v?', 'v/')).toBe(false);
    expect(matches('[!a-c]x', 'dx')).toBe(true);
    expect(matches('[!a-c]x', 'bx')).toBe(false);
    expect(matches('{main,dev}', 'dev')).toBe(true);
    expect(matches('{main,dev}', 'devx')).toBe(false);
    expect(matches('a\\*', 'a*')).toBe(true);
    expect(matches('a\\*', 'ab')).toBe(false);
  });

  it('treats a glob that does not parse as a literal name', () => {
    expect(ruleMatcher('[abc')).toEqual({ literal: '[abc' });
    expect(matches('[abc', '[abc')).toBe(true);
    expect(matches('{a', 'a')).toBe(false);
  });

  it('prefers plain names over globs, then the older rule', () => {
    const rules = [
      { id: 1, ruleName: '**', createdUnix: 1 },
      { id: 2, ruleName: 'release/*', createdUnix: 2 },
      { id: 3, ruleName: 'release/1.0', createdUnix: 3 },
    ];
    expect(firstMatchingRule(rules, 'release/1.0')?.id).toBe(3);
    expect(firstMatchingRule(rules, 'release/2.0')?.id).toBe(1);
    expect(firstMatchingRule(rules.slice(1), 'release/2.0')?.id).toBe(2);
    expect(firstMatchingRule(rules.slice(1), 'main')).toBeUndefined();
  });
});

describe('filePatternSources (protected / unprotected file patterns)', () => {
  const matches = (patterns: string, path: string) => filePatterns(patterns).some((g) => compileGlob(g, FILE_GLOB_SEPARATORS)!.test(path.toLowerCase()));
  it.each([
    ['*.lock', 'yarn.lock', true],
    ['*.lock', 'a/yarn.lock', false],
    ['*.lock', 'x.y.lock', false],
    ['**.lock', 'a/b/x.y.lock', true],
    ['docs/**', 'docs/a/b.md', true],
    ['DOCS/*', 'docs/readme', true],
    [' a.txt ; b.txt ', 'b.txt', true],
    ['[', 'anything', false],
    ['', 'anything', false],
  ])('%j matches %s: %s', (patterns, path, expected) => expect(matches(patterns, path)).toBe(expected));
  it('skips invalid globs and keeps the others', () => expect(filePatterns('[;*.md')).toEqual(['*.md']));
});

describe('glob matching cannot be made slow', () => {
  it('answers patterns that make a regular expression backtrack exponentially in linear time', () => {
    const t = performance.now();
    expect(ruleMatches('*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(200))).toBe(false);
    expect(ruleMatches('**a**a**a**a**a**a**a**b', `${'a/'.repeat(100)}c`)).toBe(false);
    expect(filePatterns('*a*a*a*a*a*a*a*a*b').some((g) => compileGlob(g, FILE_GLOB_SEPARATORS)!.test('a'.repeat(200)))).toBe(false);
    expect(performance.now() - t).toBeLessThan(500);
  });

  it('the pre-receive hook embeds the same matcher and builds no RegExp from rule data', () => {
    expect(PRE_RECEIVE_SCRIPT).toContain('function compileGlob(');
    expect(PRE_RECEIVE_SCRIPT).not.toMatch(/new RegExp\(r\./);
  });
});
