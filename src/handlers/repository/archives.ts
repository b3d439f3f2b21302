import type { Handler } from '../kit.js';

/** `attachment; filename="..."; filename*=UTF-8''...`, as Gitea's ServeContentByReadSeeker sends it. */
function attachment(name: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/[\x00-\x1f\x7f]/gu, '_');
  const quoted = Buffer.from(safe.replaceAll('\\', '\\\\').replaceAll('"', '\\"'), 'utf8').toString('latin1');
  return `attachment; filename="${quoted}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}

export const repoGetArchive: Handler<'repoGetArchive'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const a = await ctx.services.archives.get(access, ctx.path.archive);
  return {
    status: 200,
    body: a.stream,
    headers: {
      'Content-Type': a.contentType,
      'Content-Length': String(a.size),
      'Content-Disposition': attachment(a.filename),
      'Last-Modified': a.modified.toUTCString(),
      'Access-Control-Expose-Headers': 'Content-Disposition',
    },
  };
};

export const repoGetEditorConfig: Handler<'repoGetEditorConfig'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  return { status: 200, body: await ctx.services.codeInfo.editorConfig(access, ctx.path.filepath, ctx.query.ref) };
};

export const repoGetLanguages: Handler<'repoGetLanguages'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  return { status: 200, body: await ctx.services.codeInfo.languages(access) };
};
