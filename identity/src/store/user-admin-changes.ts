import type { Queryable } from '../db/database.ts';
import { revokeSessionsOfUser } from './user-sessions.ts';

/**
 * What an operator changes on a user through the Backend API. Each answers whether the user exists
 * (false: nothing was changed).
 */

/** Locks the user until `until`, as if `failures` wrong attempts had been made (an operator's lock). */
export async function lockUser(
  db: Queryable,
  id: string,
  until: Date,
  failures: number,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE users SET locked_until = $2, failed_verification_attempts = $3, locked_by_failures = false, updated_at = $4
     WHERE id = $1 RETURNING id`,
    [id, until, failures, now],
  );
  return rows.length > 0;
}

/** Lifts a lock and forgets the failures counted, so the user starts afresh. */
export async function unlockUser(db: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE users SET locked_until = NULL, failed_verification_attempts = 0, updated_at = $2
     WHERE id = $1 RETURNING id`,
    [id, now],
  );
  return rows.length > 0;
}

/** Bans (every signed-in session revoked with it) or unbans the user. */
export async function setUserBanned(tx: Queryable, id: string, banned: boolean, now: Date): Promise<boolean> {
  const rows = await tx.query('UPDATE users SET banned = $2, updated_at = $3 WHERE id = $1 RETURNING id', [
    id,
    banned,
    now,
  ]);
  if (rows.length === 0) return false;
  if (banned) await revokeSessionsOfUser(tx, id, now);
  return true;
}

export async function setPasswordResetRequired(
  db: Queryable,
  id: string,
  required: boolean,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    'UPDATE users SET password_reset_required = $2, updated_at = $3 WHERE id = $1 RETURNING id',
    [id, required, now],
  );
  return rows.length > 0;
}

export type UserMetadataKey = 'public_metadata' | 'private_metadata' | 'unsafe_metadata';

/** The user's three metadata objects, locked for an update in the same transaction; null: no such user. */
export async function lockUserMetadata(
  tx: Queryable,
  id: string,
): Promise<Record<UserMetadataKey, Record<string, unknown>> | null> {
  const [user] = await tx.query<Record<UserMetadataKey, Record<string, unknown>>>(
    'SELECT public_metadata, private_metadata, unsafe_metadata FROM users WHERE id = $1 FOR NO KEY UPDATE',
    [id],
  );
  return user ?? null;
}

export async function setUserMetadata(
  tx: Queryable,
  id: string,
  key: UserMetadataKey,
  value: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await tx.query(`UPDATE users SET ${key} = $2, updated_at = $3 WHERE id = $1`, [
    id,
    JSON.stringify(value),
    now,
  ]);
}
