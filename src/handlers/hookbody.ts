import type { CreateHookInput, EditHookInput } from '../services/webhooks.js';
import type { Schemas } from './kit.js';

/** CreateHookOption as the webhook service takes it (the same body at every level: repository, org, user, admin). */
export const createHookInput = (b: Schemas['CreateHookOption']): CreateHookInput => ({
  type: b.type,
  config: b.config,
  events: b.events,
  branchFilter: b.branch_filter,
  authorizationHeader: b.authorization_header,
  active: b.active,
});

/** EditHookOption as the webhook service takes it. */
export const editHookInput = (b: Schemas['EditHookOption']): EditHookInput => ({
  config: b.config,
  events: b.events,
  branchFilter: b.branch_filter,
  authorizationHeader: b.authorization_header,
  active: b.active,
});
