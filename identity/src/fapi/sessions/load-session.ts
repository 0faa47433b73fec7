import { errors } from '../../errors.ts';
import type { SessionRow } from '../../store/rows.ts';
import { findClientSession, isSignedIn } from '../../store/sessions.ts';
import type { FapiContext } from '../context.ts';

/** A signed-in session of this browser's client; anything else is "not found" (clerk-js then signs out). */
export async function loadSignedInSession(ctx: FapiContext, id: string): Promise<SessionRow> {
  const session = ctx.client ? await findClientSession(ctx.tx, ctx.client.id, id) : null;
  if (!session || !isSignedIn(session, ctx.now)) throw errors.notFound('session');
  return session;
}
