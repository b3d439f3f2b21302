import { randomBytes } from 'node:crypto';
import { createMarkdownRenderer, type MarkdownOptions, type MarkdownRenderer } from './markdown.js';
import { escapeHtml, type RefContext } from './refs.js';
import { sanitize } from './sanitize.js';

export { scanCandidates } from './refs.js';
export { sanitize } from './sanitize.js';

/**
 * How a text is rendered, after the API's mode has been mapped (see services/markup.ts):
 * - `markdown`: plain GFM, no reference processing (Gitea's "markdown" mode and /markdown/raw);
 * - `comment`: references and mentions linked, single newlines become <br>;
 * - `document`: gfm mode and markdown files: mentions and cross-repository references only.
 */
export type RenderKind = 'markdown' | 'comment' | 'document';

export interface RenderRequest {
  readonly kind: RenderKind;
  /** Absolute URL, ending with '/', for relative links (Context joined onto the site URL). */
  readonly base: string;
  readonly appUrl: string;
  readonly wiki: boolean;
  /** `<appUrl>owner/repo` when Context names a repository the caller can see. */
  readonly repoLink?: string | undefined;
  readonly mentionable?: ReadonlySet<string> | undefined;
  readonly commits?: ReadonlySet<string> | undefined;
}

/** Markdown file extensions Gitea renders in file mode ([markdown] FILE_EXTENSIONS). */
export const MARKDOWN_EXTENSIONS: readonly string[] = ['.md', '.markdown', '.mdown', '.mkd', '.livemd'];

/**
 * Renders a text containing raw HTML. Only the raw HTML is sanitized; our renderers' output (already safe)
 * stands in the sanitized skeleton as unguessable placeholders and is put back afterwards:
 *
 *   raw HTML + placeholders --sanitize-html--> skeleton --placeholders replaced--> output
 *
 * Stray end tags in the raw HTML cannot close our elements (the sanitizer never sees them) and open ones
 * are closed at the end. A placeholder may only be put back where the sanitized skeleton has text (not
 * inside a tag, e.g. after an unterminated attribute in an HTML block); otherwise the whole output goes
 * through the sanitizer, the plain and slower way.
 */
const MAX_RAW_TAGS = 20_000;

function sanitizeRaw(md: MarkdownRenderer, text: string, opts: MarkdownOptions): string {
  const nonce = randomBytes(9).toString('base64url');
  const open = `\uE000${nonce}<`;
  const close = `>${nonce}\uE001`;
  const marked = md.render(text, { ...opts, rawMarks: { open, close } });
  const trusted: string[] = [];
  const raw: string[] = [];
  let skeleton = '';
  let pos = 0;
  let tags = 0;
  for (;;) {
    const start = marked.indexOf(open, pos);
    const end = start < 0 ? -1 : marked.indexOf(close, start + open.length);
    const ours = marked.slice(pos, start < 0 || end < 0 ? marked.length : start);
    if (ours !== '') skeleton += `\uE002${nonce}${trusted.push(ours) - 1}\uE003`;
    if (start < 0 || end < 0) break;
    const html = marked.slice(start + open.length, end);
    for (let i = html.indexOf('<'); i >= 0; i = html.indexOf('<', i + 1)) tags++;
    raw.push(html);
    skeleton += html;
    pos = end + close.length;
  }
  // htmlparser2 keeps its element stack with Array#unshift, quadratic in nesting depth: 200,000 nested
  // <div>s take seconds. No real document carries this much raw HTML; beyond it the raw HTML is shown as text.
  if (tags > MAX_RAW_TAGS) {
    let i = 0;
    return marked.split(open).map((part, n) => (n === 0 ? part : escapeHtml(raw[i++] ?? '') + part.slice(part.indexOf(close) + close.length))).join('');
  }
  const clean = sanitize(skeleton);
  const placeholder = new RegExp(`[<>]|\uE002${nonce}(\\d+)\uE003`, 'g');
  let inTag = false;
  let safe = true;
  const out = clean.replace(placeholder, (m, index: string | undefined) => {
    if (index === undefined) {
      inTag = m === '<';
      return m;
    }
    if (inTag) safe = false;
    return trusted[Number(index)] ?? '';
  });
  return safe ? out : sanitize(marked.replaceAll(open, '').replaceAll(close, ''));
}

/**
 * A markdown pipeline: marked with our extensions, then the allow-list sanitizer. Pure (reads no
 * files, fetches nothing); one instance is reused for every request.
 */
export function createMarkupRenderer() {
  const md = createMarkdownRenderer();
  return {
    render(text: string, req: RenderRequest): string {
      const refs: RefContext | undefined =
        req.kind === 'markdown'
          ? undefined
          : { appUrl: req.appUrl, comment: req.kind === 'comment', repoLink: req.repoLink, mentionable: req.mentionable, commits: req.commits };
      const opts = { base: req.base, wiki: req.wiki && req.kind !== 'markdown', hardLineBreaks: req.kind === 'comment', refs };
      // Without a '<' in the source marked cannot emit raw HTML: every tag then comes from our renderers,
      // which escape all text and apply the same URL and attribute rules, so no sanitizer pass is needed.
      if (!text.includes('<')) return md.render(text, opts);
      return sanitizeRaw(md, text, opts);
    },
    marked: md.marked,
  };
}

export type MarkupRenderer = ReturnType<typeof createMarkupRenderer>;
