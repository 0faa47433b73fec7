import { actorTokenByTicket } from '../../impersonation/actor-tokens.ts';
import { ticketLanding } from '../../organizations/invitations.ts';
import type { FapiRoute } from '../context.ts';
import { actorTicketLanding, signInPage } from './actor-landing.ts';
import { isUsable, signInTokenByTicket } from '../../tickets/sign-in-tokens.ts';
import { formInput } from '../form-input.ts';

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v) || undefined;

/**
 * GET /v1/tickets/accept?ticket=… — an invitation email's link or an actor token's, opened as a browser
 * navigation and answered with a 303 into the app. The app's `<SignIn/>` or `<SignUp/>` redeems the
 * ticket it is given.
 */
export const acceptTicketRoute: FapiRoute = {
  method: 'GET',
  path: '/tickets/accept',
  auth: 'client',
  permission: null,
  input: { query: formInput({ ticket: 'token', redirect_url: 'url' }) },
  async handler(ctx) {
    const ticket = single(ctx.query.ticket);
    const actorToken = ticket ? await actorTokenByTicket(ctx.tx, ticket, { lock: true }) : null;
    if (actorToken && ticket) return { redirect: await actorTicketLanding(ctx, actorToken, ticket) };
    const signInToken = ticket ? await signInTokenByTicket(ctx.tx, ticket) : null;
    if (signInToken && ticket) {
      // Like an actor token's link, to <SignIn/> with the ticket; nothing is spent by the navigation.
      const usable = isUsable(signInToken, ctx.now);
      return {
        redirect: signInPage(ctx.deps.config, {
          __clerk_ticket: ticket,
          __clerk_status: usable ? 'sign_in' : 'expired',
        }),
      };
    }
    const location = await ticketLanding(
      ctx.tx,
      ctx.deps.config,
      { ticket, redirectUrl: single(ctx.query.redirect_url) },
      ctx.now,
    );
    return { redirect: location };
  },
};
