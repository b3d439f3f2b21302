import { type Handler, requireDoer } from '../kit.js';
import { toApiEmail } from '../../convert/misc.js';

export const userListEmails: Handler<'userListEmails'> = async (ctx) => {
  const me = requireDoer(ctx);
  const emails = await ctx.services.emails.list(me);
  return { status: 200, body: emails.map((e) => toApiEmail(e, me)) };
};

export const userAddEmail: Handler<'userAddEmail'> = async (ctx) => {
  const me = requireDoer(ctx);
  const emails = await ctx.services.emails.add(me, ctx.body.emails ?? []);
  return { status: 201, body: emails.map((e) => toApiEmail(e, me)) };
};

export const userDeleteEmail: Handler<'userDeleteEmail'> = async (ctx) => {
  await ctx.services.emails.remove(requireDoer(ctx), ctx.body.emails ?? []);
  return { status: 204, body: undefined };
};
