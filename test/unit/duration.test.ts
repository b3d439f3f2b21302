// Go duration text as Gitea's mirror_interval uses it.
import { it, expect, describe } from '@jest/globals';
import { DurationError, formatGoDuration, parseGoDuration, parseMirrorInterval } from '../../src/domain/duration.js';

describe('Go durations', () => {
  it('parses what time.ParseDuration accepts', () => {
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('10m')).toBe(600_000);
    expect(parseGoDuration('8h0m0s')).toBe(8 * 3_600_000);
    expect(parseGoDuration('1h30m')).toBe(5_400_000);
    expect(parseGoDuration('1.5h')).toBe(5_400_000);
    expect(parseGoDuration('300ms')).toBe(300);
    expect(parseGoDuration('-2s')).toBe(-2000);
    expect(parseGoDuration('1µs')).toBeCloseTo(0.001);
  });

  it('refuses what it refuses, with its messages', () => {
    expect(() => parseGoDuration('')).toThrow(new DurationError('time: invalid duration ""'));
    expect(() => parseGoDuration('abc')).toThrow(new DurationError('time: invalid duration "abc"'));
    expect(() => parseGoDuration('10')).toThrow(new DurationError('time: missing unit in duration "10"'));
    expect(() => parseGoDuration('10x')).toThrow(new DurationError('time: unknown unit "x" in duration "10x"'));
    expect(() => parseGoDuration('1h 2m')).toThrow(DurationError);
  });

  it('formats like Duration.String', () => {
    expect(formatGoDuration(0)).toBe('0s');
    expect(formatGoDuration(600_000)).toBe('10m0s');
    expect(formatGoDuration(8 * 3_600_000)).toBe('8h0m0s');
    expect(formatGoDuration(1500)).toBe('1.5s');
    expect(formatGoDuration(250)).toBe('250ms');
    expect(formatGoDuration(3_661_000)).toBe('1h1m1s');
  });

  it('applies the mirror minimum of 10m, with 0 meaning on request only', () => {
    expect(parseMirrorInterval('0')).toBe(0);
    expect(parseMirrorInterval('10m')).toBe(600);
    expect(() => parseMirrorInterval('5m')).toThrow('invalid mirror interval: 5m0s is below minimum interval: 10m0s');
    expect(() => parseMirrorInterval('-1h')).toThrow('invalid mirror interval: -1h0m0s is below minimum interval: 10m0s');
  });
});
