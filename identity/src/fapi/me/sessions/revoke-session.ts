import { errors } from '../../../errors.ts';
import { sessionWithActivitiesJSON } from '../../../serializers/session-with-activities.ts';
import { activitiesOf } from '../../../store/session-activities.ts';
import { isSignedIn, setSessionStatus } from '../../../store/sessions.ts';
import { lockOwnSession } from '../../../store/user-sessions.ts';
import type { FapiRoute } from '../../context.ts';
import { currentSession } from '../me-session.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /me/sessions/:id/revoke — Active devices → "Sign out of device": ends one of the user's own
 * sessions on whatever browser holds it (its next token request is refused and clerk-js signs out).
 * Another user's session is "not found", like one that does not exist.
 */
export const revokeSessionRoute: FapiRoute = {
  method: 'POST',
  path: '/me/sessions/:id/revoke',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const current = await currentSession(ctx);
    const target = await lockOwnSession(ctx.tx, current.user_id, ctx.params.id!);
    if (!target || !isSignedIn(target, ctx.now)) throw errors.notFound('session');
    await requireReverification(ctx, current);
    const revoked = await setSessionStatus(ctx.tx, target.id, 'revoked', ctx.now);
    if (target.client_id === ctx.client!.id) {
      // Revoking this browser's own session signs it out here too.
      if (ctx.client!.last_active_session_id === target.id) {
        await ctx.updateClient({ last_active_session_id: null });
      }
      ctx.signInStateChanged();
      ctx.rotateClientCredential(target.client_id);
    }
    const activities = await activitiesOf(ctx.tx, [revoked.id]);
    return { response: sessionWithActivitiesJSON(revoked, activities.get(revoked.id)) };
  },
};
