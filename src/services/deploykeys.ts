import { AppError, notFound } from '../domain/errors.js';
import { AccessMode } from '../domain/repo.js';
import { parsePublicKey, PublicKeyError } from '../domain/sshkey.js';
import { isUniqueViolation } from '../db/index.js';
import * as deployKeysDb from '../db/deploykeys.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import type { RepoAccess } from './repos.js';

export type { DeployKeyRecord } from '../db/deploykeys.js';

export function createDeployKeyService(deps: ServiceDeps) {
  const { db } = deps;

  /** Gitea's reqAdmin on the /keys routes. */
  function requireAdmin(access: RepoAccess): void {
    if (access.mode < AccessMode.admin) throw new AppError('forbidden', 'user should be an owner or a collaborator with admin write of a repository');
  }

  async function list(access: RepoAccess, paging: Paging, filter: { keyId?: number | undefined; fingerprint?: string | undefined }) {
    requireAdmin(access);
    return deployKeysDb.listDeployKeys(db, access.repo.id, { keyId: filter.keyId, fingerprint: filter.fingerprint || undefined, offset: paging.offset, limit: paging.limit });
  }

  /**
   * Adds a deploy key (Gitea's AddDeployKey): the public key row is shared by every repository using the key;
   * a key already registered as a user's key is refused, as are the same key or title twice on one repository.
   */
  async function add(access: RepoAccess, title: string, key: string, readOnly: boolean) {
    requireAdmin(access);
    const name = title.trim();
    if (name === '') throw new AppError('validation', '[Title]: Required');
    if ([...name].length > 50) throw new AppError('validation', '[Title]: MaxSize');
    let parsed;
    try {
      parsed = parsePublicKey(key);
    } catch (e) {
      if (e instanceof PublicKeyError) throw new AppError('validation', e.message);
      throw e;
    }
    const mode = readOnly ? AccessMode.read : AccessMode.write;
    const now = unixNow(deps);
    const repoId = access.repo.id;
    let id: number;
    try {
      id = await db.transaction().execute(async (trx) => {
        const existing = await deployKeysDb.publicKeyByFingerprint(trx, parsed.fingerprint);
        if (existing && existing.type !== 2) throw new AppError('validation', 'Key content has been used as non-deploy key');
        const keyId =
          existing?.id ??
          (await deployKeysDb.insertDeployPublicKey(trx, {
            ownerId: access.owner.id,
            name,
            fingerprint: parsed.fingerprint,
            content: parsed.content,
            keyTypeName: parsed.type,
            readOnly,
            now,
          }));
        const conflict = await deployKeysDb.deployKeyConflict(trx, keyId, repoId, name);
        if (conflict === 'key') throw new AppError('validation', 'This key has already been added to this repository');
        if (conflict === 'name') throw new AppError('validation', 'A key with the same name already exists');
        return deployKeysDb.insertDeployKey(trx, { keyId, repoId, name, fingerprint: parsed.fingerprint, mode, now });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('validation', 'This key has already been added to this repository');
      throw e;
    }
    return (await deployKeysDb.getDeployKey(db, id))!;
  }

  /** A deploy key of this repository; another repository's key is 404 (Gitea). */
  async function get(access: RepoAccess, id: number) {
    requireAdmin(access);
    const key = await deployKeysDb.getDeployKey(db, id);
    if (!key || key.repoId !== access.repo.id) throw notFound();
    return key;
  }

  /** Gitea: an unknown id is a success; another repository's key is 403. */
  async function remove(access: RepoAccess, id: number): Promise<void> {
    requireAdmin(access);
    const key = await deployKeysDb.getDeployKey(db, id);
    if (!key) return;
    if (key.repoId !== access.repo.id) throw new AppError('forbidden', 'You do not have access to this key');
    await db.transaction().execute((trx) => deployKeysDb.deleteDeployKey(trx, key.id, key.keyId));
  }

  return { list, add, get, remove };
}

export type DeployKeyService = ReturnType<typeof createDeployKeyService>;
