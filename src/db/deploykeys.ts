import type { Db } from './index.js';
import { DEPLOY_KEY, insertPublicKey } from './keys.js';
import type { DeployKeyRecord } from '../domain/deploykey.js';
export type { DeployKeyRecord };


function base(db: Db) {
  return db
    .selectFrom('deploy_key')
    .innerJoin('public_key', 'public_key.id', 'deploy_key.key_id')
    .select([
      'deploy_key.id as id',
      'deploy_key.key_id as key_id',
      'deploy_key.repo_id as repo_id',
      'deploy_key.name as name',
      'deploy_key.fingerprint as fingerprint',
      'deploy_key.mode as mode',
      'deploy_key.created_unix as created_unix',
      'public_key.content as content',
    ]);
}

type Row = { id: number; key_id: number; repo_id: number; name: string; fingerprint: string; mode: number; created_unix: number; content: string };
const toRecord = (r: Row): DeployKeyRecord => ({
  id: r.id,
  keyId: r.key_id,
  repoId: r.repo_id,
  name: r.name,
  fingerprint: r.fingerprint,
  mode: r.mode,
  content: r.content,
  createdUnix: r.created_unix,
});

export async function getDeployKey(db: Db, id: number): Promise<DeployKeyRecord | undefined> {
  const r = await base(db).where('deploy_key.id', '=', id).executeTakeFirst();
  return r && toRecord(r);
}

export async function listDeployKeys(
  db: Db,
  repoId: number,
  opts: { keyId?: number | undefined; fingerprint?: string | undefined; offset: number; limit: number },
): Promise<{ keys: DeployKeyRecord[]; total: number }> {
  let q = db.selectFrom('deploy_key').where('repo_id', '=', repoId);
  if (opts.keyId) q = q.where('key_id', '=', opts.keyId);
  if (opts.fingerprint) q = q.where('fingerprint', '=', opts.fingerprint);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = base(db).where('deploy_key.repo_id', '=', repoId);
  if (opts.keyId) rows = rows.where('deploy_key.key_id', '=', opts.keyId);
  if (opts.fingerprint) rows = rows.where('deploy_key.fingerprint', '=', opts.fingerprint);
  const found = await rows.orderBy('deploy_key.id').limit(opts.limit).offset(opts.offset).execute();
  return { keys: found.map(toRecord), total: Number(total.n) };
}

/** The public_key row with this fingerprint, of any type. */
export async function publicKeyByFingerprint(db: Db, fingerprint: string): Promise<{ id: number; type: number } | undefined> {
  return db.selectFrom('public_key').select(['id', 'type']).where('fingerprint', '=', fingerprint).orderBy('id').executeTakeFirst();
}

/** A new public_key row for a deploy key. */
export const insertDeployPublicKey = (db: Db, k: Parameters<typeof insertPublicKey>[2]): Promise<number> => insertPublicKey(db, DEPLOY_KEY, k);

/** Which of Gitea's checkDeployKey conflicts this link would hit, if any. */
export async function deployKeyConflict(db: Db, keyId: number, repoId: number, name: string): Promise<'key' | 'name' | null> {
  if (await db.selectFrom('deploy_key').select('id').where('key_id', '=', keyId).where('repo_id', '=', repoId).executeTakeFirst()) return 'key';
  if (await db.selectFrom('deploy_key').select('id').where('repo_id', '=', repoId).where('name', '=', name).executeTakeFirst()) return 'name';
  return null;
}

export async function insertDeployKey(db: Db, k: { keyId: number; repoId: number; name: string; fingerprint: string; mode: number; now: number }): Promise<number> {
  const r = await db
    .insertInto('deploy_key')
    .values({ key_id: k.keyId, repo_id: k.repoId, name: k.name, fingerprint: k.fingerprint, mode: k.mode, created_unix: k.now, updated_unix: k.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Removes the link; the public key goes too when no repository uses it any more. */
export async function deleteDeployKey(db: Db, id: number, keyId: number): Promise<void> {
  await db.deleteFrom('deploy_key').where('id', '=', id).execute();
  const left = await db.selectFrom('deploy_key').select('id').where('key_id', '=', keyId).executeTakeFirst();
  if (!left) await db.deleteFrom('public_key').where('id', '=', keyId).where('type', '=', DEPLOY_KEY).execute();
}
