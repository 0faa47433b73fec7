import { errors } from '../../errors.ts';
import { mintSessionToken } from '../../instance/session-token.ts';
import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { loadSignedInSession } from './load-session.ts';

/** POST /client/sessions/:id/tokens — a fresh 60 s session token, returned bare (clerk-js reads it so). */
export const createTokenRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/tokens',
  async handler(ctx) {
    const session = await loadSignedInSession(ctx, ctx.params.id!);
    if (field(ctx.body, 'organization_id')) throw errors.notFound('organization');
    const jwt = await mintSessionToken(ctx.deps.tokens, session, ctx.origin, ctx.now);
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
