import sanitizeHtml from 'sanitize-html';

/**
 * The allow-list applied to every rendered document, after markdown rendering and link processing.
 * Modelled on Gitea's policy (bluemonday UGC plus Gitea's additions), narrowed where Gitea allows
 * more than its own output needs: no svg, no forms, no style attributes, no data: URLs.
 */
const GENERIC_ATTRS = [
  'abbr', 'align', 'alt', 'aria-describedby', 'aria-hidden', 'aria-label', 'aria-labelledby', 'axis', 'border',
  'cellpadding', 'cellspacing', 'char', 'charoff', 'clear', 'cols', 'colspan', 'compact', 'datetime', 'dir',
  'headers', 'height', 'hreflang', 'hspace', 'id', 'itemprop', 'label', 'lang', 'name', 'nowrap', 'open', 'rel',
  'rev', 'rows', 'rowspan', 'rules', 'scope', 'span', 'start', 'summary', 'tabindex', 'title', 'valign',
  'value', 'vspace', 'width',
];

const TAGS = [
  'a', 'abbr', 'b', 'bdo', 'blockquote', 'br', 'caption', 'cite', 'code', 'dd', 'del', 'details', 'dfn', 'div', 'dl',
  'dt', 'em', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'input', 'ins', 'kbd', 'li',
  'mark', 'ol', 'p', 'pre', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'summary',
  'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'tt', 'u', 'ul', 'var', 'video', 'wbr',
];

/** Ids Gitea leaves alone: already prefixed, or footnote ids like `fn:user-content-1`. */
const PREFIXED_ID = /^(?:user-content-|[^:]*:user-content-)/;

// allowedEmptyAttributes exists in sanitize-html 2.17 but not in @types/sanitize-html 2.16.
const OPTIONS: sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] } = {
  allowedTags: TAGS,
  allowedAttributes: {
    '*': GENERIC_ATTRS,
    a: ['href', 'class', 'target'],
    img: ['src', 'class'],
    input: ['type', 'checked', 'disabled', 'data-source-position'],
    video: ['src', 'controls', 'autoplay'],
    div: ['itemscope', 'itemtype'],
    pre: ['class'],
    code: ['class'],
    span: ['class'],
    li: ['class'],
  },
  allowedClasses: {
    a: ['ref-issue', 'mention', 'commit'],
    pre: ['code-block', 'is-loading'],
    code: ['chroma', 'language-*', 'display', 'nohighlight', 'is-loading'],
    span: ['emoji', 'color-preview'],
    li: ['task-list-item'],
    img: ['emoji'],
  },
  // Relative URLs are allowed by sanitize-html whenever a URL has no scheme.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'], video: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'itemtype'],
  allowProtocolRelative: true,
  allowedEmptyAttributes: ['alt', 'disabled', 'checked', 'open'],
  disallowedTagsMode: 'discard',
  // Content of these is dropped with the tag, not shown as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'xmp', 'noembed', 'noframes'],
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  transformTags: {
    '*': (tagName, attribs) => {
      let out = attribs;
      // User HTML must not take over ids of the page around it (Gitea prefixes them too).
      if ((attribs.id !== undefined && !PREFIXED_ID.test(attribs.id)) || (attribs.name !== undefined && !PREFIXED_ID.test(attribs.name))) {
        out = { ...attribs };
        if (attribs.id !== undefined && !PREFIXED_ID.test(attribs.id)) out.id = `user-content-${attribs.id}`;
        if (attribs.name !== undefined && !PREFIXED_ID.test(attribs.name)) out.name = `user-content-${attribs.name}`;
      }
      if (tagName === 'a' && out.href !== undefined) {
        const rel = (out.rel ?? '').split(/\s+/).filter((r) => r !== '' && r !== 'nofollow');
        const { rel: _drop, ...rest } = out;
        out = { ...rest, rel: ['nofollow', ...rel].join(' ') };
      }
      return { tagName, attribs: out };
    },
  },
};

/** Removes everything outside the allow-list; void elements are written `<br/>` as Gitea does. */
export function sanitize(html: string): string {
  // sanitize-html escapes `>` in text and attribute values, so " />" can only be the end of a void tag.
  return sanitizeHtml(html, OPTIONS).replaceAll(' />', '/>');
}
