/**
 * Ref-name rules of `git check-ref-format`, checked in process so a list or a request never
 * spawns git to validate a name, and so no option-like value ever reaches git.
 */

/** Characters git refuses anywhere in a ref name (besides ASCII control characters). */
const FORBIDDEN = new Set([' ', '~', '^', ':', '?', '*', '[', '\\']);

/**
 * True when `name` is a valid ref name for `git check-ref-format` (as a full ref such as
 * `refs/heads/x`, or as the short name of a branch or tag, which git checks as `refs/heads/<name>`):
 * no `..`, no ASCII control characters or any of space `~ ^ : ? * [ \`, no leading `/` or `-`,
 * no trailing `/` or `.`, no `//`, no component starting with `.` or ending with `.lock`, not `@`,
 * no `@{`.
 */
export function isValidRefName(name: string): boolean {
  if (name.length === 0 || name === '@') return false;
  if (name.startsWith('/') || name.startsWith('-')) return false;
  if (name.endsWith('/') || name.endsWith('.')) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
    if (FORBIDDEN.has(name[i]!)) return false;
  }
  for (const component of name.split('/')) {
    if (component.startsWith('.') || component.endsWith('.lock')) return false;
  }
  // Lone surrogates cannot be written as UTF-8 and would not round-trip through the ref store.
  return !/[\uD800-\uDFFF]/u.test(name);
}

/**
 * True when `name` may be a branch's short name: a valid ref name (see {@link isValidRefName})
 * that is not `HEAD` and does not start with `-`, like `git check-ref-format --branch`.
 */
export function isValidBranchName(name: string): boolean {
  return name !== 'HEAD' && !name.startsWith('-') && isValidRefName(name);
}

/** True when `name` may be a tag's short name (same rules as branches, `HEAD` allowed by git). */
export function isValidTagName(name: string): boolean {
  return !name.startsWith('-') && isValidRefName(name);
}

/** True when `s` looks like a full or abbreviated object id: 4 to 64 lowercase hex digits. */
export function isSha(s: string): boolean {
  return /^[0-9a-f]{4,64}$/.test(s);
}

/** True when `s` is a full object id (SHA-1: 40 hex digits, SHA-256: 64). */
export function isFullSha(s: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(s);
}

/** `refs/heads/<name>`, after checking the name; throws {@link InvalidRefNameError}. */
export function branchRef(name: string): string {
  if (!isValidBranchName(name)) throw new InvalidRefNameError(name);
  return `refs/heads/${name}`;
}

/** `refs/tags/<name>`, after checking the name; throws {@link InvalidRefNameError}. */
export function tagRef(name: string): string {
  if (!isValidTagName(name)) throw new InvalidRefNameError(name);
  return `refs/tags/${name}`;
}

/** A ref or branch name that `git check-ref-format` would refuse. */
export class InvalidRefNameError extends Error {
  readonly refName: string;
  constructor(refName: string) {
    super(`invalid ref name: ${JSON.stringify(refName)}`);
    this.name = 'InvalidRefNameError';
    this.refName = refName;
  }
}

/** True for a fully qualified ref (`refs/...`) with a valid name. */
export function isValidFullRef(ref: string): boolean {
  return ref.startsWith('refs/') && ref.length > 5 && isValidRefName(ref);
}
