import { describe, it, expect } from '@jest/globals';
import { operations, type OperationEntry } from '../../generated/operations.js';
import { buildRouter } from '../../src/http/router.js';

/** Synthetic entries for routes with slash-carrying parameters (the repository operations come later). */
const synthetic = (over: Partial<OperationEntry> & Pick<OperationEntry, 'path' | 'routePath'>): OperationEntry => ({
  operationId: 'getVersion',
  method: 'GET',
  wildcardParam: null,
  tag: 'repository',
  scopes: ['repository'],
  public: true,
  basicAuthOnly: false,
  queryNames: [],
  hasBody: false,
  successStatuses: [200],
  ...over,
});

describe('router', () => {
  // The real operation where one exists on the same method and route, else a synthetic stand-in.
  const pick = (e: OperationEntry): OperationEntry => operations.find((o) => o.method === e.method && o.routePath === e.routePath) ?? e;
  const raw = pick(synthetic({ path: '/repos/{owner}/{repo}/raw/{filepath}', routePath: '/repos/:owner/:repo/raw/*', wildcardParam: 'filepath' }));
  const branch = pick(
    synthetic({ method: 'DELETE', path: '/repos/{owner}/{repo}/branches/{branch}', routePath: '/repos/:owner/:repo/branches/*', wildcardParam: 'branch' }),
  );
  const repo = pick(synthetic({ path: '/repos/{owner}/{repo}', routePath: '/repos/:owner/:repo' }));
  const router = buildRouter([...operations, ...[raw, branch, repo].filter((e) => !operations.includes(e))]);

  it('a wildcard parameter carries slashes', () => {
    const m = router.find('GET', '/repos/alice/proj/raw/a/b/c.txt');
    expect(m?.entry).toBe(raw);
    expect(m?.params).toEqual({ owner: 'alice', repo: 'proj', filepath: 'a/b/c.txt' });
  });

  it('branch names like feature/x route', () => {
    const m = router.find('DELETE', '/repos/alice/proj/branches/feature/x');
    expect(m?.entry).toBe(branch);
    expect(m?.params).toEqual({ owner: 'alice', repo: 'proj', branch: 'feature/x' });
  });

  it('a wildcard may be a single segment, and does not swallow its siblings', () => {
    expect(router.find('GET', '/repos/alice/proj/raw/README.md')?.params).toEqual({ owner: 'alice', repo: 'proj', filepath: 'README.md' });
    const m = router.find('GET', '/repos/alice/proj');
    expect(m?.entry).toBe(repo);
    expect(m?.params).toEqual({ owner: 'alice', repo: 'proj' });
  });

  it('ignores trailing slashes', () => {
    expect(router.find('GET', '/version/')?.entry.operationId).toBe('getVersion');
    expect(router.find('GET', '/users/root/')?.entry.operationId).toBe('userGet');
    expect(router.find('GET', '/users/root/')?.params).toEqual({ username: 'root' });
    expect(router.find('GET', '/user/')?.entry.operationId).toBe('userGetCurrent');
  });

  it('every operation of the table is found at its own path and method', () => {
    for (const o of operations) {
      const path = o.path.replace(/\{[^}]+\}/g, 'x1');
      expect(router.find(o.method, path)?.entry.operationId).toBe(o.operationId);
    }
  });

  it('static segments win over parameters (/users/search is not userGet)', () => {
    expect(router.find('GET', '/users/search')?.entry.operationId).toBe('userSearch');
    expect(router.find('GET', '/users/searcher')?.entry.operationId).toBe('userGet');
  });

  it('HEAD is routed like GET', () => {
    expect(router.find('HEAD', '/version')?.entry.operationId).toBe('getVersion');
  });

  it('unknown paths and methods find nothing', () => {
    expect(router.find('GET', '/nope')).toBeNull();
    expect(router.find('DELETE', '/version')).toBeNull();
    expect(router.find('GET', '/users')).toBeNull();
  });
});
