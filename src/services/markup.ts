import { extname } from 'node:path';
import { AppError } from '../domain/errors.js';
import type { Actor } from '../domain/user.js';
import * as usersDb from '../db/users.js';
import type { RenderKind } from '../markup/index.js';
import type { ServiceDeps } from './context.js';
import type { RepoService } from './repos.js';

type MarkupModule = typeof import('../markup/index.js');

/** What one render request asks for, after the route's own defaults. */
export interface RenderInput {
  readonly text: string;
  /** The API's Mode as sent. */
  readonly mode: string;
  readonly context: string;
  readonly wiki: boolean;
  readonly filePath?: string | undefined;
}

/** At most this many shas per document are checked against the repository (one batch process). */
const MAX_SHA_LOOKUPS = 50;

/**
 * Rendering for /markdown, /markdown/raw and /markup: mode rules, the Context base URL, and the
 * lookups that decide which mentions and commit shas become links (batched: one query, one
 * `cat-file --batch-check` pipeline). The rendering itself is pure (markup/).
 */
export function createMarkupService(deps: ServiceDeps, repos: RepoService) {
  const { db, config } = deps;
  // marked and sanitize-html (with its CSS parser) are loaded on the first render, not at start-up: most
  // processes never render, and they cost start time and several MB of resident memory.
  let markupModule: Promise<{ renderer: ReturnType<MarkupModule['createMarkupRenderer']>; m: MarkupModule }> | undefined;
  const markup = () => (markupModule ??= import('../markup/index.js').then((m) => ({ renderer: m.createMarkupRenderer(), m })));
  const appUrl = config.server.rootUrl;
  const appOrigin = new URL(appUrl).origin;
  const appSubUrl = new URL(appUrl).pathname.replace(/\/$/, '');

  function checkSize(text: string): void {
    const max = config.markdown.maxInputBytes;
    // A UTF-16 unit is at most 3 UTF-8 bytes: count bytes only when the text may be over the limit.
    if (text.length * 3 > max && Buffer.byteLength(text, 'utf8') > max) {
      throw new AppError('payload_too_large', `the text to render is larger than ${max} bytes`);
    }
  }

  /**
   * Gitea's link base: Context under the site's sub-path or an absolute http(s) URL is used as is;
   * anything else is joined onto the site URL ("owner/repo" -> "<ROOT_URL>owner/repo/").
   */
  function baseFor(context: string): { base: string; path: string | null } {
    const c = context.trim();
    let base: string;
    if (/^https?:\/\//i.test(c)) base = c;
    else if (c.startsWith(`${appSubUrl}/`)) base = appOrigin + c;
    else base = appUrl + c.replace(/^\/+/, '');
    try {
      const u = new URL(base.endsWith('/') ? base : `${base}/`);
      // A repository is only looked for on our own site.
      const path = u.origin === appOrigin && u.pathname.startsWith(`${appSubUrl}/`) ? u.pathname.slice(appSubUrl.length + 1) : null;
      return { base: u.href, path };
    } catch {
      return { base: appUrl, path: null };
    }
  }

  /** The repository named by the first two segments of Context, if the caller can see it. */
  async function contextRepo(path: string | null, actor: Actor) {
    const [owner, name] = (path ?? '').split('/');
    if (!owner || !name) return undefined;
    try {
      return await repos.resolve(decodeURIComponent(owner), decodeURIComponent(name), actor);
    } catch (e) {
      if (e instanceof AppError || e instanceof URIError) return undefined;
      throw e;
    }
  }

  async function existingCommits(repoId: number, shas: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    if (shas.length === 0) return found;
    const reader = deps.catFile.get(repos.repoPath(repoId));
    const infos = await Promise.all(shas.slice(0, MAX_SHA_LOOKUPS).map((sha) => reader.info(sha).catch(() => null)));
    infos.forEach((info, i) => {
      if (info?.type === 'commit') found.add(shas[i]!);
    });
    return found;
  }

  async function renderAs(kind: RenderKind, input: RenderInput, actor: Actor): Promise<string> {
    const { base, path } = baseFor(input.context);
    const { renderer, m } = await markup();
    if (kind === 'markdown') return renderer.render(input.text, { kind, base, appUrl, wiki: false });
    const candidates = m.scanCandidates(input.text);
    const [repo, accounts] = await Promise.all([
      contextRepo(path, actor),
      usersDb.existingLowerNames(db, candidates.mentions),
    ]);
    // Unlike Gitea, a mention links only an account the caller may see, so rendering does not reveal that a
    // private (or, to anonymous callers, limited) account exists.
    const viewer = actor.user;
    const mentionable = new Set(
      [...accounts]
        .filter(([, a]) => a.visibility === 'public' || (viewer !== null && (viewer.isAdmin || viewer.id === a.id || (a.visibility === 'limited' && !viewer.isRestricted))))
        .map(([name]) => name),
    );
    const repoLink = repo ? `${appUrl}${repo.owner.name}/${repo.repo.name}` : undefined;
    const commits = repo && !repo.repo.isEmpty ? await existingCommits(repo.repo.id, candidates.shas) : undefined;
    return renderer.render(input.text, { kind, base, appUrl, wiki: input.wiki, repoLink, mentionable, commits });
  }

  return {
    /** POST /markdown: comment and gfm as asked, anything else plain markdown (Gitea never refuses a mode here). */
    async renderMarkdown(input: RenderInput, actor: Actor): Promise<string> {
      checkSize(input.text);
      if (input.text === '') return '';
      const kind: RenderKind = input.mode === 'comment' ? 'comment' : input.mode === 'gfm' ? 'document' : 'markdown';
      return renderAs(kind, input, actor);
    },

    /** POST /markup: the mode must be known; file mode picks the renderer by FilePath's extension. */
    async renderMarkup(input: RenderInput, actor: Actor): Promise<string> {
      checkSize(input.text);
      // Gitea answers empty text before looking at the mode.
      if (input.text === '') return '';
      switch (input.mode) {
        case 'markdown':
          return renderAs('markdown', input, actor);
        case 'comment':
          return renderAs('comment', input, actor);
        case 'gfm':
          return renderAs('document', input, actor);
        case 'file': {
          const ext = extname(input.filePath ?? '').toLowerCase();
          if (!(await markup()).m.MARKDOWN_EXTENSIONS.includes(ext)) {
            throw new AppError('validation', `Unsupported render extension: ${ext}\n`, { plainText: true });
          }
          return renderAs('document', input, actor);
        }
        default:
          throw new AppError('validation', `Unknown mode: ${input.mode}\n`, { plainText: true });
      }
    },
  };
}

export type MarkupService = ReturnType<typeof createMarkupService>;
