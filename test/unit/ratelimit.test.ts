import { describe, it, expect } from '@jest/globals';
import { RateLimiter } from '../../src/domain/ratelimit.js';
import { budgetKindOf } from '../../src/http/ratelimit.js';

describe('RateLimiter', () => {
  it('allows a minute of requests at once, then one per 60/N seconds', () => {
    const l = new RateLimiter();
    for (let i = 0; i < 3; i++) expect(l.take('read', 'a', 3, 0)).toBe(0);
    expect(l.take('read', 'a', 3, 0)).toBe(20);
    expect(l.take('read', 'a', 3, 10_000)).toBe(10);
    expect(l.take('read', 'a', 3, 20_000)).toBe(0);
    expect(l.take('read', 'a', 3, 20_001)).toBe(20);
    // Other callers and other budgets are separate; 0 is unlimited.
    expect(l.take('read', 'b', 3, 0)).toBe(0);
    expect(l.take('write', 'a', 3, 0)).toBe(0);
    for (let i = 0; i < 100; i++) expect(l.take('read', 'c', 0, 0)).toBe(0);
  });

  it('refills no further than a minute of requests', () => {
    const l = new RateLimiter();
    expect(l.take('read', 'a', 2, 0)).toBe(0);
    for (let i = 0; i < 2; i++) expect(l.take('read', 'a', 2, 3_600_000)).toBe(0);
    expect(l.take('read', 'a', 2, 3_600_000)).toBe(30);
  });
});

describe('budgetKindOf', () => {
  it('classes expensive operations first, then by method', () => {
    expect(budgetKindOf('repoGetArchive', 'GET')).toBe('expensive');
    expect(budgetKindOf('repoMigrate', 'POST')).toBe('expensive');
    expect(budgetKindOf('repoGet', 'GET')).toBe('read');
    expect(budgetKindOf('repoGet', 'HEAD')).toBe('read');
    expect(budgetKindOf('repoEdit', 'PATCH')).toBe('write');
  });
});
