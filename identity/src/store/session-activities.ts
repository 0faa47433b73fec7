import type { Queryable } from '../db/database.ts';
import { parseUserAgent } from '../sessions/user-agent.ts';

export interface SessionActivityRow {
  session_id: string;
  browser_name: string | null;
  browser_version: string | null;
  os_name: string | null;
  device_type: string | null;
  is_mobile: boolean;
  ip_address: string | null;
  city: string | null;
  country: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Where a session is used from: its User-Agent and the client IP (as Fastify reads it, so behind `TRUST_PROXY` the forwarded one). */
export interface SessionRequest {
  ip: string;
  userAgent: string | null;
}

/**
 * Records where a session is used from: its browser, OS and device from the User-Agent, and the client
 * IP. Rewritten only when it changed.
 */
export async function recordSessionActivity(
  db: Queryable,
  sessionId: string,
  request: SessionRequest,
  now: Date,
): Promise<void> {
  await recordSessionActivities(db, [{ sessionId, request, at: now }]);
}

/**
 * `recordSessionActivity` for many sessions in one statement (a batch of activity, see
 * sessions/activity-batch.ts); sessions gone meanwhile are left out.
 */
export async function recordSessionActivities(
  db: Queryable,
  activity: { sessionId: string; request: SessionRequest; at: Date }[],
): Promise<void> {
  if (!activity.length) return;
  const devices = activity.map((a) => parseUserAgent(a.request.userAgent));
  await db.query(
    `INSERT INTO session_activities AS a (session_id, browser_name, browser_version, os_name, device_type,
                                          is_mobile, ip_address, created_at, updated_at)
     SELECT v.session_id, v.browser_name, v.browser_version, v.os_name, v.device_type, v.is_mobile,
            v.ip_address, v.at, v.at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[],
                 $8::timestamptz[])
          AS v(session_id, browser_name, browser_version, os_name, device_type, is_mobile, ip_address, at)
     WHERE EXISTS (SELECT 1 FROM sessions s WHERE s.id = v.session_id)
     ON CONFLICT (session_id) DO UPDATE SET browser_name = EXCLUDED.browser_name,
       browser_version = EXCLUDED.browser_version, os_name = EXCLUDED.os_name,
       device_type = EXCLUDED.device_type, is_mobile = EXCLUDED.is_mobile,
       ip_address = EXCLUDED.ip_address, updated_at = EXCLUDED.updated_at
     WHERE (a.browser_name, a.browser_version, a.os_name, a.device_type, a.is_mobile, a.ip_address)
       IS DISTINCT FROM (EXCLUDED.browser_name, EXCLUDED.browser_version, EXCLUDED.os_name,
                         EXCLUDED.device_type, EXCLUDED.is_mobile, EXCLUDED.ip_address)`,
    [
      activity.map((a) => a.sessionId),
      devices.map((d) => d.browserName),
      devices.map((d) => d.browserVersion),
      devices.map((d) => d.osName),
      devices.map((d) => d.deviceType),
      devices.map((d) => d.isMobile),
      activity.map((a) => a.request.ip || null),
      activity.map((a) => a.at),
    ],
  );
}

/**
 * Moves users' `last_active_at` forward to the given times, never back. Users another transaction holds
 * are skipped rather than waited for; their ids are returned, to try again later.
 */
export async function advanceUsersLastActive(
  db: Queryable,
  activity: { userId: string; at: Date }[],
): Promise<string[]> {
  if (!activity.length) return [];
  const latest = new Map<string, Date>();
  for (const a of activity) {
    const seen = latest.get(a.userId);
    if (!seen || seen < a.at) latest.set(a.userId, a.at);
  }
  const ids = [...latest.keys()];
  const locked = await db.query<{ id: string }>(
    'SELECT id FROM users WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE SKIP LOCKED',
    [ids],
  );
  const lockedIds = locked.map((r) => r.id);
  await db.query(
    `UPDATE users u SET last_active_at = v.at
     FROM unnest($1::text[], $2::timestamptz[]) AS v(id, at)
     WHERE u.id = v.id AND (u.last_active_at IS NULL OR u.last_active_at < v.at)`,
    [lockedIds, lockedIds.map((id) => latest.get(id)!)],
  );
  const lockedSet = new Set(lockedIds);
  return ids.filter((id) => !lockedSet.has(id));
}

export async function activitiesOf(
  db: Queryable,
  sessionIds: string[],
): Promise<Map<string, SessionActivityRow>> {
  if (!sessionIds.length) return new Map();
  const rows = await db.query<SessionActivityRow>(
    'SELECT * FROM session_activities WHERE session_id = ANY($1)',
    [sessionIds],
  );
  return new Map(rows.map((r) => [r.session_id, r]));
}
