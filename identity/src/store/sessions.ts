import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { parseUserAgent } from '../sessions/user-agent.ts';
import type { SessionRequest } from './session-activities.ts';
import type { ClientRow, SessionRow, SessionStatus } from './rows.ts';

const SIGNED_IN: SessionStatus[] = ['active', 'pending'];

/**
 * A new session, made the client's active one in the same statement: the client's finished attempt
 * (`finished`) is cleared and its row returned as written.
 */
export async function createSession(
  db: Queryable,
  input: {
    /** The attempt the session finishes, no longer the client's. */
    finished: 'sign_in_id' | 'sign_up_id';
    clientId: string;
    userId: string;
    lifetimeSeconds: number;
    status?: SessionStatus;
    /** Who is really acting, for an impersonation session (Clerk's `actor`, the token's `act`). */
    actor?: Record<string, unknown> | null;
    /** The second factor was proven as the session opened (its `fva` counts from now). */
    secondFactorVerified?: boolean;
    /** Where it is opened from: its first activity row, written by the same statement. */
    openedFrom: SessionRequest;
    now: Date;
  },
): Promise<{ session: SessionRow; client: ClientRow }> {
  const expireAt = new Date(input.now.getTime() + input.lifetimeSeconds * 1000);
  const device = parseUserAgent(input.openedFrom.userAgent);
  // One statement for the session, its activity and the client: a sign-in pays for each round trip.
  const finished = input.finished === 'sign_in_id' ? 'sign_in_id' : 'sign_up_id';
  const [row] = await db.query<SessionRow & ClientColumnsAs>(
    `WITH s AS (
       INSERT INTO sessions (id, client_id, user_id, status, actor, first_factor_verified_at,
                             second_factor_verified_at, expire_at, abandon_at, last_active_at, created_at, updated_at)
       VALUES ($1, $2, $3, $6, $7::jsonb, $4, CASE WHEN $8::boolean THEN $4::timestamptz END, $5, $5, $4, $4, $4)
       RETURNING *),
     a AS (
       INSERT INTO session_activities (session_id, browser_name, browser_version, os_name, device_type,
                                       is_mobile, ip_address, created_at, updated_at)
       SELECT s.id, $9, $10, $11, $12, $13, $14, $4, $4 FROM s),
     c AS (
       UPDATE clients SET ${finished} = NULL, last_active_session_id = (SELECT id FROM s),
                          updated_at = GREATEST(updated_at, $4)
       WHERE id = $2
       RETURNING id AS c_id, sign_in_id AS c_sign_in_id, sign_up_id AS c_sign_up_id,
                 last_active_session_id AS c_last_active_session_id, created_at AS c_created_at,
                 updated_at AS c_updated_at)
     SELECT * FROM s, c`,
    [
      newId('sess'),
      input.clientId,
      input.userId,
      input.now,
      expireAt,
      input.status ?? 'active',
      input.actor ? JSON.stringify(input.actor) : null,
      input.secondFactorVerified ?? false,
      device.browserName,
      device.browserVersion,
      device.osName,
      device.deviceType,
      device.isMobile,
      input.openedFrom.ip || null,
    ],
  );
  const {
    c_id,
    c_sign_in_id,
    c_sign_up_id,
    c_last_active_session_id,
    c_created_at,
    c_updated_at,
    ...session
  } = row!;
  return {
    session,
    client: {
      id: c_id,
      sign_in_id: c_sign_in_id,
      sign_up_id: c_sign_up_id,
      last_active_session_id: c_last_active_session_id,
      created_at: c_created_at,
      updated_at: c_updated_at,
    },
  };
}

interface ClientColumnsAs {
  c_id: string;
  c_sign_in_id: string | null;
  c_sign_up_id: string | null;
  c_last_active_session_id: string | null;
  c_created_at: Date;
  c_updated_at: Date;
}

/**
 * Sessions of a client that still count as signed in; expired ones are marked on the way. Every page load
 * and every Frontend API answer asks, and expiry is rare: one read, and a write only when one has lapsed.
 */
export async function signedInSessionsOfClient(
  db: Queryable,
  clientId: string,
  now: Date,
): Promise<SessionRow[]> {
  const rows = await db.query<SessionRow>(
    'SELECT * FROM sessions WHERE client_id = $1 AND status = ANY($2) ORDER BY created_at',
    [clientId, SIGNED_IN],
  );
  const lapsed = rows.filter((s) => s.expire_at.getTime() <= now.getTime());
  if (!lapsed.length) return rows;
  // Guarded by expire_at again: a session extended meanwhile by another request stays signed in.
  const expired = await db.query<{ id: string }>(
    `UPDATE sessions SET status = 'expired', updated_at = $3
     WHERE id = ANY($1) AND client_id = $2 AND status = ANY($4) AND expire_at <= $3 RETURNING id`,
    [lapsed.map((s) => s.id), clientId, now, SIGNED_IN],
  );
  const gone = new Set(expired.map((r) => r.id));
  return rows.filter((s) => !gone.has(s.id));
}

/** Whether the client has a signed-in session (expired ones marked on the way, as signedInSessionsOfClient). */
export async function hasSignedInSession(db: Queryable, clientId: string, now: Date): Promise<boolean> {
  return (await signedInSessionsOfClient(db, clientId, now)).length > 0;
}

export async function findClientSession(
  db: Queryable,
  clientId: string,
  sessionId: string,
): Promise<SessionRow | null> {
  const [row] = await db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1 AND client_id = $2', [
    sessionId,
    clientId,
  ]);
  return row ?? null;
}

export function isSignedIn(session: Pick<SessionRow, 'status' | 'expire_at'>, now: Date): boolean {
  return SIGNED_IN.includes(session.status) && session.expire_at.getTime() > now.getTime();
}

/**
 * A user signing in again on a browser where their own session still waits on a task: the new session
 * takes its place (Clerk's `replaced`), so the account is listed once. Impersonation sessions are left alone.
 */
export async function replacePendingSessionsOf(
  db: Queryable,
  input: { clientId: string; userId: string; keep: string; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE sessions SET status = 'replaced', updated_at = $4
     WHERE client_id = $1 AND user_id = $2 AND id <> $3 AND status = 'pending' AND actor IS NULL`,
    [input.clientId, input.userId, input.keep, input.now],
  );
}

export async function setSessionStatus(
  db: Queryable,
  sessionId: string,
  status: SessionStatus,
  now: Date,
): Promise<SessionRow> {
  const [row] = await db.query<SessionRow>(
    'UPDATE sessions SET status = $2, updated_at = $3 WHERE id = $1 RETURNING *',
    [sessionId, status, now],
  );
  return row!;
}

export async function touchSession(db: Queryable, sessionId: string, now: Date): Promise<SessionRow> {
  const [row] = await db.query<SessionRow>(
    'UPDATE sessions SET last_active_at = $2 WHERE id = $1 RETURNING *',
    [sessionId, now],
  );
  return row!;
}

/**
 * Signs the sessions of a client out (only `userId`'s when given): `ended`, or `replaced` when a new
 * sign-in takes their place.
 */
export async function endSessionsOfClient(
  db: Queryable,
  clientId: string,
  now: Date,
  status: 'ended' | 'replaced' = 'ended',
  userId: string | null = null,
): Promise<void> {
  await db.query(
    `UPDATE sessions SET status = $4, updated_at = $2
     WHERE client_id = $1 AND status = ANY($3) AND ($5::text IS NULL OR user_id = $5)`,
    [clientId, now, SIGNED_IN, status, userId],
  );
}

/**
 * A factor group proven again in this session (two-step sign-in, re-verification). `updated_at` moves
 * too: clerk-js keys its token cache on it, so the next token carries the new `fva`.
 */
export async function recordFactorVerification(
  db: Queryable,
  sessionId: string,
  factor: 'first_factor' | 'second_factor',
  now: Date,
): Promise<SessionRow> {
  const column = factor === 'first_factor' ? 'first_factor_verified_at' : 'second_factor_verified_at';
  const [row] = await db.query<SessionRow>(
    `UPDATE sessions SET ${column} = $2, updated_at = $2 WHERE id = $1 RETURNING *`,
    [sessionId, now],
  );
  return row!;
}

/** Opens (true) or closes (false) the session's demand to prove a factor again before a gated action. */
export async function setReverificationRequested(
  db: Queryable,
  sessionId: string,
  requested: boolean,
  now: Date,
): Promise<void> {
  await db.query('UPDATE sessions SET reverification_requested = $2, updated_at = $3 WHERE id = $1', [
    sessionId,
    requested,
    now,
  ]);
}

/**
 * Of the sessions `ids`, those that still exist (`exists`) and those locked here for the rest of the
 * transaction (`locked`): rows another transaction holds are skipped, not waited for, so a batch of
 * activity never waits on, nor deadlocks with, a request.
 */
export async function lockSessionsWithoutWaiting(
  db: Queryable,
  ids: string[],
): Promise<{ exists: Set<string>; locked: Set<string> }> {
  const exists = await db.query<{ id: string }>('SELECT id FROM sessions WHERE id = ANY($1)', [ids]);
  const locked = await db.query<{ id: string }>(
    'SELECT id FROM sessions WHERE id = ANY($1) ORDER BY id FOR UPDATE SKIP LOCKED',
    [ids],
  );
  return { exists: new Set(exists.map((r) => r.id)), locked: new Set(locked.map((r) => r.id)) };
}

/**
 * Moves sessions' `last_active_at` forward to the given times, never back. `updated_at` stays: clerk-js
 * keys its token cache on it, and activity changes nothing a token says.
 */
export async function advanceSessionsLastActive(
  db: Queryable,
  activity: { sessionId: string; at: Date }[],
): Promise<void> {
  if (!activity.length) return;
  await db.query(
    `UPDATE sessions s SET last_active_at = v.at
     FROM unnest($1::text[], $2::timestamptz[]) AS v(id, at)
     WHERE s.id = v.id AND s.last_active_at < v.at`,
    [activity.map((a) => a.sessionId), activity.map((a) => a.at)],
  );
}

export async function findSessionById(db: Queryable, id: string): Promise<SessionRow | null> {
  const [row] = await db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1', [id]);
  return row ?? null;
}

/**
 * The session's active organisation and status (`setActive`), with its `updated_at` moved; null when it is
 * no longer signed in. The caller read the session without a lock: a sign-out or a revocation committed
 * since (another device's "Sign out of device", an operator) must not be undone by writing `active` back,
 * so the row's status is checked again by the UPDATE itself, which waits for the other's lock.
 */
export async function setActiveOrganization(
  db: Queryable,
  sessionId: string,
  organizationId: string | null,
  status: 'active' | 'pending',
  now: Date,
): Promise<SessionRow | null> {
  const [row] = await db.query<SessionRow>(
    `UPDATE sessions SET last_active_organization_id = $2, status = $3, updated_at = $4
     WHERE id = $1 AND status = ANY($5) RETURNING *`,
    [sessionId, organizationId, status, now, SIGNED_IN],
  );
  return row ?? null;
}
