import type { Handler } from '../kit.js';

const HTML = { 'Content-Type': 'text/html; charset=utf-8' } as const;

export const renderMarkdown: Handler<'renderMarkdown'> = async ({ body, services, actor }) => {
  const html = await services.markup.renderMarkdown(
    { text: body.Text ?? '', mode: body.Mode ?? '', context: body.Context ?? '', wiki: body.Wiki ?? false },
    actor,
  );
  return { status: 200, body: html, headers: HTML };
};

export const renderMarkdownRaw: Handler<'renderMarkdownRaw'> = async ({ body, services, actor }) => {
  const text = typeof body === 'string' ? body : '';
  const html = await services.markup.renderMarkdown({ text, mode: 'markdown', context: '', wiki: false }, actor);
  return { status: 200, body: html, headers: HTML };
};

export const renderMarkup: Handler<'renderMarkup'> = async ({ body, services, actor }) => {
  const html = await services.markup.renderMarkup(
    { text: body.Text ?? '', mode: body.Mode ?? '', context: body.Context ?? '', wiki: body.Wiki ?? false, filePath: body.FilePath },
    actor,
  );
  return { status: 200, body: html, headers: HTML };
};
