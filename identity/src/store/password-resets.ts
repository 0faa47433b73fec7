import type { Queryable } from '../db/database.ts';

/** A sign-in's new password replaces the old one and clears an operator's demand for a reset. */
export async function replacePassword(
  db: Queryable,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE users SET password_hash = $2, password_updated_at = $3, password_reset_required = false,
       updated_at = $3 WHERE id = $1`,
    [userId, passwordHash, now],
  );
}

/** Every signed-in (active or pending) session of the user ends: "sign out of other sessions". */
export async function revokeSignedInSessionsOfUser(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE sessions SET status = 'revoked', updated_at = $2 WHERE user_id = $1 AND status IN ('active', 'pending')`,
    [userId, now],
  );
}
