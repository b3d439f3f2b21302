/**
 * Gitea's Link header: next, last, first, prev (only those that apply), each the request URL under ROOT_URL
 * with `page` replaced, joined by ','. Omitted when everything fits on one page. The query is re-encoded with
 * its keys sorted, as Go's url.Values.Encode does in Gitea.
 */
export function linkHeader(rootUrl: string, requestUrl: string, page: number, limit: number, total: number): string | undefined {
  const last = Math.max(1, Math.ceil(total / limit));
  const current = Math.min(Math.max(page, 1), last);
  const base = new URL(requestUrl.replace(/^\//, ''), rootUrl);
  const at = (p: number) => {
    const u = new URL(base);
    u.searchParams.set('page', String(p));
    u.searchParams.sort();
    return u.toString();
  };
  const links: string[] = [];
  if (current < last) links.push(`<${at(current + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`);
  if (current > 1) links.push(`<${at(1)}>; rel="first"`, `<${at(current - 1)}>; rel="prev"`);
  return links.length ? links.join(',') : undefined;
}
