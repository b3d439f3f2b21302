import type { Handler } from '../kit.js';

export const listGitignoresTemplates: Handler<'listGitignoresTemplates'> = async (ctx) => ({
  status: 200,
  body: ctx.services.templates.gitignoreNames(),
});

export const getGitignoreTemplateInfo: Handler<'getGitignoreTemplateInfo'> = async (ctx) => ({
  status: 200,
  body: ctx.services.templates.gitignore(ctx.path.name),
});

const licenseUrl = (rootUrl: string, name: string) => `${rootUrl}api/v1/licenses/${encodeURIComponent(name)}`;

export const listLicenseTemplates: Handler<'listLicenseTemplates'> = async (ctx) => {
  const root = ctx.services.config.server.rootUrl;
  return { status: 200, body: ctx.services.templates.licenseNames().map((n) => ({ key: n, name: n, url: licenseUrl(root, n) })) };
};

export const getLicenseTemplateInfo: Handler<'getLicenseTemplateInfo'> = async (ctx) => {
  const { name, body } = ctx.services.templates.license(ctx.path.name);
  return {
    status: 200,
    body: {
      key: name,
      name,
      url: licenseUrl(ctx.services.config.server.rootUrl, name),
      body,
      implementation: 'Create a text file (typically named LICENSE or LICENSE.md) in the root of your source code and copy the text of the license into the file',
    },
  };
};

export const listLabelTemplates: Handler<'listLabelTemplates'> = async (ctx) => ({
  status: 200,
  body: ctx.services.templates.labelTemplateNames(),
});

export const getLabelTemplateInfo: Handler<'getLabelTemplateInfo'> = async (ctx) => ({
  status: 200,
  body: ctx.services.templates.labelTemplate(ctx.path.name).map((l) => ({ ...l })),
});
