import { errors } from '../../errors.ts';
import { tokenForSession } from '../../organizations/active-organization.ts';
import type { FapiRoute } from '../context.ts';
import { field, has } from '../form.ts';
import { loadSignedInSession } from './load-session.ts';

/** POST /client/sessions/:id/tokens — a fresh 60 s session token, returned bare (clerk-js reads it so). */
export const createTokenRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/tokens',
  async handler(ctx) {
    const session = await loadSignedInSession(ctx, ctx.params.id!);
    // clerk-js names the organisation it wants ("" = personal workspace); without it, the session's own.
    const organizationId = has(ctx.body, 'organization_id')
      ? (field(ctx.body, 'organization_id') ?? null)
      : session.last_active_organization_id;
    const jwt = await tokenForSession(ctx.deps, ctx.tx, session, ctx.origin, ctx.now, organizationId);
    return { bare: { object: 'token', jwt } };
  },
};

/** JWT templates are not offered by this instance. */
export const createTemplateTokenRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/tokens/:template',
  async handler(ctx) {
    await loadSignedInSession(ctx, ctx.params.id!);
    throw errors.notFound('JWT template');
  },
};
