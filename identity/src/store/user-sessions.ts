import type { Queryable } from '../db/database.ts';
import type { SessionRow } from './rows.ts';

/** A user's sessions across all their browsers, as the account pages and the organisations reach them. */

/** The user's signed-in sessions (active or pending, not expired), most recently active first. */
export async function signedInSessionsOfUser(
  tx: Queryable,
  userId: string,
  now: Date,
): Promise<SessionRow[]> {
  return tx.query<SessionRow>(
    `SELECT * FROM sessions WHERE user_id = $1 AND status IN ('active', 'pending') AND expire_at > $2
       ORDER BY last_active_at DESC`,
    [userId, now],
  );
}

/** One of the user's own sessions, locked for the request; another user's is as good as missing. */
export async function lockOwnSession(tx: Queryable, userId: string, id: string): Promise<SessionRow | null> {
  const [row] = await tx.query<SessionRow>(
    'SELECT * FROM sessions WHERE id = $1 AND user_id = $2 FOR UPDATE',
    [id, userId],
  );
  return row ?? null;
}

/** Every signed-in session of the user is revoked (a ban, a new password set by the operator). */
export async function revokeSessionsOfUser(tx: Queryable, userId: string, now: Date): Promise<void> {
  await revokeOtherSessionsOfUser(tx, userId, '', now);
}

/** Every signed-in session of the user but `keptSessionId` is revoked. */
export async function revokeOtherSessionsOfUser(
  tx: Queryable,
  userId: string,
  keptSessionId: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE sessions SET status = 'revoked', updated_at = $3
         WHERE user_id = $1 AND id <> $2 AND status IN ('active', 'pending')`,
    [userId, keptSessionId, now],
  );
}

/** The users with a session whose active organisation is this one. */
export async function usersWithActiveOrganization(tx: Queryable, organizationId: string): Promise<string[]> {
  const rows = await tx.query<{ user_id: string }>(
    'SELECT DISTINCT user_id FROM sessions WHERE last_active_organization_id = $1',
    [organizationId],
  );
  return rows.map((r) => r.user_id);
}

/** The users' active sessions without an organisation go back to `pending` (the choose-organization task). */
export async function pendSessionsWithoutOrganization(
  tx: Queryable,
  userIds: string[],
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE sessions SET status = 'pending', updated_at = $2
     WHERE user_id = ANY($1) AND status = 'active' AND last_active_organization_id IS NULL`,
    [userIds, now],
  );
}
