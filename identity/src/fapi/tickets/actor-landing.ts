import type { IdentityConfig } from '../../config.ts';
import { isExpired } from '../../impersonation/actor-tokens.ts';
import { lockClient } from '../../store/clients.ts';
import type { ActorTokenRow } from '../../store/rows.ts';
import { endSessionsOfClient, hasSignedInSession } from '../../store/sessions.ts';
import type { FapiContext } from '../context.ts';

/**
 * Where an actor token's link (`GET /v1/tickets/accept`) sends the browser: the app's sign-in page with
 * the ticket, which `<SignIn/>` redeems (strategy=ticket). Nothing is redeemed by the navigation itself,
 * so a link previewer that fetches it spends nothing.
 *
 * `<SignIn/>` on a single-session instance does not render for a browser that is already signed in: it
 * goes to the after-sign-in page and never sees the ticket. An operator opening the link in their own
 * browser would then silently stay themselves. So there a usable token first signs this browser out (the
 * impersonation is about to replace that session anyway, as the sign-in itself would). A multi-session
 * instance renders <SignIn/> beside the signed-in accounts, and nobody is signed out.
 */
export async function actorTicketLanding(
  ctx: FapiContext,
  actorToken: ActorTokenRow,
  ticket: string,
): Promise<string> {
  const usable = actorToken.status === 'pending' && !isExpired(actorToken, ctx.now);
  if (usable && ctx.client && !ctx.deps.config.multiSession) {
    await lockClient(ctx.tx, ctx.client.id);
    if (await hasSignedInSession(ctx.tx, ctx.client.id, ctx.now)) {
      await endSessionsOfClient(ctx.tx, ctx.client.id, ctx.now);
      await ctx.updateClient({ last_active_session_id: null });
      ctx.signInStateChanged();
      ctx.rotateClientCredential(ctx.client.id);
    }
  }
  // An unusable token still reaches <SignIn/>, which tries it and shows why it cannot be used.
  return signInPage(ctx.deps.config, {
    __clerk_ticket: ticket,
    __clerk_status: usable ? 'sign_in' : 'expired',
  });
}

export function signInPage(config: IdentityConfig, params: Record<string, string>): string {
  const url = new URL(`${config.publicUrl}/sign-in`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
