import type { Queryable } from '../db/database.ts';
import type { PhoneNumberRow } from './phone-numbers.ts';
import type { EmailAddressRow, TotpSecretRow } from './rows.ts';

/*
 * The reads and writes of `users import` and `users export` (docs/operations.md, "Moving users in and out")
 * beyond what the Backend API's user creation already has (store/admin-users.ts).
 */

/** Whether a user has this id. */
export async function userIdTaken(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM users WHERE id = $1', [id])).length > 0;
}

/** An address the user has not verified yet (as hosted Clerk exports it: "unverified_email_addresses"). */
export async function addUnverifiedEmail(
  tx: Queryable,
  row: { id: string; userId: string; email: string; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO email_addresses (id, user_id, email_address, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
    [row.id, row.userId, row.email, row.now],
  );
}

/** A number the user has not verified yet. */
export async function addUnverifiedPhone(
  tx: Queryable,
  row: { id: string; userId: string; phone: string; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO phone_numbers (id, user_id, phone_number, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
    [row.id, row.userId, row.phone, row.now],
  );
}

/** The columns of a user an export writes. */
export interface ExportedUserRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  password_hash: string | null;
  primary_email_address_id: string | null;
  primary_phone_number_id: string | null;
  created_at: Date;
}

/** One page of users in creation order, after the (created_at, id) of the last one read. */
export async function usersForExport(
  db: Queryable,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<ExportedUserRow[]> {
  return db.query<ExportedUserRow>(
    `SELECT id, first_name, last_name, username, password_hash, primary_email_address_id,
            primary_phone_number_id, created_at
       FROM users
      WHERE $1::timestamptz IS NULL OR (created_at, id) > ($1::timestamptz, $2::text)
      ORDER BY created_at, id
      LIMIT $3`,
    [after?.createdAt ?? null, after?.id ?? null, limit],
  );
}

/** The users' email addresses, phone numbers and verified authenticator apps. */
export async function identifiersForExport(
  db: Queryable,
  userIds: string[],
): Promise<{ emails: EmailAddressRow[]; phones: PhoneNumberRow[]; totp: TotpSecretRow[] }> {
  const emails = await db.query<EmailAddressRow>(
    'SELECT * FROM email_addresses WHERE user_id = ANY($1) ORDER BY created_at, id',
    [userIds],
  );
  const phones = await db.query<PhoneNumberRow>(
    'SELECT * FROM phone_numbers WHERE user_id = ANY($1) ORDER BY created_at, id',
    [userIds],
  );
  const totp = await db.query<TotpSecretRow>(
    'SELECT * FROM totp_secrets WHERE user_id = ANY($1) AND verified_at IS NOT NULL',
    [userIds],
  );
  return { emails, phones, totp };
}
