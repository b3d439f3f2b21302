// Webhook rules without storage: branch-filter globs, event names and flags, header event names, sealing.
import { it, expect, describe } from '@jest/globals';
import { branchFilterMatches, compileGlob, flagsFromNames, listEvents, publicEventName } from '../../src/domain/webhook.js';
import { openSecret, sealSecret } from '../../src/events/seal.js';

describe('branch filter (gobwas/glob without separators)', () => {
  it.each([
    ['', 'anything', true],
    ['*', 'feature/x', true],
    ['main', 'main', true],
    ['main', 'main2', false],
    ['{main,release/*}', 'release/1.0', true],
    ['{main,release/*}', 'dev', false],
    ['feature/*', 'feature/a/b', true],
    ['v?', 'v1', true],
    ['v?', 'v10', false],
    ['[abc]x', 'bx', true],
    ['[!abc]x', 'bx', false],
    ['[a-c]x', 'cx', true],
    ['a.b', 'aXb', false],
  ])('%s on %s -> %s', (filter, branch, ok) => expect(branchFilterMatches(filter, branch)).toBe(ok));

  it('refuses unbalanced patterns', () => {
    for (const p of ['{main', 'main}', '[abc', 'x]', '[]', 'a\\']) expect([p, compileGlob(p)]).toEqual([p, null]);
  });
});

describe('events', () => {
  it('expands groups, ignores unknown names, defaults to push', () => {
    expect(flagsFromNames(undefined)).toEqual(['push']);
    expect(flagsFromNames([])).toEqual(['push']);
    expect(flagsFromNames(['bogus'])).toEqual([]);
    expect(flagsFromNames(['Issues_Only', 'push'])).toEqual(['push', 'issues']);
    expect(listEvents(flagsFromNames(['pull_request']))).toEqual([
      'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
      'pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment', 'pull_request_sync',
      'pull_request_review_request',
    ]);
  });

  it('maps event types to the public header name', () => {
    expect(publicEventName('issue_label')).toBe('issues');
    expect(publicEventName('pull_request_comment')).toBe('issue_comment');
    expect(publicEventName('pull_request_review_request')).toBe('pull_request');
    expect(publicEventName('pull_request_review_approved')).toBe('pull_request_approved');
    expect(publicEventName('pull_request_review_comment')).toBe('pull_request_comment');
    expect(publicEventName('push')).toBe('push');
  });
});

describe('sealed credentials', () => {
  it('round-trip under the same key and open to nothing under another', () => {
    const sealed = sealSecret('k1', 'Bearer abc');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('abc');
    expect(openSecret('k1', sealed)).toBe('Bearer abc');
    expect(openSecret('k2', sealed)).toBe('');
    expect(sealSecret('k1', '')).toBe('');
  });
});
