import type { Db } from './index.js';
import type { EmailRecord, EmailSearchRow } from '../domain/records.js';
export type { EmailRecord, EmailSearchRow };

type EmailRow = { id: number; uid: number; email: string; lower_email: string; is_activated: number; is_primary: number };
const toRecord = (r: EmailRow): EmailRecord => ({
  id: r.id,
  uid: r.uid,
  email: r.email,
  isActivated: !!r.is_activated,
  isPrimary: !!r.is_primary,
});

export async function insertEmail(db: Db, e: { uid: number; email: string; activated: boolean; primary: boolean }): Promise<void> {
  await db
    .insertInto('email_address')
    .values({ uid: e.uid, email: e.email, lower_email: e.email.toLowerCase(), is_activated: e.activated ? 1 : 0, is_primary: e.primary ? 1 : 0 })
    .execute();
}

export async function emailOwner(db: Db, email: string): Promise<number | undefined> {
  const r = await db.selectFrom('email_address').select('uid').where('lower_email', '=', email.toLowerCase()).executeTakeFirst();
  return r?.uid;
}

export async function listEmailsOf(db: Db, uid: number): Promise<EmailRecord[]> {
  const rows = await db.selectFrom('email_address').selectAll().where('uid', '=', uid).orderBy('is_primary', 'desc').orderBy('id').execute();
  return rows.map(toRecord);
}

export async function deleteEmailOf(db: Db, uid: number, email: string): Promise<boolean> {
  const r = await db.deleteFrom('email_address').where('uid', '=', uid).where('lower_email', '=', email.toLowerCase()).where('is_primary', '=', 0).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Makes `email` the primary address of `uid` (adding it when new). */
export async function setPrimaryEmail(db: Db, uid: number, email: string): Promise<void> {
  await db.updateTable('email_address').set({ is_primary: 0 }).where('uid', '=', uid).execute();
  const updated = await db
    .updateTable('email_address')
    .set({ is_primary: 1, email, is_activated: 1 })
    .where('uid', '=', uid)
    .where('lower_email', '=', email.toLowerCase())
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await insertEmail(db, { uid, email, activated: true, primary: true });
}

export async function searchEmails(db: Db, keyword: string, offset: number, limit: number): Promise<{ rows: EmailSearchRow[]; total: number }> {
  let base = db.selectFrom('email_address').innerJoin('user', 'user.id', 'email_address.uid');
  if (keyword) {
    const like = `%${keyword.toLowerCase()}%`;
    base = base.where((eb) => eb.or([eb('email_address.lower_email', 'like', like), eb('user.lower_name', 'like', like)]));
  }
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['email_address.email', 'email_address.uid', 'user.name', 'email_address.is_activated', 'email_address.is_primary'])
    .orderBy('email_address.id')
    .limit(limit)
    .offset(offset)
    .execute();
  return {
    total: Number(total.n),
    rows: rows.map((r) => ({ email: r.email, uid: r.uid, username: r.name, isActivated: !!r.is_activated, isPrimary: !!r.is_primary })),
  };
}
