import { ClerkError } from '../../errors.ts';
import { ticketLanding } from '../../organizations/invitations.ts';
import type { FapiRoute } from '../context.ts';

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v) || undefined;

/**
 * A 303 to `location`. The FAPI result type has no redirect variant, but a thrown ClerkError's status
 * and headers reach the browser as they are (and the read-only transaction just rolls back).
 */
function seeOther(location: string): ClerkError {
  return new ClerkError(303, 'see_other', 'See other', `Continue at ${location}`, {}, { location });
}

/**
 * GET /v1/tickets/accept?ticket=… — the link in an invitation email, opened as a browser navigation.
 * Nothing is redeemed here: the app's `<SignIn/>` or `<SignUp/>` does that with the ticket it is given.
 */
export const acceptTicketRoute: FapiRoute = {
  method: 'GET',
  path: '/tickets/accept',
  async handler(ctx) {
    const location = await ticketLanding(
      ctx.tx,
      ctx.deps.config,
      { ticket: single(ctx.query.ticket), redirectUrl: single(ctx.query.redirect_url) },
      ctx.now,
    );
    throw seeOther(location);
  },
};
