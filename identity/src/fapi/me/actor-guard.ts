import { errors } from '../../errors.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { currentSession } from './me-session.ts';

/**
 * Marks a route that changes how the user proves who they are (password, email addresses, phone numbers,
 * second factors, username, the account itself): refused with 403 `not_allowed_access` while the acting
 * session is an impersonation (it has an `actor`, the token's `act`). An operator may look and help;
 * taking the account over is not theirs to do. `when` narrows it to the requests that change one.
 */
export function refusedToActors(route: FapiRoute, when?: (ctx: FapiContext) => boolean): FapiRoute {
  return {
    ...route,
    async handler(ctx) {
      if (!when || when(ctx)) {
        const session = await currentSession(ctx);
        if (session.actor) throw errors.credentialChangeWhileImpersonating();
      }
      return route.handler(ctx);
    },
  };
}
