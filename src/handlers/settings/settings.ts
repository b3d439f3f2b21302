import type { Handler } from '../kit.js';

export const getGeneralAPISettings: Handler<'getGeneralAPISettings'> = async (ctx) => ({ status: 200, body: ctx.services.settings.api() });
export const getGeneralAttachmentSettings: Handler<'getGeneralAttachmentSettings'> = async (ctx) => ({
  status: 200,
  body: ctx.services.settings.attachment(),
});
export const getGeneralRepositorySettings: Handler<'getGeneralRepositorySettings'> = async (ctx) => ({
  status: 200,
  body: ctx.services.settings.repository(),
});
export const getGeneralUISettings: Handler<'getGeneralUISettings'> = async (ctx) => ({ status: 200, body: ctx.services.settings.ui() });
