import FindMyWay from 'find-my-way';
import type { OperationEntry } from '../../generated/operations.js';

export interface RouteMatch {
  readonly entry: OperationEntry;
  readonly params: Record<string, string>;
}

export interface Router {
  find(method: string, path: string): RouteMatch | null;
  /** Methods registered for a path (for 405 answers). */
  readonly size: number;
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/**
 * A radix tree (find-my-way) built once from the operations table: lookups cost well under a microsecond
 * whatever the number of operations, and a trailing wildcard carries parameters with slashes
 * (file paths, branch names such as feature/x).
 */
export function buildRouter(entries: readonly OperationEntry[]): Router {
  const fmw = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: true, maxParamLength: 1000 });
  const noop = () => {};
  for (const entry of entries) {
    fmw.on(entry.method as HttpMethod, entry.routePath, noop, entry);
    // HEAD behaves like GET (Gitea's router does the same).
    if (entry.method === 'GET' && !entries.some((e) => e.method === 'HEAD' && e.path === entry.path)) {
      fmw.on('HEAD', entry.routePath, noop, entry);
    }
  }
  return {
    size: entries.length,
    find(method, path) {
      const m = fmw.find(method as HttpMethod, path);
      if (!m) return null;
      const entry = m.store as OperationEntry;
      const params = m.params as Record<string, string>;
      if (entry.wildcardParam) {
        params[entry.wildcardParam] = params['*'] ?? '';
        delete params['*'];
      }
      return { entry, params };
    },
  };
}
