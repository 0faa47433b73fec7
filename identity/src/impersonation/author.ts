import type { SessionRow } from '../store/rows.ts';

/**
 * Who a record made in a session is by: the user, or in an impersonation the actor (the operator whose
 * `sub` the session carries), so that what support does for a user never reads as the user's own doing.
 */
export function authorOf(session: Pick<SessionRow, 'user_id' | 'actor'>): string {
  const sub = session.actor?.sub;
  return typeof sub === 'string' && sub !== '' ? sub : session.user_id;
}
