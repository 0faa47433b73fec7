import { errors } from '../../errors.ts';
import { updateClient } from '../../store/clients.ts';
import { touchSession } from '../../store/sessions.ts';
import type { FapiRoute } from '../context.ts';
import { field, has } from '../form.ts';
import { loadSignedInSession } from './load-session.ts';
import { sessionResponse } from './respond.ts';

/** POST /client/sessions/:id/touch — `setActive()` and focus: marks the session active and last used. */
export const touchSessionRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/touch',
  async handler(ctx) {
    const session = await loadSignedInSession(ctx, ctx.params.id!);
    // Organisations arrive with issue #3; until then only the personal workspace exists.
    if (has(ctx.body, 'active_organization_id') && field(ctx.body, 'active_organization_id')) {
      throw errors.notFound('organization');
    }
    const touched = await touchSession(ctx.tx, session.id, ctx.now);
    if (ctx.client!.last_active_session_id !== session.id) {
      await updateClient(ctx.tx, ctx.client!.id, { last_active_session_id: session.id }, ctx.now);
      ctx.signInStateChanged();
    }
    return sessionResponse(ctx, touched);
  },
};
