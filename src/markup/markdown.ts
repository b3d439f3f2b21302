import { Marked, type Token, type Tokens, type TokenizerAndRendererExtension } from 'marked';
import { escapeHtml, escapeText, linkReferences, type RefContext } from './refs.js';

/**
 * Markdown to (unsanitized) HTML shaped like Gitea 1.22's goldmark output where clients see it:
 * heading ids with the `user-content-` prefix, `<pre class="code-block"><code class="chroma
 * language-x display">`, task-list checkboxes with data-source-position, footnotes, links made
 * absolute against the Context URL.
 *
 * Our own markup is safe by construction: all text escaped, URLs limited to the sanitizer's schemes,
 * attributes fixed. Raw HTML from the source passes through as written (wrapped in `rawMarks` when
 * asked) and must be sanitized by the caller (markup/index.ts).
 */
export interface MarkdownOptions {
  /** Absolute URL (ending with '/') that relative links and images resolve against. */
  readonly base: string;
  /** Wiki rendering: links resolve under `<base>wiki/`, images under `<base>wiki/raw/`. */
  readonly wiki: boolean;
  /** A single newline becomes <br> (comment mode). */
  readonly hardLineBreaks: boolean;
  /** Reference and mention linking (comment and document modes); absent in plain markdown mode. */
  readonly refs?: RefContext | undefined;
  /** Wrap raw HTML from the source in these strings, so the caller can sanitize it apart from our own markup. */
  readonly rawMarks?: { readonly open: string; readonly close: string } | undefined;
}

/** Per-document state: rendering is synchronous, so one mutable slot per renderer is enough. */
interface RenderState {
  readonly src: string;
  readonly opts: MarkdownOptions;
  readonly slugs: Map<string, number>;
  readonly footnotes: Map<string, Token[]>;
  /** Footnote labels in order of first reference. */
  readonly footnoteOrder: string[];
  /** Search position for task checkboxes in the source (they are met in document order). */
  taskCursor: number;
  /** >0 while rendering a link's text: no links inside links. */
  inLink: number;
  /** Characters scanned by delimiter searches so far (see WORK_BUDGET). */
  work: number;
}

/** Upper bound on characters scanned looking for emphasis closers per document (tens of ms of work). */
const WORK_BUDGET = 4_000_000;
/** Deeper nesting than this is flattened before parsing: marked recurses per level. */
const MAX_DEPTH = 16;
const MAX_LIST_INDENT = 64;
// One container marker at the start of a line: a quote '>' or a list bullet/number followed by a blank.
const MARKER = String.raw`[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]))`;
const DEEP = new RegExp(String.raw`(?:^|\n)(?:${MARKER}){${MAX_DEPTH + 1}}|(?:^|\n)[ \t]{${MAX_LIST_INDENT + 1}}`);
const DEEP_LINE = new RegExp(String.raw`^((?:${MARKER}){${MAX_DEPTH}})(?:${MARKER})+`, 'gm');
const DEEP_LIST_ITEM = new RegExp(String.raw`^[ \t]{${MAX_LIST_INDENT + 1},}(?=(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$))`, 'gm');

/**
 * Bounds container nesting: marked parses nested blockquotes and lists recursively (10,000 `>` overflow
 * the stack, `> - > - ...` or deep lists take seconds). Lines nesting deeper than any real document
 * keep their first 16 containers; the markers beyond are dropped and list items indented further than
 * 64 columns are pulled back to 64.
 */
export function limitNesting(src: string): string {
  if (!DEEP.test(src)) return src;
  return src.replace(DEEP_LINE, '$1 ').replace(DEEP_LIST_ITEM, ' '.repeat(MAX_LIST_INDENT));
}

const URL_START = /^(?:https?:\/\/|ftp:\/\/|www\.)/i;
const EMAIL_START = /^[A-Za-z0-9._+-]{1,256}@/;
const TEXT_WINDOW = 64;
const LONG_EMAIL_RUN = /^[\s\S][a-zA-Z0-9.!#$%&'*+/=?_`{|}~-]{64}/;
const textToken = (raw: string): Tokens.Text => ({ type: 'text', raw, text: raw, escaped: false });

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// WHATWG URL parsing drops tabs and newlines anywhere and C0 controls and spaces at the ends, so
// `java\tscript:` would become a scheme after joining; remove them before deciding what the link is.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const URL_NOISE = /[\u0000-\u0020\u007f]/g;

/** Gitea's CleanValue: letters, digits, '-' and '_' kept (lower-cased), other runs become one '-'. */
export function slugify(text: string): string {
  let out = '';
  let dash = false;
  for (const ch of text.trim()) {
    if (ch === '-' || ch === '_' || /[\p{L}\p{N}]/u.test(ch)) {
      if (dash && out !== '') out += '-';
      dash = false;
      out += ch.toLowerCase();
    } else dash = true;
  }
  return out;
}

/** The visible text of inline tokens (for heading ids). */
function plainText(tokens: readonly Token[] | undefined): string {
  let out = '';
  for (const t of tokens ?? []) {
    if ('tokens' in t && Array.isArray(t.tokens) && t.tokens.length > 0) out += plainText(t.tokens as Token[]);
    else if (t.type === 'text' || t.type === 'codespan' || t.type === 'escape') out += decodeEntities((t as Tokens.Text).text);
  }
  return out;
}

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|#39));/g, (m, dec: string, hex: string, named: string) => {
    if (dec) return String.fromCodePoint(Math.min(Number(dec), 0x10ffff));
    if (hex) return String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" } as Record<string, string>)[named] ?? m;
  });
}

const IMAGE_EXT = /\.(?:png|jpe?g|gif|webp|svg|bmp|ico|avif)$/i;
const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https']);

/** The sanitizer's URL rule, applied while rendering: relative, or one of the allowed schemes. */
export function allowedUrl(url: string, schemes: ReadonlySet<string>): boolean {
  const m = /^([^/?#:]*):/.exec(url.replace(URL_NOISE, ''));
  return !m || schemes.has(m[1]!.toLowerCase());
}

function resolveUrl(raw: string, base: string): string {
  const href = raw.replace(URL_NOISE, '');
  if (href === '' || href.startsWith('#') || HAS_SCHEME.test(href)) return href;
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

export function createMarkdownRenderer() {
  let state: RenderState | null = null;
  const st = (): RenderState => {
    if (!state) throw new Error('markdown renderer used outside render()');
    return state;
  };

  const footnoteDef: TokenizerAndRendererExtension = {
    name: 'footnoteDef',
    level: 'block',
    // No start(): it would scan the rest of the document once per paragraph (quadratic). The cost is
    // that a definition directly under a paragraph line, without a blank line, stays paragraph text.
    tokenizer(src) {
      // `[^label]: text` plus following lines indented by four spaces or a tab (blank lines between them allowed).
      const m = /^\[\^([^\]\s]{1,100})\]:[ \t]?([^\n]*(?:\n(?:[ \t]*\n)*(?: {4}|\t)[^\n]*)*)(?:\n|$)/.exec(src);
      if (!m) return undefined;
      const label = m[1]!;
      const body = m[2]!.replace(/^(?: {4}|\t)/gm, '');
      const tokens: Token[] = [];
      this.lexer.blockTokens(body, tokens);
      const s = st();
      if (!s.footnotes.has(label.toLowerCase())) s.footnotes.set(label.toLowerCase(), tokens);
      return { type: 'footnoteDef', raw: m[0], label, tokens: [] };
    },
    renderer: () => '',
  };

  const footnoteRef: TokenizerAndRendererExtension = {
    name: 'footnoteRef',
    level: 'inline',
    // No start(): marked already stops plain text at '[' and tries extensions first at every position;
    // a start() scanning the rest of the paragraph on every call would make '[[[[...' quadratic.
    tokenizer(src) {
      const m = /^\[\^([^\]\s]{1,100})\]/.exec(src);
      if (!m) return undefined;
      const s = st();
      const key = m[1]!.toLowerCase();
      if (!s.footnotes.has(key)) return undefined;
      let index = s.footnoteOrder.indexOf(key);
      const first = index < 0;
      if (first) index = s.footnoteOrder.push(key) - 1;
      return { type: 'footnoteRef', raw: m[0], key, index: index + 1, first };
    },
    renderer(token) {
      const id = slugify(token.key as string) || String(token.index);
      const idAttr = token.first ? ` id="fnref:user-content-${escapeHtml(id)}"` : '';
      return `<sup${idAttr}><a href="#fn:user-content-${escapeHtml(id)}" rel="nofollow">${token.index as number}</a></sup>`;
    },
  };

  // Gitea's wiki links, in wiki rendering: [[Page]], [[Text|Page]], [[images/x.png]] (a picture).
  const wikiLink: TokenizerAndRendererExtension = {
    name: 'wikiLink',
    level: 'inline',
    tokenizer(src) {
      if (!src.startsWith('[[') || !st().opts.wiki) return undefined;
      const m = /^\[\[([^\]|\n]{1,256})(?:\|([^\]|\n]{1,256}))?\]\]/.exec(src);
      if (!m) return undefined;
      return { type: 'wikiLink', raw: m[0], label: m[1]!.trim(), target: (m[2] ?? m[1]!).trim() };
    },
    renderer(token) {
      const s = st();
      const label = token.label as string;
      const target = token.target as string;
      if (HAS_SCHEME.test(target.replace(URL_NOISE, ''))) {
        if (!allowedUrl(target, LINK_SCHEMES)) return escapeText(token.raw);
        return `<a href="${escapeHtml(target)}" rel="nofollow">${escapeText(label)}</a>`;
      }
      if (IMAGE_EXT.test(target)) {
        const src = escapeHtml(resolveUrl(target, `${s.opts.base}wiki/raw/`));
        const title = escapeHtml(target.slice(target.lastIndexOf('/') + 1));
        return `<a href="${src}" rel="nofollow"><img src="${src}" title="${title}" alt="${escapeHtml(target)}"/></a>`;
      }
      // Page names use '-' for spaces, as Gitea's wiki does.
      const href = resolveUrl(encodeURI(target.replace(/ /g, '-')), `${s.opts.base}wiki/`);
      return `<a href="${escapeHtml(href)}" rel="nofollow">${escapeText(label)}</a>`;
    },
  };

  const marked = new Marked({
    gfm: true,
    extensions: [footnoteDef, footnoteRef, wikiLink],
    tokenizer: {
      // marked looks for the closing delimiter of every `*`/`_` run in the rest of the paragraph, which
      // is quadratic on inputs like `_a_a_a...`. Past a work budget per document the runs stay text.
      emStrong(src) {
        const s = st();
        s.work += src.length;
        if (s.work <= WORK_BUDGET) return false; // marked's own tokenizer
        const run = /^[*_]+/.exec(src);
        // A text token where marked expects em/strong: the inline lexer pushes whatever it is given.
        return run ? (textToken(run[0]) as unknown as Tokens.Em) : false;
      },
      // GFM email autolinks: marked's text and url rules look ahead through the whole run of e-mail
      // characters for an '@' at every position, which is quadratic on long runs like `_a_a_a...`.
      url(src) {
        if (URL_START.test(src) || EMAIL_START.test(src)) return false; // marked's own, now bounded
        return undefined;
      },
      inlineText(src) {
        if (!LONG_EMAIL_RUN.test(src)) return false;
        // Inside a long run no e-mail address can start (a local part is at most 64 characters): a
        // bounded window gives the same token, cut at the window's end.
        const m = this.rules.inline.text.exec(src.slice(0, TEXT_WINDOW));
        if (!m) return false;
        return { type: 'text', raw: m[0], text: m[0], escaped: this.lexer.state.inRawBlock };
      },
      del(src) {
        const s = st();
        s.work += src.length;
        if (s.work <= WORK_BUDGET) return false;
        const run = /^~+/.exec(src);
        return run ? (textToken(run[0]) as unknown as Tokens.Del) : false;
      },
    },
    renderer: {
      heading({ tokens, depth }) {
        const s = st();
        const inner = this.parser.parseInline(tokens);
        let slug = slugify(plainText(tokens));
        if (slug === '') return `<h${depth}>${inner}</h${depth}>\n`;
        // Repeated headings: "-1", "-2"... like goldmark's id generator.
        const seen = s.slugs.get(slug);
        if (seen !== undefined) {
          s.slugs.set(slug, seen + 1);
          slug = `${slug}-${seen + 1}`;
        } else s.slugs.set(slug, 0);
        return `<h${depth} id="user-content-${escapeHtml(slug)}">${inner}</h${depth}>\n`;
      },
      code({ text, lang, codeBlockStyle }) {
        // Gitea highlights fenced blocks only; indented code is goldmark's plain <pre><code>.
        if (codeBlockStyle === 'indented') return `<pre><code>${escapeHtml(text.replace(/\n$/, ''))}\n</code></pre>\n`;
        const language = /^\S*/.exec(lang ?? '')![0] || 'text';
        const pre = language === 'mermaid' || language === 'math' ? 'code-block is-loading' : 'code-block';
        const body = text ? `${escapeHtml(text.replace(/\n$/, ''))}\n` : '';
        return `<pre class="${pre}"><code class="chroma language-${escapeHtml(language)} display">${body}</code></pre>\n`;
      },
      table(token) {
        // goldmark's layout: newlines around <tbody> too.
        let header = '';
        for (const cell of token.header) header += this.tablecell(cell);
        let out = `<table>\n<thead>\n${this.tablerow({ text: header })}</thead>\n`;
        if (token.rows.length > 0) {
          let body = '';
          for (const row of token.rows) {
            let cells = '';
            for (const cell of row) cells += this.tablecell(cell);
            body += this.tablerow({ text: cells });
          }
          out += `<tbody>\n${body}</tbody>\n`;
        }
        return `${out}</table>\n`;
      },
      listitem(item) {
        const inner = this.parser.parse(item.tokens);
        return item.task ? `<li class="task-list-item">${inner}</li>\n` : `<li>${inner}</li>\n`;
      },
      checkbox({ checked }) {
        return `<input type="checkbox" disabled=""${checked ? ' checked=""' : ''} data-source-position="${taskPosition(st())}"/> `;
      },
      html({ text }) {
        const marks = st().opts.rawMarks;
        return marks ? marks.open + text + marks.close : text;
      },
      hr() {
        return '<hr/>\n';
      },
      br() {
        return '<br/>\n';
      },
      link({ href, title, text, tokens }) {
        const s = st();
        s.inLink++;
        let inner: string;
        try {
          inner = tokens && tokens.length ? this.parser.parseInline(tokens) : escapeText(text);
        } finally {
          s.inLink--;
        }
        const base = s.opts.wiki ? `${s.opts.base}wiki/` : s.opts.base;
        const url = resolveUrl(href, base);
        const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
        // A link to a scheme outside the allow-list keeps its text and loses its target (as the sanitizer would).
        if (!allowedUrl(url, LINK_SCHEMES)) return `<a${titleAttr} rel="nofollow">${inner}</a>`;
        return `<a href="${escapeHtml(url)}"${titleAttr} rel="nofollow">${inner}</a>`;
      },
      image({ href, title, text }) {
        const s = st();
        const base = s.opts.wiki ? `${s.opts.base}wiki/raw/` : s.opts.base;
        const url = resolveUrl(href, base);
        const rest = `alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ''}/>`;
        if (!allowedUrl(url, IMAGE_SCHEMES)) return `<img ${rest}`;
        const src = escapeHtml(url);
        const img = `<img src="${src}" ${rest}`;
        // Gitea links a picture to itself unless it already sits inside a link.
        return s.inLink > 0 ? img : `<a href="${src}" target="_blank" rel="nofollow noopener">${img}</a>`;
      },
      text(token) {
        if ('tokens' in token && token.tokens) return this.parser.parseInline(token.tokens);
        // marked leaves text inside inline <code>/<pre>/<kbd> unescaped ("escaped": raw source). It is
        // escaped here all the same: our output must never carry a tag the sanitizer has not seen, and
        // `<code><img src=x onerror=...//</code>` would otherwise yield one.
        if ('escaped' in token && token.escaped) return escapeText(token.text);
        const s = st();
        if (s.opts.refs && s.inLink === 0) return linkReferences(token.text, s.opts.refs);
        return escapeText(token.text);
      },
    },
  });

  /** Byte offset of the mark inside `[ ]` / `[x]` of the next task item, as Gitea's front end expects. */
  function taskPosition(s: RenderState): number {
    // Task items are rendered in source order, each item's box is the next `[ ]` after a list marker.
    const re = /(?:^|\n)[ \t>]*(?:[-+*]|\d{1,9}[.)])[ \t]+\[[ xX]\]/g;
    re.lastIndex = s.taskCursor;
    const hit = re.exec(s.src);
    if (!hit) return 0;
    const at = hit.index + hit[0].length - 2;
    s.taskCursor = hit.index + hit[0].length;
    return Buffer.byteLength(s.src.slice(0, at), 'utf8');
  }

  function renderFootnotes(s: RenderState): string {
    if (s.footnoteOrder.length === 0) return '';
    let out = '<div>\n<hr/>\n<ol>\n';
    for (const key of s.footnoteOrder) {
      const id = escapeHtml(slugify(key) || String(s.footnoteOrder.indexOf(key) + 1));
      const back = `<a href="#fnref:user-content-${id}" rel="nofollow">↩︎</a>`;
      let body = marked.parser(s.footnotes.get(key) ?? []);
      body = body.endsWith('</p>\n') ? `${body.slice(0, -5)} ${back}</p>\n` : `${body}<p>${back}</p>\n`;
      out += `<li id="fn:user-content-${id}">\n${body}</li>\n`;
    }
    return `${out}</ol>\n</div>\n`;
  }

  return {
    /** Renders markdown to HTML that still needs sanitizing. */
    render(src: string, opts: MarkdownOptions): string {
      const s: RenderState = { src: src.replace(/\r\n?/g, '\n'), opts, slugs: new Map(), footnotes: new Map(), footnoteOrder: [], taskCursor: 0, inLink: 0, work: 0 };
      state = s;
      try {
        const html = marked.parse(limitNesting(s.src), { async: false, breaks: opts.hardLineBreaks });
        return html + renderFootnotes(s);
      } catch (e) {
        // A stack overflow on some other pathological nesting: show the text rather than fail.
        if (!(e instanceof RangeError)) throw e;
        return `<pre>${escapeHtml(src)}</pre>\n`;
      } finally {
        state = null;
      }
    },
    /** The bare marked instance with our options (benchmarks compare against plain marked). */
    marked,
  };
}

export type MarkdownRenderer = ReturnType<typeof createMarkdownRenderer>;
