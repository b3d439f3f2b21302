import type { Db } from './index.js';
import { rowToUser } from './users.js';
import type { User } from '../domain/user.js';
import type { TokenRecord } from '../domain/records.js';
export type { TokenRecord };

export async function insertToken(
  db: Db,
  t: { uid: number; name: string; tokenHash: string; tokenLastEight: string; scope: string; now: number },
): Promise<number> {
  const r = await db
    .insertInto('access_token')
    .values({
      uid: t.uid,
      name: t.name,
      token_hash: t.tokenHash,
      token_last_eight: t.tokenLastEight,
      scope: t.scope,
      created_unix: t.now,
      updated_unix: t.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** The token and its owner in one query (the hot path of every token-authenticated request). */
export async function findTokenWithOwner(db: Db, tokenHash: string): Promise<{ tokenId: number; scope: string; updatedUnix: number; user: User } | undefined> {
  const r = await db
    .selectFrom('access_token')
    .innerJoin('user', 'user.id', 'access_token.uid')
    .selectAll('user')
    .select(['access_token.id as token_id', 'access_token.scope as token_scope', 'access_token.updated_unix as token_updated'])
    .where('access_token.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!r) return undefined;
  const { token_id, token_scope, token_updated, ...userRow } = r;
  return { tokenId: token_id, scope: token_scope, updatedUnix: token_updated, user: rowToUser(userRow) };
}

export async function touchToken(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('access_token').set({ updated_unix: now }).where('id', '=', id).execute();
}

export async function listTokens(db: Db, uid: number, offset: number, limit: number): Promise<{ tokens: TokenRecord[]; total: number }> {
  const base = db.selectFrom('access_token').where('uid', '=', uid);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['id', 'uid', 'name', 'token_last_eight', 'scope', 'created_unix', 'updated_unix'])
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return {
    total: Number(total.n),
    tokens: rows.map((r) => ({
      id: r.id,
      uid: r.uid,
      name: r.name,
      tokenLastEight: r.token_last_eight,
      scope: r.scope,
      createdUnix: r.created_unix,
      updatedUnix: r.updated_unix,
    })),
  };
}

export async function tokenNameExists(db: Db, uid: number, name: string): Promise<boolean> {
  const r = await db.selectFrom('access_token').select('id').where('uid', '=', uid).where('name', '=', name).executeTakeFirst();
  return !!r;
}

/**
 * Tokens of `uid` matching `idOrName` (Gitea accepts either in the path): a numeric value is an id first,
 * so a token whose name is another token's id does not make the request ambiguous; otherwise by name.
 */
export async function findTokensByIdOrName(db: Db, uid: number, idOrName: string): Promise<number[]> {
  const base = db.selectFrom('access_token').select('id').where('uid', '=', uid);
  // Only ids that fit the column are looked up (PostgreSQL refuses larger bigint literals).
  const asId = /^\d{1,15}$/.test(idOrName) ? Number(idOrName) : undefined;
  if (asId !== undefined) {
    const byId = await base.where('id', '=', asId).executeTakeFirst();
    if (byId) return [byId.id];
  }
  return (await base.where('name', '=', idOrName).execute()).map((r) => r.id);
}

export async function deleteToken(db: Db, id: number): Promise<void> {
  await db.deleteFrom('access_token').where('id', '=', id).execute();
}
