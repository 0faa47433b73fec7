import type { SessionActivityRow } from '../store/session-activities.ts';
import type { ClientRow, SessionRow } from '../store/rows.ts';
import { ms } from './verification.ts';

/** The session's status at `now`: stored statuses lag behind expiry (see store/admin-sessions.ts). */
export function sessionStatusAt(
  s: Pick<SessionRow, 'status' | 'expire_at'>,
  now: Date,
): SessionRow['status'] {
  const signedIn = s.status === 'active' || s.status === 'pending';
  return signedIn && s.expire_at.getTime() <= now.getTime() ? 'expired' : s.status;
}

/** Clerk's SessionJSON as the Backend API answers it (`@clerk/backend`'s Session, with its latest activity). */
export function backendSessionJSON(s: SessionRow, now: Date, activity?: SessionActivityRow) {
  return {
    object: 'session',
    id: s.id,
    client_id: s.client_id,
    user_id: s.user_id,
    status: sessionStatusAt(s, now),
    last_active_organization_id: s.last_active_organization_id,
    actor: s.actor,
    latest_activity: activity
      ? {
          object: 'session_activity',
          id: `sess_activity_${s.id.replace(/^sess_/, '')}`,
          device_type: activity.device_type,
          is_mobile: activity.is_mobile,
          browser_name: activity.browser_name,
          browser_version: activity.browser_version,
          ip_address: activity.ip_address,
          city: activity.city,
          country: activity.country,
        }
      : null,
    last_active_at: ms(s.last_active_at),
    expire_at: ms(s.expire_at),
    abandon_at: ms(s.abandon_at),
    created_at: ms(s.created_at),
    updated_at: ms(s.updated_at),
  };
}

/** Clerk's ClientJSON as the Backend API answers it: the browser and its signed-in sessions. */
export function backendClientJSON(
  c: ClientRow,
  sessions: SessionRow[],
  now: Date,
  activities: Map<string, SessionActivityRow>,
) {
  return {
    object: 'client',
    id: c.id,
    session_ids: sessions.map((s) => s.id),
    sessions: sessions.map((s) => backendSessionJSON(s, now, activities.get(s.id))),
    sign_in_id: c.sign_in_id,
    sign_up_id: c.sign_up_id,
    last_active_session_id: c.last_active_session_id,
    created_at: ms(c.created_at),
    updated_at: ms(c.updated_at),
  };
}
