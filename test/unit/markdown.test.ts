// The markdown pipeline (src/markup): Gitea-shaped output, the sanitizer's allow-list, reference linking, and
// bounded time on pathological input.
import { describe, it, expect } from '@jest/globals';
import { createMarkupRenderer, type RenderRequest } from '../../src/markup/index.js';
import { limitNesting, slugify } from '../../src/markup/markdown.js';
import { linkReferences, scanCandidates } from '../../src/markup/refs.js';
import { sanitize } from '../../src/markup/sanitize.js';

const APP = 'http://localhost:3000/';
const renderer = createMarkupRenderer();
const doc: RenderRequest = { kind: 'document', base: `${APP}o/r/`, appUrl: APP, wiki: false };
const render = (text: string, req: Partial<RenderRequest> = {}) => renderer.render(text, { ...doc, ...req });

describe('markdown output', () => {
  const cases: [string, string, string][] = [
    ['paragraph', 'hello *world*', '<p>hello <em>world</em></p>\n'],
    ['heading id', '# Hello world!', '<h1 id="user-content-hello-world">Hello world!</h1>\n'],
    ['duplicate headings', '## A\n\n## A', '<h2 id="user-content-a">A</h2>\n<h2 id="user-content-a-1">A</h2>\n'],
    ['heading with code', '## `code` & more', '<h2 id="user-content-code-more"><code>code</code> &amp; more</h2>\n'],
    ['soft break kept', 'a\nb', '<p>a\nb</p>\n'],
    ['hard break', 'a  \nb', '<p>a<br/>\nb</p>\n'],
    ['strikethrough', '~one~ ~~two~~', '<p><del>one</del> <del>two</del></p>\n'],
    [
      'table',
      '| a | b |\n|---|:-:|\n| 1 | 2 |',
      '<table>\n<thead>\n<tr>\n<th>a</th>\n<th align="center">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td align="center">2</td>\n</tr>\n</tbody>\n</table>\n',
    ],
    [
      'task list',
      '- [ ] a\n- [x] b',
      '<ul>\n<li class="task-list-item"><input type="checkbox" disabled="" data-source-position="3"/> a</li>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled="" checked="" data-source-position="11"/> b</li>\n</ul>\n',
    ],
    ['task position in bytes', 'é\n\n- [ ] a', '<p>é</p>\n<ul>\n<li class="task-list-item"><input type="checkbox" disabled="" data-source-position="7"/> a</li>\n</ul>\n'],
    [
      'autolinks',
      'see https://example.com/x?y=1 or www.example.org, mail a@b.co',
      '<p>see <a href="https://example.com/x?y=1" rel="nofollow">https://example.com/x?y=1</a> or <a href="http://www.example.org" rel="nofollow">www.example.org</a>, mail <a href="mailto:a@b.co" rel="nofollow">a@b.co</a></p>\n',
    ],
    [
      'footnote',
      'Note[^n].\n\n[^n]: The *note*.',
      '<p>Note<sup id="fnref:user-content-n"><a href="#fn:user-content-n" rel="nofollow">1</a></sup>.</p>\n' +
        '<div>\n<hr/>\n<ol>\n<li id="fn:user-content-n">\n<p>The <em>note</em>. <a href="#fnref:user-content-n" rel="nofollow">↩︎</a></p>\n</li>\n</ol>\n</div>\n',
    ],
    ['undefined footnote stays text', 'x[^none]', '<p>x[^none]</p>\n'],
    ['fenced code', '```go\nfunc main() {}\n```', '<pre class="code-block"><code class="chroma language-go display">func main() {}\n</code></pre>\n'],
    ['fenced code without language', '```\n<b>\n```', '<pre class="code-block"><code class="chroma language-text display">&lt;b&gt;\n</code></pre>\n'],
    ['mermaid', '```mermaid\ngraph\n```', '<pre class="code-block is-loading"><code class="chroma language-mermaid display">graph\n</code></pre>\n'],
    ['indented code', '    x', '<pre><code>x\n</code></pre>\n'],
    ['relative link', '[d](docs/a.md)', `<p><a href="${APP}o/r/docs/a.md" rel="nofollow">d</a></p>\n`],
    ['absolute path link', '[d](/x)', `<p><a href="${APP}x" rel="nofollow">d</a></p>\n`],
    ['anchor and mailto', '[a](#s) [m](mailto:a@b.c)', '<p><a href="#s" rel="nofollow">a</a> <a href="mailto:a@b.c" rel="nofollow">m</a></p>\n'],
    ['image', '![p](i.png)', `<p><a href="${APP}o/r/i.png" target="_blank" rel="nofollow noopener"><img src="${APP}o/r/i.png" alt="p"/></a></p>\n`],
    ['user ids prefixed', '<div id="x" name="y">d</div>', '<div id="user-content-x" name="user-content-y">d</div>'],
    ['details allowed', '<details><summary>S</summary>b</details>', '<details><summary>S</summary>b</details>'],
    ['entities kept', 'a &copy; b', '<p>a &copy; b</p>\n'],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(render(input)).toBe(expected);
  });

  it('renders wiki links under the wiki and pictures under wiki/raw', () => {
    expect(render('[H](Home) ![p](a.png)', { wiki: true })).toBe(
      `<p><a href="${APP}o/r/wiki/Home" rel="nofollow">H</a> <a href="${APP}o/r/wiki/raw/a.png" target="_blank" rel="nofollow noopener"><img src="${APP}o/r/wiki/raw/a.png" alt="p"/></a></p>\n`,
    );
  });

  it('renders [[wiki links]] in wiki rendering only', () => {
    const wiki = { wiki: true };
    expect(render('[[Configuration]]', wiki)).toBe(`<p><a href="${APP}o/r/wiki/Configuration" rel="nofollow">Configuration</a></p>\n`);
    expect(render('[[The Name|Some Page]]', wiki)).toBe(`<p><a href="${APP}o/r/wiki/Some-Page" rel="nofollow">The Name</a></p>\n`);
    expect(render('[[images/x.png]]', wiki)).toBe(
      `<p><a href="${APP}o/r/wiki/raw/images/x.png" rel="nofollow"><img src="${APP}o/r/wiki/raw/images/x.png" title="x.png" alt="images/x.png"/></a></p>\n`,
    );
    expect(render('[[x|javascript:alert(1)]]', wiki)).toBe('<p>[[x|javascript:alert(1)]]</p>\n');
    expect(render('[[Name|Link]]', { wiki: true, kind: 'markdown' })).toBe('<p>[[Name|Link]]</p>\n');
    expect(render('[[Name|Link]]')).toBe('<p>[[Name|Link]]</p>\n');
  });

  it('turns single newlines into <br> in comment mode only', () => {
    expect(render('a\nb', { kind: 'comment' })).toBe('<p>a<br/>\nb</p>\n');
    expect(render('a\nb', { kind: 'markdown' })).toBe('<p>a\nb</p>\n');
  });

  it('slugs like Gitea', () => {
    expect(slugify(' Hello, World! ')).toBe('hello-world');
    expect(slugify('a_b-c  d')).toBe('a_b-c-d');
    expect(slugify('Ünïcode 漢字')).toBe('ünïcode-漢字');
    expect(slugify('!!!')).toBe('');
  });
});

describe('references', () => {
  const ctx = { appUrl: APP, comment: true, repoLink: `${APP}o/r`, mentionable: new Set(['bob']), commits: new Set(['abcdef1234567']) };

  it('links mentions of existing users only, and not inside words or links', () => {
    expect(linkReferences('hi @bob and @eve, mail x@bob', ctx)).toBe(`hi <a href="${APP}bob" class="mention" rel="nofollow">@bob</a> and @eve, mail x@bob`);
    expect(render('[@bob](x) @bob', { kind: 'comment', mentionable: new Set(['bob']) })).toBe(
      `<p><a href="${APP}o/r/x" rel="nofollow">@bob</a> <a href="${APP}bob" class="mention" rel="nofollow">@bob</a></p>\n`,
    );
  });

  it('links issues in comments with a repository, cross references always', () => {
    expect(linkReferences('(#12) a/b#3.', ctx)).toBe(`(<a href="${APP}o/r/issues/12" class="ref-issue" rel="nofollow">#12</a>) <a href="${APP}a/b/issues/3" class="ref-issue" rel="nofollow">a/b#3</a>.`);
    expect(linkReferences('#12 a/b#3', { ...ctx, comment: false })).toBe(`#12 <a href="${APP}a/b/issues/3" class="ref-issue" rel="nofollow">a/b#3</a>`);
    expect(linkReferences('#12', { ...ctx, repoLink: undefined })).toBe('#12');
    expect(linkReferences('x#12 #12x', ctx)).toBe('x#12 #12x');
  });

  it('links existing commits with a short sha', () => {
    expect(linkReferences('fixed in abcdef1234567.', ctx)).toBe(`fixed in <a href="${APP}o/r/commit/abcdef1234567" class="commit" rel="nofollow"><code class="nohighlight">abcdef1234</code></a>.`);
    expect(linkReferences('fixed in 1234567abc', ctx)).toBe('fixed in 1234567abc');
  });

  it('leaves code spans and blocks alone', () => {
    expect(render('`@bob #1`', { kind: 'comment', repoLink: `${APP}o/r`, mentionable: new Set(['bob']) })).toBe('<p><code>@bob #1</code></p>\n');
  });

  it('collects candidates for one batched lookup', () => {
    expect(scanCandidates('@Bob @bob @eve x@no abcdef1234567 (1234567)')).toEqual({ mentions: ['bob', 'eve'], shas: ['abcdef1234567', '1234567'] });
  });
});

const WELL_FORMED_TAG = /<[a-z][a-z0-9]*((?:\s+[^\s=>/"']+(?:="[^"]*")?)*)\s*\/?>/gi;

/**
 * Every attribute of every tag in our output. Our output always writes name="value"; a tag start that is
 * not such a well-formed tag (an unquoted attribute smuggled through) is reported as attribute "<malformed>".
 */
function attributes(html: string): [string, string][] {
  const out: [string, string][] = [];
  const tags = [...html.matchAll(WELL_FORMED_TAG)];
  if (tags.length !== (html.match(/<[a-z]/gi) ?? []).length) out.push(['<malformed>', html]);
  for (const tag of tags) {
    for (const a of tag[1]!.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)) out.push([a[1]!, a[2] ?? '']);
  }
  return out;
}

describe('hostile input renders inert', () => {
  const hostile: [string, string][] = [
    ['javascript link', '[a](javascript:alert(1))'],
    ['upper case', '[a](JAVASCRIPT:alert(1))'],
    ['mixed case', '[a](JaVaScRiPt:alert(1))'],
    ['leading space', '[a](< javascript:alert(1)>)'],
    ['angle destination', '[a](<javascript:alert(1)>)'],
    ['autolink', '<javascript:alert(1)>'],
    ['reference link', '[a][x]\n\n[x]: javascript:alert(1)'],
    ['tab inside', '<a href="java\tscript:alert(1)">t</a>'],
    ['tab entity', '<a href="java&#x09;script:alert(1)">t</a>'],
    ['newline entity', '<a href="jav&#x0A;ascript:alert(1)">n</a>'],
    ['decimal entities', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">e</a>'],
    ['colon entity', '<a href="javascript&colon;alert(1)">c</a>'],
    ['leading control', '<a href="\u0001javascript:alert(1)">c</a>'],
    ['vbscript', '<a href="vbscript:msgbox(1)">v</a>'],
    ['data link', '<a href="data:text/html,<script>alert(1)</script>">d</a>'],
    ['data image', '![x](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)'],
    ['data img tag', '<img src="data:image/png;base64,AAAA">'],
    ['script', '<script>alert(1)</script>'],
    ['script in paragraph', 'text <script>alert(1)</script> more'],
    ['img onerror', '<img src=x onerror=alert(1)>'],
    ['svg onload', '<svg onload=alert(1)><circle/></svg>'],
    ['iframe', '<iframe src="https://evil.example"></iframe>'],
    ['form', '<form action="https://evil.example"><input type="text" name="q"><button formaction="x">go</button></form>'],
    ['style element', '<style>body{display:none}</style>'],
    ['style attribute', '<p style="background:url(javascript:alert(1))">s</p>'],
    ['event on allowed tag', '<details open ontoggle=alert(1)><summary>s</summary></details>'],
    ['object and embed', '<object data="x.swf"></object><embed src="x.swf">'],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
    ['base tag', '<base href="javascript:alert(1)//">'],
    ['link tag', '<link rel="stylesheet" href="https://evil.example/x.css">'],
    ['math', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
    ['noscript mxss', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
    ['comment trick', '<!--<img src="--><img src=x onerror=alert(1)//">'],
    ['code language injection', '```js" onmouseover="alert(1)\nx\n```'],
    ['incomplete tag inside inline code element', '<code><img src=x onerror=alert(1)//</code>'],
    ['incomplete tag inside kbd', 'a <kbd>x <svg onload=alert(1)// y</kbd> b'],
    ['incomplete tag inside pre', '<pre><img src=x onerror=alert(1)// </pre>'],
    ['image title injection', '![a](x.png "t\\" onerror=\\"alert(1)")'],
  ];
  it.each(hostile)('%s', (_name, input) => {
    for (const kind of ['markdown', 'comment', 'document'] as const) {
      const out = render(input, { kind });
      expect(out).not.toMatch(/<(script|style|iframe|form|object|embed|meta|base|link|svg|math|button)\b/i);
      for (const [name, value] of attributes(out)) {
        expect(name).not.toMatch(/^(on|style$|formaction$|action$|<malformed>$)/i);
        if (name === 'href' || name === 'src') expect(value).toMatch(/^(https?:|mailto:|#|\/|[^:]*$)/i);
      }
      expect(out).not.toMatch(/<input(?![^>]*type="checkbox")/i);
    }
  });

  it('keeps random mixes of markdown and hostile HTML fragments inert', () => {
    const allowed = new Set(
      'a abbr b bdo blockquote br caption cite code dd del details dfn div dl dt em figcaption figure h1 h2 h3 h4 h5 h6 hr i img input ins kbd li mark ol p pre q rp rt ruby s samp small span strike strong sub summary sup table tbody td tfoot th thead time tr tt u ul var video wbr'.split(' '),
    );
    const fragments = [
      '<code>', '</code>', '<kbd>', '<pre>', '</pre>', '<img src=x onerror=alert(1)//', '<svg onload=alert(1)>', '<a href="javascript:alert(1)">', '</a>',
      '<div title="', '"', "'", '>', '<', '<!--', '-->', '<script>', '</script>', '<style>', '<textarea>', '`', '```', '\n', '\n\n', '    ', '> ', '- ',
      '- [ ] ', '| a |\n|---|\n| ', '[x](', ')', '![i](', 'javascript:alert(1)', 'java\tscript:', '&#106;', '&lt;', '&', '*', '_', '~~', '[^1]',
      '\n\n[^1]: ', '[[', ']]', '@bob', '#1', 'abcdef1234567', '<b>', '</b>', '<details open ontoggle=alert(1)>', '<p>', '</p>', '<iframe>', '<math>',
      '<noscript>', '<xmp>', '<title>', '<object>', '\uE000', '\uE002', '<a href=', 'x', ' ', 'www.x.org', 'a@b.co', '<http://x>', '<javascript:x>',
      '\\', '<input type=text>', '<input type=checkbox onclick=x>', 'style="x"', ' onerror=alert(1) ', '<img src="x.png"', '/>',
    ];
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const problems: string[] = [];
    for (let n = 0; n < 3000; n++) {
      let input = '';
      for (let i = Math.floor(random() * 25); i >= 0; i--) input += fragments[Math.floor(random() * fragments.length)];
      const out = render(input, { kind: n % 2 ? 'comment' : 'document', wiki: n % 3 === 0, repoLink: `${APP}o/r`, mentionable: new Set(['bob']) });
      for (const m of out.matchAll(/<([a-z][a-z0-9]*)/gi)) if (!allowed.has(m[1]!.toLowerCase())) problems.push(`${JSON.stringify(input)}: tag ${m[1]}`);
      for (const [name, value] of attributes(out)) {
        if (/^(on|style$|<malformed>$)/i.test(name)) problems.push(`${JSON.stringify(input)}: ${name}`);
        if ((name === 'href' || name === 'src') && !/^(https?:|mailto:|#|\/|[^:]*$)/i.test(value)) problems.push(`${JSON.stringify(input)}: ${value}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps only checkbox inputs and strips their handlers', () => {
    expect(sanitize('<input type="checkbox" checked onclick="x()"><input type="text" value="v">')).toBe('<input type="checkbox" checked=""/>');
  });

  it('allows only http, https, mailto and relative URLs', () => {
    expect(sanitize('<a href="ftp://x">f</a><a href="https://x">h</a><a href="rel/x">r</a><a href="//host/x">p</a>')).toBe(
      '<a rel="nofollow">f</a><a href="https://x" rel="nofollow">h</a><a href="rel/x" rel="nofollow">r</a><a href="//host/x" rel="nofollow">p</a>',
    );
  });

  it('drops classes outside the allow-list', () => {
    expect(sanitize('<a href="x" class="mention evil">m</a><span class="emoji x">e</span><p class="p">p</p>')).toBe(
      '<a href="x" class="mention" rel="nofollow">m</a><span class="emoji">e</span><p>p</p>',
    );
  });
});

describe('raw HTML in markdown', () => {
  const raw: [string, string, string][] = [
    ['wraps markdown between HTML blocks', '<div align="center">\n\n# Title\n\n</div>', '<div align="center"><h1 id="user-content-title">Title</h1>\n</div>'],
    ['inline HTML around markdown', 'text <span>*em*</span>', '<p>text <span><em>em</em></span></p>\n'],
    [
      'html block with an image',
      '<p align="center">\n  <img src="docs/logo.png" alt="logo" width="120">\n</p>',
      '<p align="center">\n  <img src="docs/logo.png" alt="logo" width="120"/>\n</p>',
    ],
    ['html in a table cell', '| a |\n|---|\n| <b>x</b> |', '<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td><b>x</b></td>\n</tr>\n</tbody>\n</table>\n'],
    ['stray end tags cannot close ours', 'para </div></p> more', '<p>para <p></p> more</p>\n'],
    ['text escaped', 'a > b <b>x</b> & c', '<p>a &gt; b <b>x</b> &amp; c</p>\n'],
    ['unterminated tag falls back to sanitizing everything', '<div title="x\n\nparagraph *em*', ''],
    ['unclosed script swallows the rest', '<script>\nalert(1)\n\n# after', ''],
  ];
  it.each(raw)('%s', (_name, input, expected) => {
    expect(render(input)).toBe(expected);
  });

  it('cannot forge the placeholders of our own markup', () => {
    for (const input of ['x \uE002abc0\uE003 <b>y</b>', '<b title="&#xE002;0&#xE003;">\uE0020\uE003</b>', '<a title="\uE002', '<i>\uE000<</i>']) {
      const out = render(input);
      expect(out).not.toMatch(/<(script|img)/);
      for (const [name] of attributes(out)) expect(name).not.toMatch(/^on/i);
    }
  });
});

describe('pathological input renders in bounded time', () => {
  const N = 100_000;
  const inputs: [string, string][] = [
    ['10,000 nested quotes', '>'.repeat(10_000) + ' x'],
    ['quotes with spaces', '> '.repeat(10_000) + 'x'],
    ['10,000 brackets', '['.repeat(10_000)],
    ['brackets, long', '['.repeat(N)],
    ['closing brackets', ']'.repeat(N)],
    ['link openers', '[a]('.repeat(N / 4)],
    ['nested links', '[x]('.repeat(3000) + ')'.repeat(3000)],
    ['image openers', '![['.repeat(N / 3)],
    ['backticks', '`'.repeat(N) + 'x'],
    ['alternating backticks', '`a'.repeat(N / 2)],
    ['asterisks', '*'.repeat(N) + 'x'],
    ['alternating asterisks', '*a'.repeat(N / 2)],
    ['alternating underscores', '_a'.repeat(N / 2)],
    ['nested strong', '**'.repeat(N / 4) + 'a' + '**'.repeat(N / 4)],
    ['tildes', '~a'.repeat(N / 2)],
    ['less-than', '<'.repeat(N)],
    ['tag openers', '<a '.repeat(N / 3)],
    ['html blocks', '<div>'.repeat(N / 5)],
    ['many nested html tags', '<div>'.repeat(30_000)],
    ['deep list', Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n')],
    ['quote list mix', '> - '.repeat(N / 4)],
    ['footnote refs', '[^1]'.repeat(N / 4) + '\n\n[^1]: x'],
    ['wide table', `${'|a'.repeat(N / 6)}\n${'|-'.repeat(N / 6)}\n${'|b'.repeat(N / 6)}`],
    ['email-like run', 'a.'.repeat(N / 2) + '@'],
    ['url-like run', 'www.'.repeat(N / 4)],
    ['mentions and refs', ' @bob #1 a/b#2 abcdef1234567'.repeat(N / 28)],
    ['backslashes', '\\'.repeat(N)],
    ['entities', '&#'.repeat(N / 2)],
  ];
  it.each(inputs)('%s', (_name, input) => {
    for (const kind of ['markdown', 'comment'] as const) {
      const started = performance.now();
      const out = render(input, { kind, repoLink: `${APP}o/r`, mentionable: new Set(['bob']), commits: new Set(['abcdef1234567']) });
      expect(performance.now() - started).toBeLessThan(2000);
      expect(typeof out).toBe('string');
      expect(out).not.toMatch(/<script/i);
    }
  });

  it('flattens nesting no document needs', () => {
    expect(limitNesting('> a')).toBe('> a');
    expect(limitNesting(`${'>'.repeat(20)} x`)).toBe(`${'>'.repeat(16)}  x`);
    expect(limitNesting('> - '.repeat(20) + 'x')).toBe(`${'> - '.repeat(8)} x`);
    expect(limitNesting('> - '.repeat(3) + 'x')).toBe('> - > - > - x');
    expect(limitNesting(`${' '.repeat(100)}- x`)).toBe(`${' '.repeat(64)}- x`);
    expect(limitNesting(`${' '.repeat(100)}code`)).toBe(`${' '.repeat(100)}code`);
  });
});
