import { type Handler, requireDoer } from '../kit.js';
import { toApiUserSettings } from '../../convert/user.js';

// Gitea's description says these answer an array; its handlers answer one object, which is what clients decode.
export const getUserSettings: Handler<'getUserSettings'> = async (ctx) => {
  return { status: 200, body: toApiUserSettings(requireDoer(ctx)) };
};

export const updateUserSettings: Handler<'updateUserSettings'> = async (ctx) => {
  const b = ctx.body;
  const user = await ctx.services.users.updateSettings(requireDoer(ctx), {
    fullName: b.full_name,
    website: b.website,
    description: b.description,
    location: b.location,
    language: b.language,
    theme: b.theme,
    diffViewStyle: b.diff_view_style,
    hideEmail: b.hide_email,
    hideActivity: b.hide_activity,
  });
  return { status: 200, body: toApiUserSettings(user) };
};
