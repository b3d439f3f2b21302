import { describe, it, expect } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '../../generated/operations.js';
import { handlers } from '../../src/handlers/index.js';
import { ANVIL_VERSION, API_COMPAT_VERSION } from '../../src/version.js';

const root = join(__dirname, '../..');
const SCOPE_CATEGORIES = ['activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user'];
/** Tags whose operations Gitea leaves unscoped (BEHAVIOUR.md §1.7). */
const UNSCOPED_TAGS = ['settings', 'miscellaneous'];

describe('operations table and handlers', () => {
  const ids = operations.map((o) => o.operationId);

  it('operationIds are unique', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every operation in the description has a handler', () => {
    const missing = ids.filter((id) => typeof (handlers as Record<string, unknown>)[id] !== 'function');
    expect(missing).toEqual([]);
  });

  it('every handler belongs to an operation of the description', () => {
    const known = new Set<string>(ids);
    const extra = Object.keys(handlers).filter((name) => !known.has(name));
    expect(extra).toEqual([]);
  });

  it('every operation has a scope entry; only settings and miscellaneous may be unscoped', () => {
    const problems: string[] = [];
    for (const o of operations) {
      if (!Array.isArray(o.scopes)) problems.push(`${o.operationId}: no scopes array`);
      else if (o.scopes.length === 0 && !UNSCOPED_TAGS.includes(o.tag)) problems.push(`${o.operationId} (${o.tag}): empty scopes`);
      for (const c of o.scopes ?? []) if (!SCOPE_CATEGORIES.includes(c)) problems.push(`${o.operationId}: unknown category ${c}`);
    }
    expect(problems).toEqual([]);
  });

  it('admin operations need the admin scope, and unscoped operations are public', () => {
    for (const o of operations) {
      if (o.tag === 'admin') expect({ id: o.operationId, scopes: o.scopes }).toEqual({ id: o.operationId, scopes: ['admin'] });
      // Gitea's render endpoints carry no scope category but still need a signed-in caller (BEHAVIOUR 8.1).
      const signedInUnscoped = ['renderMarkdown', 'renderMarkdownRaw', 'renderMarkup'];
      if (o.scopes.length === 0 && !signedInUnscoped.includes(o.operationId)) {
        expect({ id: o.operationId, public: o.public }).toEqual({ id: o.operationId, public: true });
      }
    }
  });

  it('each entry is consistent: method, express path, wildcard, success statuses', () => {
    for (const o of operations) {
      expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).toContain(o.method);
      expect(o.path.startsWith('/')).toBe(true);
      const expected = o.path.replace(/\{([^}]+)\}/g, (_, n: string) => (n === o.wildcardParam ? '*' : `:${n}`));
      expect(o.routePath).toBe(expected);
      expect(o.successStatuses.length).toBeGreaterThan(0);
    }
  });
});

describe('generated/ is up to date with spec/', () => {
  it('node scripts/gen.mjs --check passes', () => {
    const r = spawnSync(process.execPath, ['scripts/gen.mjs', '--check'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toContain('generated/ is up to date');
  }, 60_000);
});

describe('version', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

  it('src/version.ts ANVIL_VERSION equals package.json version', () => {
    expect(ANVIL_VERSION).toBe(pkg.version);
  });

  it('the version reported to clients carries the Gitea API level and ours', () => {
    expect(API_COMPAT_VERSION).toBe(`1.22.0+anvil-${pkg.version}`);
  });
});
