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

/**
 * Records where a session is used from: its browser, OS and device from the User-Agent, and the client
 * IP (as Fastify reads it, so behind `TRUST_PROXY` the forwarded one). Rewritten only when it changed.
 */
export async function recordSessionActivity(
  db: Queryable,
  sessionId: string,
  request: { ip: string; userAgent: string | null },
  now: Date,
): Promise<void> {
  const device = parseUserAgent(request.userAgent);
  await db.query(
    `INSERT INTO session_activities AS a (session_id, browser_name, browser_version, os_name, device_type,
                                          is_mobile, ip_address, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (session_id) DO UPDATE SET browser_name = EXCLUDED.browser_name,
       browser_version = EXCLUDED.browser_version, os_name = EXCLUDED.os_name,
       device_type = EXCLUDED.device_type, is_mobile = EXCLUDED.is_mobile,
       ip_address = EXCLUDED.ip_address, updated_at = EXCLUDED.updated_at
     WHERE (a.browser_name, a.browser_version, a.os_name, a.device_type, a.is_mobile, a.ip_address)
       IS DISTINCT FROM (EXCLUDED.browser_name, EXCLUDED.browser_version, EXCLUDED.os_name,
                         EXCLUDED.device_type, EXCLUDED.is_mobile, EXCLUDED.ip_address)`,
    [
      sessionId,
      device.browserName,
      device.browserVersion,
      device.osName,
      device.deviceType,
      device.isMobile,
      request.ip || null,
      now,
    ],
  );
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
