import { requireDoer, type Handler, type HandlerContext, type Schemas } from '../kit.js';
import { toContentsResponse, toFileCommitResponse, toFilesResponse, UNSIGNED, type ContentsContext } from '../../convert/contents.js';
import { AppError } from '../../domain/errors.js';
import { rawServeType } from '../../domain/mime.js';
import type { RepoAccess } from '../../services/repos.js';
import type { ChangeInput, ContentsResult } from '../../services/contents.js';

const fullName = (a: RepoAccess) => `${a.owner.name}/${a.repo.name}`;

function contentsBody(ctx: HandlerContext<'repoGetContents' | 'repoGetContentsList'>, access: RepoAccess, result: ContentsResult, ref: string | undefined) {
  if (!result.at) return [];
  const at: ContentsContext = { fullName: fullName(access), origRef: ref?.trim() || access.repo.defaultBranch, ref: result.at.ref, config: ctx.services.config };
  const items = result.at.items.map((i) => toContentsResponse(i, at));
  return result.kind === 'entry' ? items[0]! : items;
}

export const repoGetContentsList: Handler<'repoGetContentsList'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const result = await ctx.services.contents.getContents(access, '', ctx.query.ref);
  const body = contentsBody(ctx, access, result, ctx.query.ref);
  return { status: 200, body: Array.isArray(body) ? body : [body] };
};

export const repoGetContents: Handler<'repoGetContents'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const result = await ctx.services.contents.getContents(access, ctx.path.filepath, ctx.query.ref);
  // A directory answers an array (ContentsResponseOrList describes both shapes).
  return { status: 200, body: contentsBody(ctx, access, result, ctx.query.ref) as Schemas['ContentsResponseOrList'] };
};

/** The options every file-changing body shares. */
type FileOptions = Schemas['CreateFileOptions'] | Schemas['UpdateFileOptions'] | Schemas['DeleteFileOptions'] | Schemas['ChangeFilesOptions'];

function changeInput(b: FileOptions, files: ChangeInput['files']): ChangeInput {
  return {
    branch: b.branch,
    newBranch: b.new_branch,
    message: b.message,
    author: b.author,
    committer: b.committer,
    dates: b.dates,
    signoff: b.signoff,
    files,
  };
}

export const repoCreateFile: Handler<'repoCreateFile'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const files = [{ operation: 'create' as const, path: ctx.path.filepath, content: ctx.body.content }];
  const result = await ctx.services.contents.change(access, requireDoer(ctx), 'create', changeInput(ctx.body, files));
  const out = toFilesResponse(result, fullName(access), ctx.services.config);
  return { status: 201, body: { content: out.files[0]!, commit: out.commit, verification: out.verification } };
};

export const repoUpdateFile: Handler<'repoUpdateFile'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const files = [{ operation: 'update' as const, path: ctx.path.filepath, fromPath: ctx.body.from_path, content: ctx.body.content, sha: ctx.body.sha }];
  const result = await ctx.services.contents.change(access, requireDoer(ctx), 'update', changeInput(ctx.body, files));
  const out = toFilesResponse(result, fullName(access), ctx.services.config);
  return { status: 200, body: { content: out.files[0]!, commit: out.commit, verification: out.verification } };
};

export const repoDeleteFile: Handler<'repoDeleteFile'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const files = [{ operation: 'delete' as const, path: ctx.path.filepath, sha: ctx.body.sha }];
  const result = await ctx.services.contents.change(access, requireDoer(ctx), 'delete', changeInput(ctx.body, files));
  return {
    status: 200,
    body: { content: null, commit: toFileCommitResponse(result.commit, result.parents, fullName(access), ctx.services.config), verification: UNSIGNED },
  };
};

export const repoChangeFiles: Handler<'repoChangeFiles'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const files = ctx.body.files.map((f) => ({ operation: f.operation, path: f.path, fromPath: f.from_path, content: f.content, sha: f.sha }));
  const result = await ctx.services.contents.change(access, requireDoer(ctx), 'change', changeInput(ctx.body, files));
  return { status: 201, body: toFilesResponse(result, fullName(access), ctx.services.config) };
};

/** Go's url.PathEscape for the filename* parameter. */
const pathEscape = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(24|26|2B|3A|3D|40)/gu, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** `inline; filename="..."; filename*=UTF-8''...` with the name's UTF-8 bytes sent as they are (as Go does), controls removed. */
function contentDisposition(name: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/[\x00-\x1f\x7f]/gu, '_');
  const quoted = Buffer.from(safe.replaceAll('\\', '\\\\').replaceAll('"', '\\"'), 'utf8').toString('latin1');
  return `inline; filename="${quoted}"; filename*=UTF-8''${pathEscape(safe)}`;
}

/** Gitea's checkIfNoneMatchIsValid: any listed tag (weak or not) equal to ours. */
function noneMatch(header: string | string[] | undefined, etag: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return false;
  return value.split(',').some((item) => item.trim().replace(/^W\//u, '') === etag);
}

/**
 * Gitea's minimal Range support: one `bytes=start-end` or `bytes=start-`; a bad start is 416, an end
 * before the start 400, an end past the file clamped. Null: serve the whole file.
 */
function parseRange(header: string | string[] | undefined, size: number): { start: number; end: number } | null {
  if (typeof header !== 'string' || !header.startsWith('bytes=') || size <= 0) return null;
  const spec = header.slice('bytes='.length);
  const dash = spec.indexOf('-');
  const startText = dash < 0 ? spec : spec.slice(0, dash);
  const endText = dash < 0 ? '' : spec.slice(dash + 1);
  const start = /^[+-]?\d{1,15}$/u.test(startText) ? Number(startText) : NaN;
  if (!(start >= 0 && start < size)) {
    throw new AppError('range_not_satisfiable', 'invalid start range', { headers: { 'Content-Range': `bytes */${size}` } });
  }
  let end: number;
  if (endText === '' && dash >= 0) end = size - 1;
  else if (/^[+-]?\d{1,15}$/u.test(endText)) end = Number(endText);
  else throw new AppError('bad_request', 'invalid end range');
  if (end >= size) end = size - 1;
  if (end < start) throw new AppError('bad_request', 'invalid end range');
  return { start, end };
}

async function serveRaw(ctx: HandlerContext<'repoGetRawFile' | 'repoGetRawFileOrLFS'>) {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const blob = await ctx.services.contents.getRaw(access, ctx.path.filepath, ctx.query.ref);
  const etag = `"${blob.sha}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    'X-Gitea-Object-Type': blob.kind,
    'Cache-Control': 'private, max-age=300',
    'X-Content-Type-Options': 'nosniff',
  };
  if (noneMatch(ctx.headers['if-none-match'], etag)) return { status: 304 as const, body: undefined, headers };
  const name = blob.path.slice(blob.path.lastIndexOf('/') + 1);
  const type = rawServeType(name, blob.content);
  headers['Content-Type'] = type.contentType;
  if (type.csp) headers['Content-Security-Policy'] = type.csp;
  headers['Content-Disposition'] = contentDisposition(name);
  headers['Access-Control-Expose-Headers'] = 'Content-Disposition';
  const range = parseRange(ctx.headers.range, blob.content.length);
  if (!range) return { status: 200 as const, body: blob.content, headers };
  headers['Content-Range'] = `bytes ${range.start}-${range.end}/${blob.content.length}`;
  return { status: 206 as const, body: blob.content.subarray(range.start, range.end + 1), headers };
}

export const repoGetRawFile: Handler<'repoGetRawFile'> = (ctx) => serveRaw(ctx);

/** No LFS store exists yet: a pointer file is served as it is, like the raw endpoint. */
export const repoGetRawFileOrLFS: Handler<'repoGetRawFileOrLFS'> = (ctx) => serveRaw(ctx);
