/**
 * Go's time.ParseDuration and Duration.String, because Gitea's `mirror_interval` is Go duration text both ways
 * ("10m", "1h30m" in; "8h0m0s" out) and its errors quote Go's messages.
 */

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration error, with Go's text (`time: invalid duration "x"`). */
export class DurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DurationError';
  }
}

/** Go's strconv.Quote, enough for error texts. */
const quote = (s: string) => JSON.stringify(s);

/** Parses Go duration text into milliseconds (fractions of a millisecond kept). Throws {@link DurationError}. */
export function parseGoDuration(text: string): number {
  const orig = text;
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new DurationError(`time: invalid duration ${quote(orig)}`);
  let total = 0;
  while (s !== '') {
    const num = /^(\d*)(\.(\d*))?/u.exec(s)!;
    const whole = num[1] ?? '';
    const frac = num[3] ?? '';
    if (whole === '' && frac === '') throw new DurationError(`time: invalid duration ${quote(orig)}`);
    s = s.slice(num[0].length);
    const unit = /^[^\d.]*/u.exec(s)![0];
    if (unit === '') throw new DurationError(`time: missing unit in duration ${quote(orig)}`);
    const factor = UNITS[unit];
    if (factor === undefined) throw new DurationError(`time: unknown unit ${quote(unit)} in duration ${quote(orig)}`);
    s = s.slice(unit.length);
    total += Number(`${whole || '0'}.${frac || '0'}`) * factor;
  }
  if (!Number.isFinite(total) || total > 9.2e12) throw new DurationError(`time: invalid duration ${quote(orig)}`);
  return sign * total;
}

/** Go's Duration.String for a millisecond count: "0s", "1.5s", "10m0s", "8h0m0s", "250ms". */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let v = Math.abs(ms);
  let out: string;
  if (v < 1000) {
    out = `${trim(v)}ms`;
  } else {
    const h = Math.floor(v / 3_600_000);
    v -= h * 3_600_000;
    const m = Math.floor(v / 60_000);
    v -= m * 60_000;
    const sec = `${trim(v / 1000)}s`;
    out = h > 0 ? `${h}h${m}m${sec}` : m > 0 ? `${m}m${sec}` : sec;
  }
  return neg ? `-${out}` : out;
}

function trim(n: number): string {
  return String(Math.round(n * 1e6) / 1e6);
}

/** Gitea's [mirror] DEFAULT_INTERVAL and MIN_INTERVAL. */
export const MIRROR_DEFAULT_INTERVAL_MS = 8 * 3_600_000;
export const MIRROR_MIN_INTERVAL_MS = 10 * 60_000;

/**
 * A mirror interval as Gitea validates it: Go duration text; 0 disables periodic syncs; anything else must be at
 * least the minimum (`invalid mirror interval: 5m0s is below minimum interval: 10m0s`). Returns whole seconds.
 */
export function parseMirrorInterval(text: string): number {
  const ms = parseGoDuration(text.trim());
  if (ms !== 0 && ms < MIRROR_MIN_INTERVAL_MS) {
    throw new DurationError(`invalid mirror interval: ${formatGoDuration(ms)} is below minimum interval: ${formatGoDuration(MIRROR_MIN_INTERVAL_MS)}`);
  }
  return Math.floor(ms / 1000);
}
