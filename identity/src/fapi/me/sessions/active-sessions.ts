import { sessionWithActivitiesJSON } from '../../../serializers/session-with-activities.ts';
import { activitiesOf } from '../../../store/session-activities.ts';
import { signedInSessionsOfUser } from '../../../store/user-sessions.ts';
import type { FapiRoute } from '../../context.ts';
import { currentSession } from '../me-session.ts';
import { formInput } from '../../form-input.ts';

/** GET /me/sessions/active — Security → Active devices: every signed-in session of the user, as a bare array. */
export const activeSessionsRoute: FapiRoute = {
  method: 'GET',
  path: '/me/sessions/active',
  auth: 'session',
  permission: null,
  input: { query: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const sessions = await signedInSessionsOfUser(ctx.tx, session.user_id, ctx.now);
    const activities = await activitiesOf(
      ctx.tx,
      sessions.map((s) => s.id),
    );
    return { bare: sessions.map((s) => sessionWithActivitiesJSON(s, activities.get(s.id))) };
  },
};
