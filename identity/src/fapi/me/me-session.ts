import { errors } from '../../errors.ts';
import type { SessionRow } from '../../store/rows.ts';
import { signedInSessionsOfClient } from '../../store/sessions.ts';
import type { FapiContext } from '../context.ts';

/** The session a `/me` call acts for: `_clerk_session_id`, or the client's last active one. */
export async function currentSession(ctx: FapiContext): Promise<SessionRow> {
  if (!ctx.client) throw errors.notFound('session');
  const sessions = await signedInSessionsOfClient(ctx.tx, ctx.client.id, ctx.now);
  const wanted = ctx.sessionId ?? ctx.client.last_active_session_id;
  const session = sessions.find((s) => s.id === wanted);
  if (!session) throw errors.notFound('session');
  return session;
}
