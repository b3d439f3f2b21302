import type { Handler } from '../kit.js';
import { toApiEmailSearch } from '../../convert/misc.js';

export const adminGetAllEmails: Handler<'adminGetAllEmails'> = async (ctx) => {
  const { rows, total } = await ctx.services.emails.search('', ctx.paging());
  return { status: 200, body: rows.map(toApiEmailSearch), total, link: true };
};

export const adminSearchEmails: Handler<'adminSearchEmails'> = async (ctx) => {
  const { rows, total } = await ctx.services.emails.search(ctx.query.q?.trim() ?? '', ctx.paging());
  return { status: 200, body: rows.map(toApiEmailSearch), total, link: true };
};
