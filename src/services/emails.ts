import { AppError, notFound } from '../domain/errors.js';
import { emailProblem } from '../domain/names.js';
import type { User } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as emailsDb from '../db/emails.js';
import type { ServiceDeps } from './context.js';
import type { Paging } from './paging.js';

export function createEmailService(deps: ServiceDeps) {
  const { db } = deps;

  const list = (user: User) => emailsDb.listEmailsOf(db, user.id);

  /** Adds addresses (all or none); returns the caller's full list as Gitea does. */
  async function add(user: User, emails: readonly string[]) {
    const wanted = [...new Set(emails.map((e) => e.trim()).filter((e) => e !== ''))];
    if (wanted.length === 0) throw new AppError('validation', 'Email list empty');
    for (const email of wanted) {
      if (emailProblem(email)) throw new AppError('validation', `Email address "${email}" invalid`);
      if ((await emailsDb.emailOwner(db, email)) !== undefined) throw new AppError('validation', `Email address has been used: ${email}`);
    }
    try {
      await db.transaction().execute(async (trx) => {
        for (const email of wanted) await emailsDb.insertEmail(trx, { uid: user.id, email, activated: true, primary: false });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('validation', `Email address has been used: ${wanted.join(', ')}`);
      throw e;
    }
    return list(user);
  }

  /** Removes secondary addresses; an unknown address is 404, the primary one cannot be removed (400). */
  async function remove(user: User, emails: readonly string[]): Promise<void> {
    const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter((e) => e !== ''))];
    if (wanted.length === 0) throw new AppError('validation', 'Email list empty');
    const mine = await emailsDb.listEmailsOf(db, user.id);
    for (const email of wanted) {
      const row = mine.find((m) => m.email.toLowerCase() === email);
      if (!row) throw notFound(`e-mail address does not exist [email: ${email}]`);
      if (row.isPrimary) throw new AppError('bad_request', `the primary e-mail address cannot be deleted [email: ${email}]`);
    }
    await db.transaction().execute(async (trx) => {
      for (const email of wanted) await emailsDb.deleteEmailOf(trx, user.id, email);
    });
  }

  const search = (keyword: string, paging: Paging) => emailsDb.searchEmails(db, keyword, paging.offset, paging.limit);

  return { list, add, remove, search };
}

export type EmailService = ReturnType<typeof createEmailService>;
