// renderMarkdown, renderMarkdownRaw and renderMarkup (BEHAVIOUR.md 8): modes, Context links, sanitizing, limits.
import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

describeDb('markdown rendering', () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let repo: { full_name: string; name: string };
  let sha: string;
  let privateRepo: string;

  const MAX = 4096;

  beforeAll(async () => {
    s = await startServer({ overrides: { markdown: { MAX_INPUT_SIZE: String(MAX) } } });
    alice = await s.createUser();
    bob = await s.createUser();
    const r = await s.client.post('/user/repos', { name: uniqueName('md'), auto_init: true }, { token: alice.token });
    expect(r.status).toBe(201);
    repo = r.body;
    const b = await s.client.get(`/repos/${repo.full_name}/branches/${r.body.default_branch}`, { token: alice.token });
    expect(b.status).toBe(200);
    sha = b.body.commit.id;
    const p = await s.client.post('/user/repos', { name: uniqueName('mdp'), auto_init: true, private: true }, { token: bob.token });
    expect(p.status).toBe(201);
    privateRepo = p.body.full_name;
  });
  afterAll(async () => {
    await s?.close();
  });

  const md = (body: unknown, token = alice.token) => s.client.post<string>('/markdown', body, { token });
  const markup = (body: unknown, token = alice.token) => s.client.post<string>('/markup', body, { token });

  describe('renderMarkdown', () => {
    it('renders markdown as a text/html fragment with Gitea heading ids', async () => {
      const r = await md({ Text: '# Hello world!\n\nsome *text*', Mode: 'markdown' });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.text).toBe('<h1 id="user-content-hello-world">Hello world!</h1>\n<p>some <em>text</em></p>\n');
    });

    it('matches field names in any letter case', async () => {
      const r = await md({ text: 'a\nb', mode: 'comment' });
      expect(r.status).toBe(200);
      expect(r.text).toBe('<p>a<br/>\nb</p>\n');
      const upper = await md({ TEXT: '**x**', MODE: 'gfm' });
      expect(upper.text).toBe('<p><strong>x</strong></p>\n');
    });

    it('treats an unknown mode as markdown and empty text as an empty body', async () => {
      const r = await md({ Text: 'a\nb', Mode: 'nonsense' });
      expect(r.status).toBe(200);
      expect(r.text).toBe('<p>a\nb</p>\n');
      const empty = await md({ Text: '', Mode: 'comment' });
      expect(empty.status).toBe(200);
      expect(empty.text).toBe('');
    });

    it('links a mention only when the caller may see the account (a private account is not revealed)', async () => {
      const hidden = await s.createUser({ visibility: 'private' });
      const limited = await s.createUser({ visibility: 'limited' });
      const text = `@${hidden.name} @${limited.name}`;
      const link = (u: TestUser) => `<a href="${s.url}/${u.name}" class="mention" rel="nofollow">@${u.name}</a>`;
      const byStranger = await md({ Text: text, Mode: 'comment' });
      expect(byStranger.text).toBe(`<p>@${hidden.name} ${link(limited)}</p>\n`);
      const bySelf = await md({ Text: text, Mode: 'comment' }, hidden.token);
      expect(bySelf.text).toBe(`<p>${link(hidden)} ${link(limited)}</p>\n`);
      const byAdmin = await md({ Text: text, Mode: 'comment' }, s.admin.token);
      expect(byAdmin.text).toBe(`<p>${link(hidden)} ${link(limited)}</p>\n`);
    });

    it('links issues, cross references, mentions of existing users and commits with a repository Context', async () => {
      const text = `see #7 and other/thing#3 by @${bob.name} and @nobody${uniqueName('x')} in ${sha}`;
      const r = await md({ Text: text, Mode: 'comment', Context: repo.full_name });
      expect(r.status).toBe(200);
      const base = `${s.url}/${repo.full_name}`;
      expect(r.text).toContain(`<a href="${base}/issues/7" class="ref-issue" rel="nofollow">#7</a>`);
      expect(r.text).toContain(`<a href="${s.url}/other/thing/issues/3" class="ref-issue" rel="nofollow">other/thing#3</a>`);
      expect(r.text).toContain(`<a href="${s.url}/${bob.name}" class="mention" rel="nofollow">@${bob.name}</a>`);
      expect(r.text).toContain('and @nobody');
      expect(r.text).toContain(`<a href="${base}/commit/${sha}" class="commit" rel="nofollow"><code class="nohighlight">${sha.slice(0, 10)}</code></a>`);
    });

    it('does not link bare issue numbers in gfm mode, nor anything in markdown mode', async () => {
      const gfm = await md({ Text: `#7 @${bob.name}`, Mode: 'gfm', Context: repo.full_name });
      expect(gfm.text).toBe(`<p>#7 <a href="${s.url}/${bob.name}" class="mention" rel="nofollow">@${bob.name}</a></p>\n`);
      const plain = await md({ Text: `#7 @${bob.name}`, Mode: 'markdown', Context: repo.full_name });
      expect(plain.text).toBe(`<p>#7 @${bob.name}</p>\n`);
    });

    it('does not treat a private repository the caller cannot see as Context', async () => {
      const r = await md({ Text: 'see #7', Mode: 'comment', Context: privateRepo });
      expect(r.text).toBe('<p>see #7</p>\n');
      const own = await md({ Text: 'see #7', Mode: 'comment', Context: privateRepo }, bob.token);
      expect(own.text).toBe(`<p>see <a href="${s.url}/${privateRepo}/issues/7" class="ref-issue" rel="nofollow">#7</a></p>\n`);
    });

    it('resolves relative links against Context and wiki links under the wiki', async () => {
      const r = await md({ Text: '[doc](docs/a.md) ![p](img.png)', Mode: 'gfm', Context: 'gogits/gogs' });
      expect(r.text).toBe(
        `<p><a href="${s.url}/gogits/gogs/docs/a.md" rel="nofollow">doc</a> ` +
          `<a href="${s.url}/gogits/gogs/img.png" target="_blank" rel="nofollow noopener"><img src="${s.url}/gogits/gogs/img.png" alt="p"/></a></p>\n`,
      );
      const wiki = await md({ Text: '[Home](Home) [[Configuration]]', Mode: 'gfm', Context: 'gogits/gogs', Wiki: true });
      expect(wiki.text).toBe(
        `<p><a href="${s.url}/gogits/gogs/wiki/Home" rel="nofollow">Home</a> <a href="${s.url}/gogits/gogs/wiki/Configuration" rel="nofollow">Configuration</a></p>\n`,
      );
      // Plain markdown mode has no wiki syntax (BEHAVIOUR 8.2).
      const plain = await md({ Text: '[[Name|Link]]', Mode: 'markdown', Context: 'gogits/gogs', Wiki: true });
      expect(plain.text).toBe('<p>[[Name|Link]]</p>\n');
    });

    it('renders hostile input inert', async () => {
      const r = await md({ Text: '[x](javascript:alert(1)) <script>alert(1)</script><img src="x.png" onerror="alert(1)"> <a href="vbscript:x">v</a>', Mode: 'gfm' });
      expect(r.status).toBe(200);
      expect(r.text).not.toMatch(/script|onerror|alert\(1\)"|vbscript/i);
      expect(r.text).toContain('<a rel="nofollow">x</a>');
    });

    it('refuses text over [markdown] MAX_INPUT_SIZE with 413', async () => {
      const r = await md({ Text: 'x'.repeat(MAX + 1), Mode: 'markdown' });
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ message: `the text to render is larger than ${MAX} bytes`, url: `${s.url}/api/swagger` });
      // Bytes, not characters: 2 048 two-byte characters are 4 096 bytes, one more is over.
      expect((await md({ Text: 'é'.repeat(MAX / 2) })).status).toBe(200);
      expect((await md({ Text: 'é'.repeat(MAX / 2 + 1) })).status).toBe(413);
    });

    it('accepts a token of any scope, public-only included (no scope category applies)', async () => {
      const narrow = await s.createUser({ scopes: ['public-only', 'read:misc'] });
      const r = await md({ Text: '*x*' }, narrow.token);
      expect(r.status).toBe(200);
      expect(r.text).toBe('<p><em>x</em></p>\n');
      const other = await s.createUser({ scopes: ['read:notification'] });
      expect((await markup({ Text: '*x*', Mode: 'gfm' }, other.token)).text).toBe('<p><em>x</em></p>\n');
    });

    it('needs a signed-in caller', async () => {
      const r = await s.client.post('/markdown', { Text: 'x' });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ message: 'token is required', url: `${s.url}/api/swagger` });
    });

    it('answers 422 for a malformed body', async () => {
      const r = await s.client.post<{ message: string }>('/markdown', '{"Text": ', { token: alice.token });
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(/invalid JSON body/);
      const wrong = await s.client.post<{ message: string }>('/markdown', { Text: 5 }, { token: alice.token });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual({ message: '[Text]: must be string', url: `${s.url}/api/swagger` });
    });
  });

  describe('renderMarkdownRaw', () => {
    it('renders the request body as markdown, whatever its content type', async () => {
      const r = await s.client.post<string>('/markdown/raw', '- [ ] todo\n- [x] done', { token: alice.token, contentType: 'text/plain' });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.text).toBe(
        '<ul>\n<li class="task-list-item"><input type="checkbox" disabled="" data-source-position="3"/> todo</li>\n' +
          '<li class="task-list-item"><input type="checkbox" disabled="" checked="" data-source-position="14"/> done</li>\n</ul>\n',
      );
      const json = await s.client.post<string>('/markdown/raw', '{"a": "*b*"}', { token: alice.token, contentType: 'application/json' });
      expect(json.status).toBe(200);
      expect(json.text).toBe('<p>{&quot;a&quot;: &quot;<em>b</em>&quot;}</p>\n');
    });

    it('refuses a body over the limit and anonymous callers', async () => {
      const big = await s.client.post('/markdown/raw', 'y'.repeat(MAX + 10), { token: alice.token, contentType: 'text/plain' });
      expect(big.status).toBe(413);
      expect(big.body).toEqual({ message: `the text to render is larger than ${MAX} bytes`, url: `${s.url}/api/swagger` });
      const anon = await s.client.post('/markdown/raw', 'x', { contentType: 'text/plain' });
      expect(anon.status).toBe(401);
    });
  });

  describe('renderMarkup', () => {
    it('renders the markdown modes', async () => {
      const r = await markup({ Text: 'a\nb', Mode: 'comment' });
      expect(r.status).toBe(200);
      expect(r.text).toBe('<p>a<br/>\nb</p>\n');
      const m = await markup({ text: '~~gone~~', mode: 'markdown' });
      expect(m.text).toBe('<p><del>gone</del></p>\n');
    });

    it('renders markdown files in file mode, by extension', async () => {
      const r = await markup({ Text: '## Title', Mode: 'file', FilePath: 'docs/README.MD' });
      expect(r.status).toBe(200);
      expect(r.text).toBe('<h2 id="user-content-title">Title</h2>\n');
      const bad = await markup({ Text: 'x', Mode: 'file', FilePath: 'a.unknown' });
      expect(bad.status).toBe(422);
      expect(bad.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(bad.text).toBe('Unsupported render extension: .unknown\n');
    });

    it('refuses an unknown mode with a plain-text 422, but only for non-empty text', async () => {
      const r = await markup({ Text: 'x', Mode: 'nonsense' });
      expect(r.status).toBe(422);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(r.text).toBe('Unknown mode: nonsense\n');
      const noMode = await markup({ Text: 'x' });
      expect(noMode.status).toBe(422);
      expect(noMode.text).toBe('Unknown mode: \n');
      const empty = await markup({ Text: '', Mode: 'nonsense' });
      expect(empty.status).toBe(200);
      expect(empty.text).toBe('');
    });

    it('refuses oversized text and anonymous callers', async () => {
      const r = await markup({ Text: 'z'.repeat(MAX + 1), Mode: 'gfm' });
      expect(r.status).toBe(413);
      const anon = await s.client.post('/markup', { Text: 'x', Mode: 'gfm' });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({ message: 'token is required', url: `${s.url}/api/swagger` });
    });
  });
});
