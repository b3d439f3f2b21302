import { createHmac, pbkdf2, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (pw: string, salt: string, len: number, opts: object) => Promise<Buffer>;

/** Gitea's default algorithm string, so hashes move between Gitea and Anvil in both directions. */
export const DEFAULT_ALGO = 'pbkdf2$50000$50';

export interface PasswordHash {
  readonly passwd: string;
  readonly salt: string;
  readonly algo: string;
}

async function derive(password: string, salt: string, algo: string): Promise<Buffer | null> {
  const [name, ...p] = algo.split('$');
  const num = (i: number, d: number) => (p[i] !== undefined && /^\d+$/.test(p[i]!) ? Number(p[i]) : d);
  switch (name) {
    case 'pbkdf2': // pbkdf2$iterations$keylen, sha256 (Gitea); bare "pbkdf2" is the legacy 10000/50
      return pbkdf2Async(password, salt, num(0, 10000), num(1, 50), 'sha256');
    case 'scrypt': // scrypt$N$r$p$keylen
      return scryptAsync(password, salt, num(3, 50), { N: num(0, 65536), r: num(1, 16), p: num(2, 2), maxmem: 256 * 1024 * 1024 });
    default:
      return null;
  }
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16).toString('hex');
  const key = (await derive(password, salt, DEFAULT_ALGO))!;
  return { passwd: key.toString('hex'), salt, algo: DEFAULT_ALGO };
}

/** Constant-time check of `password` against a stored hash; unknown algorithms never verify. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const key = await derive(password, stored.salt, stored.algo || DEFAULT_ALGO);
  if (!key || stored.passwd === '') return false;
  const expected = Buffer.from(stored.passwd, 'hex');
  return expected.length === key.length && timingSafeEqual(expected, key);
}

/** A hash of nothing, verified against when the user is unknown so both answers cost the same time. */
export const DUMMY_HASH: PasswordHash = { passwd: '00'.repeat(50), salt: '0'.repeat(32), algo: DEFAULT_ALGO };

/**
 * Remembers recent successful password verifications, so a client sending basic auth on every request
 * pays the KDF once per minute instead of every time. Entries are keyed by an HMAC (random per-process
 * key) over user id, stored hash and password: a password change invalidates them, and the map holds
 * nothing an attacker could test guesses against offline.
 */
export class VerifiedPasswordCache {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, number>();
  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  private digest(userId: number, stored: PasswordHash, password: string): string {
    return createHmac('sha256', this.key).update(`${userId}\0${stored.algo}\0${stored.passwd}\0${password}`).digest('base64');
  }

  has(userId: number, stored: PasswordHash, password: string, now: number): boolean {
    const d = this.digest(userId, stored, password);
    const exp = this.entries.get(d);
    if (exp === undefined) return false;
    if (exp < now) {
      this.entries.delete(d);
      return false;
    }
    return true;
  }

  add(userId: number, stored: PasswordHash, password: string, now: number): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(this.digest(userId, stored, password), now + this.ttlMs);
  }
}

/** Counts failed password logins per client address; after `max` in the window, answers are 429. */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait before trying again, or 0 when the address may try now. */
  retryAfter(address: string, now: number): number {
    const list = this.recent(address, now);
    if (list.length < this.max) return 0;
    return Math.max(1, Math.ceil((list[0]! + this.windowMs - now) / 1000));
  }

  fail(address: string, now: number): void {
    const list = this.recent(address, now);
    list.push(now);
    this.failures.set(address, list);
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value!);
  }

  private recent(address: string, now: number): number[] {
    const list = (this.failures.get(address) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length === 0) this.failures.delete(address);
    return list;
  }
}
