import type { IdentityDeps } from '../deps.ts';

/**
 * The link a ticket travels in (organisation and application invitations, actor tokens): the Frontend
 * API's `/v1/tickets/accept`, which sends the browser on to the sign-in or sign-up page with the ticket.
 */
export function ticketUrl(
  deps: Pick<IdentityDeps, 'fapiBase'>,
  ticket: string,
  redirectUrl?: string,
): string {
  const url = new URL(`${deps.fapiBase}/v1/tickets/accept`);
  url.searchParams.set('ticket', ticket);
  if (redirectUrl) url.searchParams.set('redirect_url', redirectUrl);
  return url.toString();
}
