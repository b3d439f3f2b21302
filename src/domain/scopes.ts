export type ScopeCategory =
  | 'activitypub'
  | 'admin'
  | 'issue'
  | 'misc'
  | 'notification'
  | 'organization'
  | 'package'
  | 'repository'
  | 'user';

export const SCOPE_CATEGORIES: readonly ScopeCategory[] = [
  'activitypub',
  'admin',
  'misc',
  'notification',
  'organization',
  'package',
  'issue',
  'repository',
  'user',
];

export type Level = 'read' | 'write';

/** A parsed, normalised token scope. */
export interface TokenScope {
  readonly publicOnly: boolean;
  /** Highest level granted per category. */
  readonly granted: ReadonlyMap<ScopeCategory, Level>;
}

export class ScopeError extends Error {}

/**
 * Parses Gitea's scope list (array items or one comma-separated string). Unknown items make the whole
 * scope invalid, as in Gitea.
 */
export function parseScopes(items: readonly string[]): TokenScope {
  const granted = new Map<ScopeCategory, Level>();
  let publicOnly = false;
  for (const raw of items.flatMap((s) => s.split(','))) {
    const item = raw.trim();
    if (item === '') continue;
    if (item === 'all') {
      for (const c of SCOPE_CATEGORIES) granted.set(c, 'write');
      continue;
    }
    if (item === 'public-only') {
      publicOnly = true;
      continue;
    }
    const m = /^(read|write):([a-z]+)$/.exec(item);
    const cat = m?.[2] as ScopeCategory | undefined;
    if (!m || !cat || !SCOPE_CATEGORIES.includes(cat)) throw new ScopeError(`invalid access token scope: ${item}`);
    const level = m[1] as Level;
    if (granted.get(cat) !== 'write') granted.set(cat, level);
  }
  return { publicOnly, granted };
}

/** Gitea's stored form: public-only first, categories in table order, write replaces read; all writes = "all". */
export function formatScopes(scope: TokenScope): string[] {
  const out: string[] = [];
  if (scope.publicOnly) out.push('public-only');
  if (SCOPE_CATEGORIES.every((c) => scope.granted.get(c) === 'write')) return [...out, 'all'];
  for (const c of SCOPE_CATEGORIES) {
    const level = scope.granted.get(c);
    if (level) out.push(`${level}:${c}`);
  }
  return out;
}

export const hasAnyScope = (scope: TokenScope): boolean => scope.granted.size > 0 || scope.publicOnly;

/** The scopes missing from `scope` to run an operation needing `categories` at `level`. */
export function missingScopes(scope: TokenScope, categories: readonly ScopeCategory[], level: Level): string[] {
  return categories
    .filter((c) => {
      const g = scope.granted.get(c);
      return !(g === 'write' || (g === 'read' && level === 'read'));
    })
    .map((c) => `${level}:${c}`);
}

export const levelForMethod = (method: string): Level =>
  method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
