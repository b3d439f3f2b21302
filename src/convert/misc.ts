import type { Complete, Schemas } from '../handlers/kit.js';
import type { EmailRecord, EmailSearchRow, TokenRecord } from '../domain/records.js';
import type { User } from '../domain/user.js';

export function toApiEmail(e: EmailRecord, owner: User): Complete<Schemas['Email']> {
  return { email: e.email, verified: e.isActivated, primary: e.isPrimary, user_id: owner.id, username: owner.name };
}

export function toApiEmailSearch(e: EmailSearchRow): Complete<Schemas['Email']> {
  return { email: e.email, verified: e.isActivated, primary: e.isPrimary, user_id: e.uid, username: e.username };
}

/** A listed token never carries its secret: sha1 is empty (Gitea does the same). */
export function toApiToken(t: TokenRecord): Complete<Schemas['AccessToken']> {
  return { id: t.id, name: t.name, sha1: '', token_last_eight: t.tokenLastEight, scopes: t.scope.split(',').filter((s) => s !== '') };
}
