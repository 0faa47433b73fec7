import { setSessionStatus } from '../../store/sessions.ts';
import type { FapiRoute } from '../context.ts';
import { formInput } from '../form-input.ts';
import { loadSignedInSession } from './load-session.ts';
import { sessionResponse } from './respond.ts';

function endingRoute(action: 'end' | 'remove'): FapiRoute {
  return {
    method: 'POST',
    path: `/client/sessions/:id/${action}`,
    auth: 'session',
    permission: null,
    input: { body: formInput() },
    async handler(ctx) {
      const session = await loadSignedInSession(ctx, ctx.params.id!);
      const ended = await setSessionStatus(
        ctx.tx,
        session.id,
        action === 'end' ? 'ended' : 'removed',
        ctx.now,
      );
      const client = ctx.client!;
      await ctx.updateClient(
        client.last_active_session_id === session.id ? { last_active_session_id: null } : {},
      );
      ctx.signInStateChanged();
      ctx.rotateClientCredential(client.id);
      return sessionResponse(ctx, ended);
    },
  };
}

/** POST /client/sessions/:id/end — `session.end()`. */
export const endSessionRoute = endingRoute('end');
/** POST /client/sessions/:id/remove — sign out of one account. */
export const removeSessionRoute = endingRoute('remove');
