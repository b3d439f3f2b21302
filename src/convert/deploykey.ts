import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import type { DeployKeyRecord } from '../domain/deploykey.js';
import type { User } from '../domain/user.js';
import { isoTime } from './time.js';
import { toApiRepo, type RepoView } from './repo.js';

type ApiDeployKey = Schemas['DeployKey'];

/**
 * Gitea's convert.ToDeployKey; with `withRepository` (site administrators and the repository's owner, as
 * Gitea's appendPrivateInformation) the repository is added with the key's own access mode as permissions.
 */
export function toApiDeployKey(key: DeployKeyRecord, view: RepoView, viewer: User | null, config: Config, withRepository: boolean): ApiDeployKey {
  const base: Complete<Omit<ApiDeployKey, 'repository'>> = {
    id: key.id,
    key_id: key.keyId,
    key: key.content,
    url: `${config.server.rootUrl}api/v1/repos/${view.owner.name}/${view.repo.name}/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: isoTime(key.createdUnix),
    read_only: key.mode === 1,
  };
  return withRepository ? { ...base, repository: toApiRepo({ repo: view.repo, owner: view.owner, mode: key.mode }, viewer, config) } : base;
}
