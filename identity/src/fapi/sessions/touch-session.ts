import { errors } from '../../errors.ts';
import { organizationClaims } from '../../organizations/active-organization.ts';
import { isSignedIn, setActiveOrganization, touchSession } from '../../store/sessions.ts';
import { recordSessionActivity } from '../../store/session-activities.ts';
import type { FapiRoute } from '../context.ts';
import { field, has } from '../form.ts';
import { loadSignedInSession } from './load-session.ts';
import { sessionResponse } from './respond.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /client/sessions/:id/touch — `setActive()` and focus. With `active_organization_id` it switches
 * the session's organisation ("" = personal workspace); choosing one completes a `choose-organization`
 * task, so status, tasks and the next token flip together.
 */
export const touchSessionRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/touch',
  auth: 'session',
  permission: null,
  input: { body: formInput({ active_organization_id: 'id' }) },
  async handler(ctx) {
    const session = await loadSignedInSession(ctx, ctx.params.id!);
    let touched = await touchSession(ctx.tx, session.id, ctx.now);
    // The read above took no lock; this write waited for any other on the row, and sees what it committed.
    if (!isSignedIn(touched, ctx.now)) throw errors.notFound('session');
    await recordSessionActivity(ctx.tx, session.id, ctx, ctx.now);
    if (has(ctx.body, 'active_organization_id')) {
      const wanted = field(ctx.body, 'active_organization_id') ?? null;
      const claims = wanted ? await organizationClaims(ctx.tx, session.user_id, wanted) : null;
      // Not a member looks the same as no such organisation: nothing leaks about other tenants.
      if (wanted && !claims) throw errors.notFound('organization');
      const forced = ctx.deps.config.forceOrganizationSelection;
      const status = forced && !claims ? 'pending' : 'active';
      const orgId = claims?.id ?? null;
      if (orgId !== session.last_active_organization_id || status !== session.status) {
        const switched = await setActiveOrganization(ctx.tx, session.id, orgId, status, ctx.now);
        // Signed out or revoked since it was read: as if it had been gone already.
        if (!switched) throw errors.notFound('session');
        touched = switched;
        ctx.signInStateChanged();
      }
    }
    if (ctx.client!.last_active_session_id !== session.id) {
      await ctx.updateClient({ last_active_session_id: session.id });
      ctx.signInStateChanged();
    }
    return sessionResponse(ctx, touched);
  },
};
