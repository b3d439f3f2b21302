import type { Complete, Schemas } from '../handlers/kit.js';
import { listEvents, type Webhook } from '../domain/webhook.js';
import { isoTime } from './time.js';

/** Gitea's ToHook: url and content_type in config (plus the slack settings); never the secret. */
export function toApiHook(h: Webhook): Complete<Schemas['Hook']> {
  const config: Record<string, string> = { url: h.url, content_type: h.contentType };
  if (h.type === 'slack') {
    config.channel = h.meta.channel ?? '';
    config.username = h.meta.username ?? '';
    config.icon_url = h.meta.icon_url ?? '';
    config.color = h.meta.color ?? '';
  }
  return {
    id: h.id,
    type: h.type,
    branch_filter: h.branchFilter,
    config,
    events: listEvents(h.events),
    // Returned as Gitea does (stored encrypted); the secret is write-only.
    authorization_header: h.authorizationHeader,
    active: h.isActive,
    updated_at: isoTime(h.updatedUnix),
    created_at: isoTime(h.createdUnix),
  };
}
