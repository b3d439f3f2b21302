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
    ['a.b', 'a.b', true],
    ['{a,b{c,d}}x', 'bdx', true],
    ['{a,b{c,d}}x', 'bx', false],
    ['{,v}1', '1', true],
    ['a,b', 'a,b', true],
    ['[-z]', '-', true],
    ['[!0-9]*', 'x1', true],
    ['[!0-9]*', '1x', false],
    ['\\*', '*', true],
    ['\\*', 'x', false],
    ['*-rc?', 'v1.0-rc1', true],
    ['(a|b)', 'a', false],
    ['(a|b)', '(a|b)', true],
    ['main', 'main\n', false],
  ])('%s on %s -> %s', (filter, branch, ok) => expect(branchFilterMatches(filter, branch)).toBe(ok));

  it('refuses unbalanced patterns', () => {
    for (const p of ['{main', 'main}', '[abc', 'x]', '[]', 'a\\', '[z-a]', '{a,{b}']) expect([p, compileGlob(p)]).toEqual([p, null]);
  });

  it('matches in linear time: a pattern chosen to backtrack does not block the server', () => {
    // A regular expression built from this pattern takes tens of seconds on 60 characters.
    const t0 = Date.now();
    expect(branchFilterMatches('*a*a*a*a*a*a*a*a*b', 'a'.repeat(250))).toBe(false);
    expect(branchFilterMatches('{*a,*a}{*a,*a}{*a,*a}{*a,*a}{*a,*a}{*a,*a}b', 'a'.repeat(250))).toBe(false);
    expect(branchFilterMatches('*a*a*a*a*a*a*a*a*b', `${'a'.repeat(250)}b`)).toBe(true);
    expect(Date.now() - t0).toBeLessThan(500);
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

describe('chat formats', () => {
  it('slack: user text cannot inject links (<, > and & escaped)', async () => {
    const { outgoing } = await import('../../src/events/formats.js');
    const hook = { type: 'slack', contentType: 'json', url: 'https://hooks.example.com/x', meta: { channel: '#dev' } } as unknown as Parameters<typeof outgoing>[0];
    const payload = {
      ref: 'refs/heads/<https://evil.example|click>',
      total_commits: 1,
      compare_url: 'https://forge.example/o/r/compare/a...b',
      commits: [{ id: 'abcdef0123456789', message: 'fix <https://evil.example|login> & more', author: { name: 'me' } }],
      repository: { full_name: 'o/r', html_url: 'https://forge.example/o/r' },
      sender: { login: 'me' },
    };
    const req = outgoing(hook, 'push', JSON.stringify(payload))!;
    const body = JSON.parse(req.body);
    expect(req.body).not.toContain('<https://evil');
    expect(body.text).toBe('<https://forge.example/o/r/compare/a...b|[o/r:&lt;https://evil.example|click&gt;] 1 new commit>');
    expect(body.attachments[0].text).toContain('fix &lt;https://evil.example|login&gt; &amp; more');
  });
});
