import type { Queryable } from '../db/database.ts';

/**
 * The wrong passwords or codes this browser sent for the account since its last sign-in there, or null if
 * the user has never opened a session on it.
 */
export async function knownBrowserFailures(
  db: Queryable,
  userId: string,
  clientId: string,
): Promise<number | null> {
  const [row] = await db.query<{ failed_attempts: number }>(
    'SELECT failed_attempts FROM known_browsers WHERE user_id = $1 AND client_id = $2',
    [userId, clientId],
  );
  return row ? row.failed_attempts : null;
}

/** A wrong password or code from this browser, if it is known to the account (else nothing to count). */
export async function countBrowserFailure(
  db: Queryable,
  userId: string,
  clientId: string,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE known_browsers SET failed_attempts = failed_attempts + 1, updated_at = $3
     WHERE user_id = $1 AND client_id = $2`,
    [userId, clientId, now],
  );
}
