import { describe, it, expect } from '@jest/globals';
import { AppError } from '../../src/domain/errors.js';
import { MAX_EMAIL_LENGTH, MAX_USERNAME_LENGTH, assertUsableName, emailProblem, isValidUsernameShape, isValidWebsite } from '../../src/domain/names.js';

/** The AppError assertUsableName throws, or null. */
function nameError(name: string): { kind: string; message: string } | null {
  try {
    assertUsableName(name);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return { kind: (e as AppError).kind, message: (e as AppError).message };
  }
}

describe('user names (BEHAVIOUR.md §4.2)', () => {
  it.each(['a', 'alice', 'Alice', '1abc', 'a1', 'a.b', 'a-b', 'a_b', 'a.b-c_d', 'x'.repeat(MAX_USERNAME_LENGTH), 'A-1.B_2'])(
    'accepts %s',
    (name) => {
      expect(isValidUsernameShape(name)).toBe(true);
      expect(nameError(name)).toBeNull();
    },
  );

  it.each([
    ['empty', ''],
    ['leading dash', '-a'],
    ['leading dot', '.a'],
    ['leading underscore', '_a'],
    ['trailing dash', 'a-'],
    ['trailing dot', 'a.'],
    ['trailing underscore', 'a_'],
    ['double dash', 'a--b'],
    ['dot underscore', 'a._b'],
    ['double dot', 'a..b'],
    ['dash dot', 'a-.b'],
    ['space', 'a b'],
    ['slash', 'a/b'],
    ['non-ASCII', 'zoë'],
    ['at sign', 'a@b'],
    ['too long', 'x'.repeat(MAX_USERNAME_LENGTH + 1)],
  ])('refuses %s', (_why, name) => {
    expect(isValidUsernameShape(name)).toBe(false);
    expect(nameError(name)).toEqual({
      kind: 'validation',
      message: `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`,
    });
  });

  it.each(['admin', 'Admin', 'API', 'assets', 'explore', 'ghost', 'login', 'org', 'repo', 'user', 'v2', 'swagger.v1.json', 'robots.txt', 'gitea-actions', 'repo-avatars'])(
    'refuses the reserved name %s (case-insensitively)',
    (name) => {
      expect(nameError(name)).toEqual({ kind: 'validation', message: `name is reserved [name: ${name}]` });
    },
  );

  it.each([
    ['foo.keys', '*.keys'],
    ['foo.gpg', '*.gpg'],
    ['foo.rss', '*.rss'],
    ['foo.atom', '*.atom'],
    ['foo.png', '*.png'],
    ['Foo.PNG', '*.png'],
  ])('refuses the reserved pattern of %s', (name, pattern) => {
    expect(nameError(name)).toEqual({ kind: 'validation', message: `name pattern is not allowed [pattern: ${pattern}]` });
  });

  it('names that merely contain a reserved word are fine', () => {
    for (const name of ['administrator', 'admins', 'my-api', 'user1', 'keys', 'png', 'foo.keysx']) expect(nameError(name)).toBeNull();
  });
});

describe('e-mail addresses (BEHAVIOUR.md §4.3)', () => {
  it.each(['a@b.c', 'first.last+tag@example.co.uk', 'user@localhost', "o'hara@example.com", 'x_y-z@sub-domain.example.org'])('accepts %s', (email) => {
    expect(emailProblem(email)).toBeNull();
  });

  it.each([
    ['', 'e-mail invalid [email: ]'],
    ['-a@b.c', 'e-mail invalid [email: -a@b.c]'],
    ['@b.c', 'e-mail invalid [email: @b.c]'],
    ['a b@c.d', 'e-mail address contains unsupported character [email: a b@c.d]'],
    ['a@', 'e-mail address contains unsupported character [email: a@]'],
    ['a@-b.c', 'e-mail address contains unsupported character [email: a@-b.c]'],
    ['a@@b.c', 'e-mail address contains unsupported character [email: a@@b.c]'],
    ['a@b..c', 'e-mail address contains unsupported character [email: a@b..c]'],
    ['zoë@b.c', 'e-mail address contains unsupported character [email: zoë@b.c]'],
    ['no-at-sign', 'e-mail address contains unsupported character [email: no-at-sign]'],
  ])('refuses %j', (email, message) => {
    expect(emailProblem(email)).toBe(message);
  });

  it(`refuses addresses longer than ${MAX_EMAIL_LENGTH} characters`, () => {
    const ok = `${'x'.repeat(MAX_EMAIL_LENGTH - '@example.com'.length)}@example.com`;
    expect(ok).toHaveLength(MAX_EMAIL_LENGTH);
    expect(emailProblem(ok)).toBeNull();
    const long = `x${ok}`;
    expect(emailProblem(long)).toBe(`e-mail invalid [email: ${long}]`);
  });
});

describe('websites', () => {
  it.each(['', 'http://example.com', 'https://example.com/path?q=1'])('accepts %j', (url) => expect(isValidWebsite(url)).toBe(true));
  it.each(['example.com', 'ftp://example.com', 'javascript:alert(1)', 'http//x'])('refuses %j', (url) => expect(isValidWebsite(url)).toBe(false));
});
