import type { Db } from './index.js';
import type { PublicKeyRecord } from '../domain/records.js';
export type { PublicKeyRecord };

export const USER_KEY = 1;
export const DEPLOY_KEY = 2;

type KeyRow = {
  id: number;
  owner_id: number;
  name: string;
  fingerprint: string;
  content: string;
  key_type_name: string;
  type: number;
  read_only: number;
  created_unix: number;
  updated_unix: number;
};
const toRecord = (r: KeyRow): PublicKeyRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  fingerprint: r.fingerprint,
  content: r.content,
  keyTypeName: r.key_type_name,
  type: r.type,
  readOnly: !!r.read_only,
  createdUnix: r.created_unix,
  updatedUnix: r.updated_unix,
});

/** Inserts a public_key row: type 1 user key, 2 deploy key (shared by the repositories that use it). */
export async function insertPublicKey(
  db: Db,
  type: typeof USER_KEY | typeof DEPLOY_KEY,
  k: { ownerId: number; name: string; fingerprint: string; content: string; keyTypeName: string; readOnly: boolean; now: number },
): Promise<number> {
  const r = await db
    .insertInto('public_key')
    .values({
      owner_id: k.ownerId,
      name: k.name,
      fingerprint: k.fingerprint,
      content: k.content,
      key_type_name: k.keyTypeName,
      type,
      read_only: k.readOnly ? 1 : 0,
      created_unix: k.now,
      updated_unix: k.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export const insertUserKey = (db: Db, k: Parameters<typeof insertPublicKey>[2]): Promise<number> => insertPublicKey(db, USER_KEY, k);

export async function getKey(db: Db, id: number): Promise<PublicKeyRecord | undefined> {
  const r = await db.selectFrom('public_key').selectAll().where('id', '=', id).executeTakeFirst();
  return r && toRecord(r);
}

export async function fingerprintInUse(db: Db, fingerprint: string): Promise<boolean> {
  return !!(await db.selectFrom('public_key').select('id').where('fingerprint', '=', fingerprint).executeTakeFirst());
}

export async function keyTitleInUse(db: Db, ownerId: number, name: string): Promise<boolean> {
  return !!(await db.selectFrom('public_key').select('id').where('owner_id', '=', ownerId).where('name', '=', name).where('type', '=', USER_KEY).executeTakeFirst());
}

export async function listUserKeys(
  db: Db,
  ownerId: number,
  opts: { fingerprint?: string; offset: number; limit: number },
): Promise<{ keys: PublicKeyRecord[]; total: number }> {
  let base = db.selectFrom('public_key').where('owner_id', '=', ownerId).where('type', '=', USER_KEY);
  if (opts.fingerprint) base = base.where('fingerprint', '=', opts.fingerprint);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('id').limit(opts.limit).offset(opts.offset).execute();
  return { keys: rows.map(toRecord), total: Number(total.n) };
}

export async function deleteKey(db: Db, id: number): Promise<void> {
  await db.deleteFrom('public_key').where('id', '=', id).execute();
}
