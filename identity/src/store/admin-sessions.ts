import type { Queryable } from '../db/database.ts';
import type { ClientRow, SessionRow, SessionStatus } from './rows.ts';

/*
 * The Backend API's reads and writes of sessions and clients (`sessions.*`, `clients.*` of @clerk/backend):
 * the operator's view across every browser. Stored statuses lag behind expiry (a session is marked
 * `expired` only when its client next asks), so the status these filter on is the one at `now`.
 */

/** The session's status at `now`: a signed-in session past its expiry is `expired`. */
const STATUS_AT = (now: string) =>
  `CASE WHEN status IN ('active', 'pending') AND expire_at <= ${now} THEN 'expired' ELSE status END`;

export interface SessionFilter {
  clientId: string | null;
  userId: string | null;
  status: SessionStatus | null;
}

const SESSION_WHERE = `($1::text IS NULL OR client_id = $1) AND ($2::text IS NULL OR user_id = $2)
  AND ($3::text IS NULL OR ${STATUS_AT('$4')} = $3)`;

/** A page of the sessions matching `filter`, newest first, and how many match in all. */
export async function listSessions(
  db: Queryable,
  filter: SessionFilter,
  page: { limit: number; offset: number },
  now: Date,
): Promise<{ rows: SessionRow[]; total: number }> {
  const params = [filter.clientId, filter.userId, filter.status, now];
  const rows = await db.query<SessionRow>(
    `SELECT * FROM sessions WHERE ${SESSION_WHERE} ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6`,
    [...params, page.limit, page.offset],
  );
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sessions WHERE ${SESSION_WHERE}`,
    params,
  );
  return { rows, total: count!.n };
}

/**
 * The session revoked if it is still signed in (the trigger records `session.revoked`); null when it was
 * not (gone, or already ended, revoked or expired), which changes nothing.
 */
export async function revokeSignedInSession(
  tx: Queryable,
  sessionId: string,
  now: Date,
): Promise<SessionRow | null> {
  const [row] = await tx.query<SessionRow>(
    `UPDATE sessions SET status = 'revoked', updated_at = $2
     WHERE id = $1 AND status IN ('active', 'pending') AND expire_at > $2 RETURNING *`,
    [sessionId, now],
  );
  return row ?? null;
}

const CLIENT_COLUMNS = 'id, sign_in_id, sign_up_id, last_active_session_id, created_at, updated_at';

/** A page of every client (browser), newest first, and how many there are. */
export async function listClients(
  db: Queryable,
  page: { limit: number; offset: number },
): Promise<{ rows: ClientRow[]; total: number }> {
  const rows = await db.query<ClientRow>(
    `SELECT ${CLIENT_COLUMNS} FROM clients ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
  const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM clients');
  return { rows, total: count!.n };
}

/** The signed-in sessions (at `now`) of each client, oldest first. */
export async function signedInSessionsOfClients(
  db: Queryable,
  clientIds: string[],
  now: Date,
): Promise<Map<string, SessionRow[]>> {
  const map = new Map<string, SessionRow[]>();
  if (!clientIds.length) return map;
  const rows = await db.query<SessionRow>(
    `SELECT * FROM sessions WHERE client_id = ANY($1) AND status IN ('active', 'pending') AND expire_at > $2
     ORDER BY created_at, id`,
    [clientIds, now],
  );
  for (const row of rows) map.set(row.client_id, [...(map.get(row.client_id) ?? []), row]);
  return map;
}
