import type { SessionRow } from '../store/rows.ts';
import type { SessionActivityRow } from '../store/session-activities.ts';
import { ms } from './verification.ts';

/**
 * Clerk's SessionWithActivitiesJSON (Security → Active devices): a session without its user, with the
 * `latest_activity` clerk-js reads (`device_type` titles the entry, then browser, IP and location).
 */
export function sessionWithActivitiesJSON(session: SessionRow, activity: SessionActivityRow | undefined) {
  return {
    object: 'session',
    id: session.id,
    status: session.status,
    expire_at: ms(session.expire_at),
    abandon_at: ms(session.abandon_at),
    last_active_at: ms(session.last_active_at),
    last_active_organization_id: session.last_active_organization_id,
    actor: session.actor,
    user: null,
    latest_activity: {
      object: 'session_activity',
      id: `sess_activity_${session.id.replace(/^sess_/, '')}`,
      device_type: activity?.device_type ?? null,
      is_mobile: activity?.is_mobile ?? false,
      browser_name: activity?.browser_name ?? null,
      browser_version: activity?.browser_version ?? null,
      ip_address: activity?.ip_address ?? null,
      city: activity?.city ?? null,
      country: activity?.country ?? null,
    },
    created_at: ms(session.created_at),
    updated_at: ms(session.updated_at),
  };
}
