/**
 * Token buckets per (budget, caller): each holds up to a minute's allowance and refills continuously, so a caller
 * may burst up to the per-minute figure and then goes at the sustained rate. In memory, per process: several
 * instances each keep their own (the effective allowance is multiplied by the number of instances).
 */

/** Requests per minute; 0 means unlimited. */
export interface Budgets {
  readonly read: number;
  readonly write: number;
  readonly expensive: number;
}

export type BudgetKind = keyof Budgets;

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept at most; the least recently used go first (a full bucket carries no state worth keeping). */
const MAX_BUCKETS = 100_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /**
   * Takes one request from `caller`'s `kind` bucket. Returns 0 when allowed, else the whole seconds until one
   * request would be.
   */
  take(kind: BudgetKind, caller: string, perMinute: number, now: number): number {
    if (perMinute <= 0) return 0;
    const key = `${kind}\0${caller}`;
    const perMs = perMinute / 60_000;
    const b = this.buckets.get(key);
    let tokens = perMinute;
    if (b) {
      tokens = Math.min(perMinute, b.tokens + (now - b.at) * perMs);
      this.buckets.delete(key);
    } else if (this.buckets.size >= MAX_BUCKETS) {
      this.buckets.delete(this.buckets.keys().next().value!);
    }
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return 0;
  }
}
