import { AppError, notFound } from '../domain/errors.js';
import { parsePublicKey, PublicKeyError } from '../domain/sshkey.js';
import type { User } from '../domain/user.js';
import * as keysDb from '../db/keys.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';

export function createKeyService(deps: ServiceDeps) {
  const { db } = deps;

  /** Adds an SSH key to `owner` after parsing it strictly; duplicates anywhere on the site are refused. */
  async function add(owner: User, title: string, key: string, readOnly: boolean) {
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
    if (await keysDb.fingerprintInUse(db, parsed.fingerprint)) throw new AppError('validation', 'Key content has been used as non-deploy key');
    if (await keysDb.keyTitleInUse(db, owner.id, name)) throw new AppError('validation', 'Key title has been used');
    const id = await keysDb.insertUserKey(db, {
      ownerId: owner.id,
      name,
      fingerprint: parsed.fingerprint,
      content: parsed.content,
      keyTypeName: parsed.type,
      readOnly,
      now: unixNow(deps),
    });
    return (await keysDb.getKey(db, id))!;
  }

  const list = (owner: User, paging: Paging, fingerprint?: string) =>
    keysDb.listUserKeys(db, owner.id, { fingerprint: fingerprint || undefined, offset: paging.offset, limit: paging.limit });

  /** A key of `owner`; someone else's key is 404 (it is not revealed). */
  async function getOwn(owner: User, id: number) {
    const key = await keysDb.getKey(db, id);
    if (!key || key.ownerId !== owner.id || key.type !== 1) throw notFound();
    return key;
  }

  /** Deletes key `id` of `owner`; a key that exists but belongs to someone else is 403 (Gitea). */
  async function remove(owner: User, id: number): Promise<void> {
    const key = await keysDb.getKey(db, id);
    if (!key || key.type !== 1) throw notFound();
    if (key.ownerId !== owner.id) throw new AppError('forbidden', 'You do not have access to this key');
    await keysDb.deleteKey(db, id);
  }

  return { add, list, getOwn, remove };
}

export type KeyService = ReturnType<typeof createKeyService>;
