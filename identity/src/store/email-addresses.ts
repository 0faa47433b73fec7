import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { EmailAddressRow, VerificationState } from './rows.ts';

/** One of the user's own addresses, locked for the request; another user's is as good as missing. */
export async function findOwnEmailAddress(
  db: Queryable,
  userId: string,
  id: string,
): Promise<EmailAddressRow | null> {
  const [row] = await db.query<EmailAddressRow>(
    'SELECT * FROM email_addresses WHERE id = $1 AND user_id = $2 FOR UPDATE',
    [id, userId],
  );
  return row ?? null;
}

/** An address added from the profile: unverified until its emailed code comes back. */
export async function insertUnverifiedEmailAddress(
  db: Queryable,
  userId: string,
  email: string,
  now: Date,
): Promise<EmailAddressRow> {
  const [row] = await db.query<EmailAddressRow>(
    `INSERT INTO email_addresses (id, user_id, email_address, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) RETURNING *`,
    [newId('idn'), userId, email, now],
  );
  return row!;
}

export async function setEmailVerification(
  db: Queryable,
  id: string,
  verification: VerificationState,
  now: Date,
): Promise<EmailAddressRow> {
  const [row] = await db.query<EmailAddressRow>(
    'UPDATE email_addresses SET verification = $2, updated_at = $3 WHERE id = $1 RETURNING *',
    [id, JSON.stringify(verification), now],
  );
  return row!;
}

export async function markEmailVerified(
  db: Queryable,
  id: string,
  strategy: string,
  now: Date,
): Promise<EmailAddressRow> {
  const [row] = await db.query<EmailAddressRow>(
    `UPDATE email_addresses SET verified_at = $2, verification_strategy = $3, verification = NULL, updated_at = $2
     WHERE id = $1 RETURNING *`,
    [id, now, strategy],
  );
  return row!;
}

/** One of the user's own addresses, read without a lock; another user's is as good as missing. */
export async function findOwnEmailAddressUnlocked(
  db: Queryable,
  userId: string,
  id: string,
): Promise<EmailAddressRow | null> {
  const [row] = await db.query<EmailAddressRow>(
    'SELECT * FROM email_addresses WHERE id = $1 AND user_id = $2',
    [id, userId],
  );
  return row ?? null;
}

/** Every address of the user, in no particular order. */
export async function emailAddressesOfUser(db: Queryable, userId: string): Promise<EmailAddressRow[]> {
  return db.query<EmailAddressRow>('SELECT * FROM email_addresses WHERE user_id = $1', [userId]);
}

/** The user's verified addresses but `exceptId`, oldest first. */
export async function otherVerifiedEmailAddresses(
  db: Queryable,
  userId: string,
  exceptId: string,
): Promise<EmailAddressRow[]> {
  return db.query<EmailAddressRow>(
    `SELECT * FROM email_addresses WHERE user_id = $1 AND id <> $2 AND verified_at IS NOT NULL
       ORDER BY created_at, id`,
    [userId, exceptId],
  );
}

export async function deleteEmailAddress(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM email_addresses WHERE id = $1', [id]);
}

/** The new user's address was verified by an invitation's ticket. */
export async function markEmailVerifiedByTicket(
  db: Queryable,
  userId: string,
  email: string | null,
): Promise<void> {
  await db.query(
    `UPDATE email_addresses SET verification_strategy = 'ticket' WHERE user_id = $1 AND lower(email_address) = lower($2)`,
    [userId, email],
  );
}
