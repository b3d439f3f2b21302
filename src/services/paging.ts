export interface Paging {
  readonly page: number;
  readonly limit: number;
  readonly offset: number;
}

/** Gitea's paging: page <= 0 is 1; limit <= 0 is the default; limit above the maximum is clamped. */
export function resolvePaging(page: number | undefined, limit: number | undefined, defaults: { defaultPagingNum: number; maxResponseItems: number }): Paging {
  const p = page !== undefined && page > 0 ? Math.floor(page) : 1;
  let l = limit !== undefined && limit > 0 ? Math.floor(limit) : defaults.defaultPagingNum;
  if (l > defaults.maxResponseItems) l = defaults.maxResponseItems;
  return { page: p, limit: l, offset: (p - 1) * l };
}
