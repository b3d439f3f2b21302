import { describe, it, expect } from '@jest/globals';
import { ScopeError, formatScopes, hasAnyScope, levelForMethod, missingScopes, parseScopes, type ScopeCategory } from '../../src/domain/scopes.js';

/** Gitea's normalised (stored) form of a scope list. */
const normalise = (items: string[]) => formatScopes(parseScopes(items));

const ALL_CATEGORIES: ScopeCategory[] = ['activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user'];

describe('parseScopes', () => {
  it('reads read: and write: items', () => {
    const s = parseScopes(['read:user', 'write:repository']);
    expect(s.publicOnly).toBe(false);
    expect(Object.fromEntries(s.granted)).toEqual({ user: 'read', repository: 'write' });
  });

  it('accepts one comma-separated string and ignores empty items and spaces', () => {
    const s = parseScopes(['read:user, write:issue,,', '']);
    expect(Object.fromEntries(s.granted)).toEqual({ user: 'read', issue: 'write' });
  });

  it('all grants write on every category', () => {
    const s = parseScopes(['all']);
    expect(s.granted.size).toBe(ALL_CATEGORIES.length);
    for (const c of ALL_CATEGORIES) expect(s.granted.get(c)).toBe('write');
  });

  it('public-only is a modifier that grants nothing by itself', () => {
    const s = parseScopes(['public-only']);
    expect(s.publicOnly).toBe(true);
    expect(s.granted.size).toBe(0);
  });

  it('write wins over read, in either order', () => {
    expect(parseScopes(['read:user', 'write:user']).granted.get('user')).toBe('write');
    expect(parseScopes(['write:user', 'read:user']).granted.get('user')).toBe('write');
  });

  it.each(['read:nothing', 'delete:user', 'READ:user', 'user', 'read:', 'read:User', 'sudo'])('refuses %j', (item) => {
    expect(() => parseScopes(['read:user', item])).toThrow(ScopeError);
    expect(() => parseScopes([item])).toThrow(`invalid access token scope: ${item}`);
  });

  it('an empty list parses to nothing', () => {
    const s = parseScopes([]);
    expect(s.granted.size).toBe(0);
    expect(hasAnyScope(s)).toBe(false);
    expect(hasAnyScope(parseScopes(['public-only']))).toBe(true);
    expect(hasAnyScope(parseScopes(['read:misc']))).toBe(true);
  });
});

describe('formatScopes (normalisation)', () => {
  it('orders categories like Gitea and drops implied reads', () => {
    expect(normalise(['write:user', 'read:user', 'read:repository', 'read:activitypub', 'write:admin'])).toEqual([
      'read:activitypub',
      'write:admin',
      'read:repository',
      'write:user',
    ]);
  });

  it('Gitea\'s category order: activitypub, admin, misc, notification, organization, package, issue, repository, user', () => {
    const reversed = [...ALL_CATEGORIES].reverse().map((c) => `read:${c}`);
    expect(normalise(reversed)).toEqual(
      ['activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user'].map((c) => `read:${c}`),
    );
  });

  it('de-duplicates', () => {
    expect(normalise(['read:user', 'read:user', 'read:user,read:user'])).toEqual(['read:user']);
  });

  it('every write scope becomes all', () => {
    expect(normalise(ALL_CATEGORIES.map((c) => `write:${c}`))).toEqual(['all']);
    expect(normalise(['all', 'read:user'])).toEqual(['all']);
  });

  it('every read scope stays a list', () => {
    expect(normalise(ALL_CATEGORIES.map((c) => `read:${c}`))).toHaveLength(ALL_CATEGORIES.length);
  });

  it('public-only comes first', () => {
    expect(normalise(['read:user', 'public-only'])).toEqual(['public-only', 'read:user']);
    expect(normalise(['all', 'public-only'])).toEqual(['public-only', 'all']);
  });

  it('is idempotent', () => {
    const once = normalise(['write:issue', 'read:user', 'public-only', 'read:issue']);
    expect(normalise(once)).toEqual(once);
  });
});

describe('missingScopes', () => {
  it('read needs read or write', () => {
    expect(missingScopes(parseScopes(['read:user']), ['user'], 'read')).toEqual([]);
    expect(missingScopes(parseScopes(['write:user']), ['user'], 'read')).toEqual([]);
    expect(missingScopes(parseScopes(['read:repository']), ['user'], 'read')).toEqual(['read:user']);
  });

  it('write needs write: read does not imply it', () => {
    expect(missingScopes(parseScopes(['write:user']), ['user'], 'write')).toEqual([]);
    expect(missingScopes(parseScopes(['read:user']), ['user'], 'write')).toEqual(['write:user']);
  });

  it('every listed category is required', () => {
    expect(missingScopes(parseScopes(['read:user']), ['user', 'organization'], 'read')).toEqual(['read:organization']);
    expect(missingScopes(parseScopes(['read:issue']), ['user', 'organization'], 'write')).toEqual(['write:user', 'write:organization']);
    expect(missingScopes(parseScopes(['read:user', 'read:organization']), ['user', 'organization'], 'read')).toEqual([]);
  });

  it('all satisfies everything; public-only alone nothing', () => {
    for (const c of ALL_CATEGORIES) {
      expect(missingScopes(parseScopes(['all']), [c], 'write')).toEqual([]);
      expect(missingScopes(parseScopes(['public-only']), [c], 'read')).toEqual([`read:${c}`]);
    }
  });

  it('no categories: nothing is missing', () => {
    expect(missingScopes(parseScopes([]), [], 'write')).toEqual([]);
  });
});

describe('levelForMethod', () => {
  it.each([
    ['GET', 'read'],
    ['HEAD', 'read'],
    ['OPTIONS', 'read'],
    ['POST', 'write'],
    ['PUT', 'write'],
    ['PATCH', 'write'],
    ['DELETE', 'write'],
  ])('%s is %s', (method, level) => expect(levelForMethod(method)).toBe(level));
});
