import { describe, it, expect } from '@jest/globals';
import { linkHeader } from '../../src/http/paging.js';
import { resolvePaging } from '../../src/services/paging.js';

const defaults = { defaultPagingNum: 30, maxResponseItems: 50 };

describe('resolvePaging (BEHAVIOUR.md §3.1)', () => {
  it('defaults to page 1 of DEFAULT_PAGING_NUM', () => {
    expect(resolvePaging(undefined, undefined, defaults)).toEqual({ page: 1, limit: 30, offset: 0 });
  });

  it('page 0 or negative is page 1', () => {
    expect(resolvePaging(0, 10, defaults)).toEqual({ page: 1, limit: 10, offset: 0 });
    expect(resolvePaging(-4, 10, defaults)).toEqual({ page: 1, limit: 10, offset: 0 });
  });

  it('limit 0 or negative is the default', () => {
    expect(resolvePaging(2, 0, defaults)).toEqual({ page: 2, limit: 30, offset: 30 });
    expect(resolvePaging(2, -1, defaults)).toEqual({ page: 2, limit: 30, offset: 30 });
  });

  it('limit is clamped to MAX_RESPONSE_ITEMS', () => {
    expect(resolvePaging(1, 51, defaults)).toEqual({ page: 1, limit: 50, offset: 0 });
    expect(resolvePaging(3, 1000, defaults)).toEqual({ page: 3, limit: 50, offset: 100 });
    expect(resolvePaging(1, 50, defaults).limit).toBe(50);
  });

  it('offset = (page - 1) * limit', () => {
    expect(resolvePaging(3, 10, defaults)).toEqual({ page: 3, limit: 10, offset: 20 });
  });

  it('follows configured values', () => {
    const small = { defaultPagingNum: 10, maxResponseItems: 20 };
    expect(resolvePaging(undefined, undefined, small)).toEqual({ page: 1, limit: 10, offset: 0 });
    expect(resolvePaging(2, 25, small)).toEqual({ page: 2, limit: 20, offset: 20 });
  });

  it('a default above the maximum is clamped too', () => {
    expect(resolvePaging(undefined, undefined, { defaultPagingNum: 80, maxResponseItems: 50 }).limit).toBe(50);
  });
});

describe('linkHeader (BEHAVIOUR.md §3.2)', () => {
  const root = 'http://git.example.com:3000/';
  const url = (query: string) => `http://git.example.com:3000/api/v1/admin/users?${query}`;

  it('is omitted when everything fits on one page', () => {
    expect(linkHeader(root, '/api/v1/admin/users', 1, 30, 0)).toBeUndefined();
    expect(linkHeader(root, '/api/v1/admin/users', 1, 30, 30)).toBeUndefined();
  });

  it('first page: next and last', () => {
    expect(linkHeader(root, '/api/v1/admin/users?limit=30', 1, 30, 95)).toBe(`<${url('limit=30&page=2')}>; rel="next",<${url('limit=30&page=4')}>; rel="last"`);
  });

  it('middle page: next, last, first, prev — in that order, joined by "," without spaces', () => {
    expect(linkHeader(root, '/api/v1/admin/users?page=2&limit=30', 2, 30, 95)).toBe(
      [`<${url('limit=30&page=3')}>; rel="next"`, `<${url('limit=30&page=4')}>; rel="last"`, `<${url('limit=30&page=1')}>; rel="first"`, `<${url('limit=30&page=1')}>; rel="prev"`].join(','),
    );
  });

  it('last page: first and prev', () => {
    expect(linkHeader(root, '/api/v1/admin/users?page=4', 4, 30, 95)).toBe(`<${url('page=1')}>; rel="first",<${url('page=3')}>; rel="prev"`);
  });

  it('a page past the end counts as the last page', () => {
    expect(linkHeader(root, '/api/v1/admin/users?page=9', 9, 30, 95)).toBe(`<${url('page=1')}>; rel="first",<${url('page=3')}>; rel="prev"`);
  });

  it('keeps every other query parameter, keys sorted as Go\'s url.Values.Encode does', () => {
    const h = linkHeader(root, '/api/v1/users/search?q=ali&limit=1&token=abc', 1, 1, 2)!;
    expect(h).toBe(
      '<http://git.example.com:3000/api/v1/users/search?limit=1&page=2&q=ali&token=abc>; rel="next",<http://git.example.com:3000/api/v1/users/search?limit=1&page=2&q=ali&token=abc>; rel="last"',
    );
  });

  it('builds URLs under ROOT_URL, including a sub-path', () => {
    const h = linkHeader('https://example.com/git/', '/api/v1/admin/users', 1, 10, 11)!;
    expect(h.startsWith('<https://example.com/git/api/v1/admin/users?page=2>; rel="next"')).toBe(true);
  });
});
