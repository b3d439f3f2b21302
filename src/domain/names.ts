import { AppError } from './errors.js';

/*
 * Gitea's name rules (models/user, modules/validation): start with an alphanumeric, then [-._A-Za-z0-9],
 * no two punctuation characters in a row, no trailing punctuation; some names and suffixes are reserved.
 */
const USERNAME_CHARS = /^[\da-zA-Z][-.\w]*$/;
const CONSECUTIVE_PUNCT = /[-._]{2,}/;
const TRAILING_PUNCT = /[-._]$/;

const RESERVED_NAMES = new Set([
  '.', '..', '.well-known', 'admin', 'api', 'assets', 'attachments', 'avatar', 'avatars', 'captcha', 'commits',
  'debug', 'error', 'explore', 'favicon.ico', 'ghost', 'issues', 'login', 'manifest.json', 'metrics', 'milestones',
  'new', 'notifications', 'org', 'pulls', 'raw', 'repo', 'repo-avatars', 'robots.txt', 'search', 'serviceworker.js',
  'ssh_info', 'swagger.v1.json', 'user', 'v2', 'gitea-actions',
]);
const RESERVED_SUFFIXES = ['.keys', '.gpg', '.rss', '.atom', '.png'];

export const MAX_USERNAME_LENGTH = 40;

/** True when `name` has the shape of a user name (the binding rule), without the reserved checks. */
export function isValidUsernameShape(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= MAX_USERNAME_LENGTH &&
    USERNAME_CHARS.test(name) &&
    !CONSECUTIVE_PUNCT.test(name) &&
    !TRAILING_PUNCT.test(name)
  );
}

/** Throws a 422 AppError with Gitea's wording when `name` cannot be a user or organization name. */
export function assertUsableName(name: string): void {
  if (!isValidUsernameShape(name)) {
    throw new AppError('validation', `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`);
  }
  const lower = name.trim().toLowerCase();
  if (RESERVED_NAMES.has(lower)) throw new AppError('validation', `name is reserved [name: ${name}]`);
  for (const suffix of RESERVED_SUFFIXES) {
    if (lower.endsWith(suffix)) throw new AppError('validation', `name pattern is not allowed [pattern: *${suffix}]`);
  }
}

const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
export const MAX_EMAIL_LENGTH = 254;

/** Gitea's ValidateEmail without the domain allow/block lists. Returns the error text or null. */
export function emailProblem(email: string): string | null {
  if (email === '' || email.length > MAX_EMAIL_LENGTH) return `e-mail invalid [email: ${email}]`;
  if (!EMAIL_PATTERN.test(email)) return `e-mail address contains unsupported character [email: ${email}]`;
  if (email.startsWith('-')) return `e-mail invalid [email: ${email}]`;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return `e-mail invalid [email: ${email}]`;
  return null;
}

/** Website fields must be http(s) URLs when set (Gitea's ValidUrl binding). */
export function isValidWebsite(url: string): boolean {
  if (url === '') return true;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
