/**
 * Gitea's post-processing of text nodes in comment and document modes: @mentions, issue references
 * (`#12`, `owner/repo#12`) and commit shas become links. The patterns follow Gitea 1.22's
 * (modules/references and modules/markup/html.go): a reference must stand alone, preceded by a
 * space, an opening bracket or the start of the text node and followed by a space, punctuation, a
 * closing bracket or the end.
 */

/** What the renderer knows about the surroundings; undefined members disable the matching links. */
export interface RefContext {
  /** The site's URL, ending with '/'. Mentions and cross references link under it. */
  readonly appUrl: string;
  /** Comment mode links bare `#N`; document mode (gfm, files) only `owner/repo#N`. */
  readonly comment: boolean;
  /** The repository named by Context, when it exists and the caller may see it. */
  readonly repoLink?: string | undefined;
  /** Lower-cased names of existing accounts among the mention candidates. */
  readonly mentionable?: ReadonlySet<string> | undefined;
  /** Commit shas (lower case, as written) that exist in the Context repository. */
  readonly commits?: ReadonlySet<string> | undefined;
}

// Each alternative is anchored by the caller-visible boundary rules; the token groups are short and
// bounded so no pattern can backtrack badly (no nested quantifiers).
const MENTION = /(?<=^|[\s([])@([0-9A-Za-z_-]+(?:[0-9A-Za-z_.-]*[0-9A-Za-z_-])?)(?=['\s)\]]|[:,;.?!](?:\s|$)|$)/g;
const CROSS_REF = /(?<=^|[\s([])([0-9A-Za-z_.-]{1,100})\/([0-9A-Za-z_.-]{1,100})#([0-9]{1,18})(?=[\s)\]]|[:;,.?!](?:\s|$)|$)/g;
const ISSUE_REF = /(?<=^|[\s(['"])#([0-9]{1,18})(?=[\s)\]'"]|[:;,.?!](?:\s|$)|$)/g;
const SHA = /(?<=^|[\s([])([0-9a-f]{7,64})(?=[\s)\]]|[.,:](?:\s|$)|$)/g;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
/**
 * Escapes markdown text as marked does: an `&` that starts a character reference stays, so `&copy;`
 * written in the source still renders as the entity.
 */
export const escapeText = (s: string): string =>
  s.replace(/[<>"']|&(?!(?:#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w{1,32});)/g, (c) => HTML_ESCAPES[c]!);

/** Candidate account names and shas in a text, for one batched lookup before rendering. */
export function scanCandidates(text: string, limit = 100): { mentions: string[]; shas: string[] } {
  const mentions = new Set<string>();
  const shas = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    if (mentions.size >= limit) break;
    mentions.add(m[1]!.toLowerCase());
  }
  for (const m of text.matchAll(SHA)) {
    if (shas.size >= limit) break;
    shas.add(m[1]!);
  }
  return { mentions: [...mentions], shas: [...shas] };
}

interface Hit {
  readonly start: number;
  readonly end: number;
  readonly html: string;
}

/** Escapes a text node, turning the references it contains into links. */
export function linkReferences(text: string, ctx: RefContext): string {
  const hits: Hit[] = [];
  const mentionable = ctx.mentionable;
  if (mentionable && mentionable.size > 0 && text.includes('@')) {
    for (const m of text.matchAll(MENTION)) {
      const name = m[1]!;
      if (!mentionable.has(name.toLowerCase())) continue;
      hits.push({ start: m.index, end: m.index + m[0].length, html: `<a href="${escapeHtml(ctx.appUrl + encodeURIComponent(name))}" class="mention" rel="nofollow">@${escapeHtml(name)}</a>` });
    }
  }
  if (text.includes('#')) {
    for (const m of text.matchAll(CROSS_REF)) {
      const [whole, owner, repo, index] = m as unknown as [string, string, string, string];
      const href = `${ctx.appUrl}${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues/${index}`;
      hits.push({ start: m.index, end: m.index + whole.length, html: `<a href="${escapeHtml(href)}" class="ref-issue" rel="nofollow">${escapeHtml(whole)}</a>` });
    }
    if (ctx.comment && ctx.repoLink) {
      for (const m of text.matchAll(ISSUE_REF)) {
        hits.push({ start: m.index, end: m.index + m[0].length, html: `<a href="${escapeHtml(`${ctx.repoLink}/issues/${m[1]!}`)}" class="ref-issue" rel="nofollow">${escapeHtml(m[0])}</a>` });
      }
    }
  }
  if (ctx.repoLink && ctx.commits && ctx.commits.size > 0) {
    for (const m of text.matchAll(SHA)) {
      const sha = m[1]!;
      if (!ctx.commits.has(sha)) continue;
      // Gitea shows the first ten characters in a code element.
      hits.push({
        start: m.index,
        end: m.index + sha.length,
        html: `<a href="${escapeHtml(`${ctx.repoLink}/commit/${sha}`)}" class="commit" rel="nofollow"><code class="nohighlight">${sha.slice(0, 10)}</code></a>`,
      });
    }
  }
  if (hits.length === 0) return escapeText(text);
  hits.sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const h of hits) {
    if (h.start < pos) continue; // overlapping matches: the first one wins
    out += escapeText(text.slice(pos, h.start)) + h.html;
    pos = h.end;
  }
  return out + escapeText(text.slice(pos));
}
