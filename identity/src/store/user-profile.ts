import type { Queryable } from '../db/database.ts';
import type { UserRow } from './rows.ts';

/**
 * What the account itself changes on its user row from the profile pages (`/me`): names, username,
 * primary addresses, password, metadata, the account's deletion.
 */

/** Whether another user (not `exceptUserId`) already has this username. */
export async function usernameTaken(
  db: Queryable,
  username: string,
  exceptUserId: string | null = null,
): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM users WHERE lower(username) = lower($1) AND ($2::text IS NULL OR id <> $2)',
    [username, exceptUserId],
  );
  return rows.length > 0;
}

export type ProfileChanges = Partial<
  Pick<
    UserRow,
    'first_name' | 'last_name' | 'username' | 'primary_email_address_id' | 'primary_phone_number_id'
  >
> & { unsafe_metadata?: Record<string, unknown> };

/** Sets the fields given, in the order given. A username another user took meanwhile fails as 23505. */
export async function updateProfile(
  tx: Queryable,
  userId: string,
  changes: ProfileChanges,
  now: Date,
): Promise<void> {
  const keys = Object.keys(changes) as (keyof ProfileChanges)[];
  await tx.query(
    `UPDATE users SET ${[...keys.map((k, i) => `${k} = $${i + 3}`), 'updated_at = $2'].join(', ')} WHERE id = $1`,
    [userId, now, ...keys.map((k) => (k === 'unsafe_metadata' ? JSON.stringify(changes[k]) : changes[k]))],
  );
}

/** A new password, which also answers an operator's demand for one. */
export async function replacePassword(
  tx: Queryable,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE users SET password_hash = $2, password_updated_at = $3, password_reset_required = false,
         updated_at = $3 WHERE id = $1`,
    [userId, passwordHash, now],
  );
}

/**
 * The same password, hashed again with our argon2id (an imported digest after its first right password);
 * only if the hash is still the one checked. Not a password change: `password_updated_at` stays.
 */
export async function upgradePasswordHash(
  tx: Queryable,
  userId: string,
  checkedHash: string,
  newHash: string,
): Promise<void> {
  await tx.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [
    userId,
    checkedHash,
    newHash,
  ]);
}

export async function removePassword(tx: Queryable, userId: string, now: Date): Promise<void> {
  await tx.query(
    'UPDATE users SET password_hash = NULL, password_updated_at = $2, updated_at = $2 WHERE id = $1',
    [userId, now],
  );
}

/** Sessions, addresses and attempts go with the user (ON DELETE CASCADE). */
export async function deleteUser(tx: Queryable, userId: string): Promise<void> {
  await tx.query('DELETE FROM users WHERE id = $1', [userId]);
}

/**
 * The user changed at the request's time. The triggers of migration 013 move `updated_at` when a row the
 * user embeds changes, but by the database's clock; this keeps the request's clock (the one tests drive).
 */
export async function touchUser(tx: Queryable, userId: string, now: Date): Promise<void> {
  await tx.query('UPDATE users SET updated_at = $2 WHERE id = $1', [userId, now]);
}

/** The user's primary address id, the row locked for the request; null: no such user. */
export async function lockPrimaryEmailAddressId(
  tx: Queryable,
  userId: string,
): Promise<{ primary_email_address_id: string | null } | null> {
  const [row] = await tx.query<{ primary_email_address_id: string | null }>(
    'SELECT primary_email_address_id FROM users WHERE id = $1 FOR NO KEY UPDATE',
    [userId],
  );
  return row ?? null;
}

export async function setPrimaryEmailAddress(
  tx: Queryable,
  userId: string,
  emailAddressId: string,
  now: Date,
): Promise<void> {
  await tx.query('UPDATE users SET primary_email_address_id = $2, updated_at = $3 WHERE id = $1', [
    userId,
    emailAddressId,
    now,
  ]);
}

export async function setPrimaryPhoneNumber(tx: Queryable, userId: string, phoneId: string): Promise<void> {
  await tx.query('UPDATE users SET primary_phone_number_id = $2 WHERE id = $1', [userId, phoneId]);
}

/** The user's first sign-in number becomes the primary one; an existing primary number stays. */
export async function setPrimaryPhoneNumberIfNone(
  tx: Queryable,
  userId: string,
  phoneId: string,
): Promise<void> {
  await tx.query(
    `UPDATE users SET primary_phone_number_id = $2 WHERE id = $1 AND primary_phone_number_id IS NULL`,
    [userId, phoneId],
  );
}

/**
 * An address verified by a user who has no primary one (an account made by phone, web3 or SSO) becomes
 * it, as Clerk does: billing, for one, mails the primary address (clerk-js's checkout asks for an address
 * and starts again at once, expecting it to be used).
 */
export async function setPrimaryEmailAddressIfNone(
  tx: Queryable,
  userId: string,
  emailId: string,
): Promise<void> {
  await tx.query(
    `UPDATE users SET primary_email_address_id = $2 WHERE id = $1 AND primary_email_address_id IS NULL`,
    [userId, emailId],
  );
}

/**
 * When the primary number `leavingId` stops being one the user signs in with, the oldest other verified
 * sign-in number takes over, or none.
 */
export async function reassignPrimaryPhoneNumber(
  tx: Queryable,
  userId: string,
  leavingId: string,
): Promise<void> {
  await tx.query(
    `UPDATE users SET primary_phone_number_id = (
       SELECT p.id FROM phone_numbers p
       WHERE p.user_id = $1 AND p.id <> $2 AND p.verified_at IS NOT NULL AND NOT p.reserved_for_second_factor
       ORDER BY p.created_at, p.id LIMIT 1)
     WHERE id = $1 AND primary_phone_number_id = $2`,
    [userId, leavingId],
  );
}
