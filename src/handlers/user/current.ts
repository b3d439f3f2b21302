import { type Handler, requireDoer } from '../kit.js';
import { toApiUser } from '../../convert/user.js';

export const userGetCurrent: Handler<'userGetCurrent'> = async (ctx) => {
  const me = requireDoer(ctx);
  return { status: 200, body: toApiUser(me, me, ctx.services.config) };
};
