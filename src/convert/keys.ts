import type { Complete, Schemas } from '../handlers/kit.js';
import type { PublicKeyRecord } from '../domain/records.js';
import type { User } from '../domain/user.js';
import type { Config } from '../config/index.js';
import { isoTime } from './time.js';
import { toApiUser } from './user.js';

export function toApiPublicKey(key: PublicKeyRecord, owner: User, viewer: User | null, config: Config): Complete<Schemas['PublicKey']> {
  return {
    id: key.id,
    key: key.content,
    url: `${config.server.rootUrl}api/v1/user/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: isoTime(key.createdUnix),
    read_only: key.readOnly,
    key_type: 'user',
    user: toApiUser(owner, viewer, config),
  };
}
