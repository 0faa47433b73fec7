import { consumeEmailLink, findEmailLink, type EmailLinkRow } from '../../store/email-links.ts';
import { lockClientById, updateClient } from '../../store/clients.ts';
import type { ClientRow } from '../../store/rows.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { completeSignInLink, completeSignUpLink, expireLinkVerification } from './complete-email-link.ts';
import { formInput } from '../form-input.ts';

/** Clerk's `__clerk_status` values for an email link (clerk-js `handleEmailLinkVerification`). */
export type EmailLinkOutcome = 'verified' | 'expired' | 'failed' | 'client_mismatch';

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v) || undefined;

/**
 * GET /v1/verify?token=… — the link in the email, opened as a browser navigation. Verifies the attempt
 * it was sent for and answers with a 303 to the attempt's `redirect_url` carrying `__clerk_status` (and
 * `__clerk_created_session` when a session was opened), where clerk-js's `<SignIn/>` or `<SignUp/>`
 * shows the outcome. A link that names nothing goes to the sign-in page with `failed`.
 */
export const verifyEmailLinkRoute: FapiRoute = {
  method: 'GET',
  path: '/verify',
  auth: 'client',
  permission: null,
  input: { query: formInput({ token: 'token' }) },
  rateLimits: (req) => [{ key: `email_link:ip:${req.ip}`, limit: 30, windowSeconds: 60 }],
  async handler(ctx) {
    const token = single(ctx.query.token);
    const pepper = ctx.deps.keys.codePepper;
    const named = await findEmailLink(ctx.tx, token, pepper);
    if (!named) return { redirect: landingUrl(fallbackUrl(ctx), 'failed') };
    // Locks in the order every write takes them: the attempt's client first, then the link and the attempt.
    const client = await lockClientById(ctx.tx, named.client_id);
    const link = client ? await findEmailLink(ctx.tx, token, pepper, { lock: true }) : null;
    if (!client || !link) return { redirect: landingUrl(fallbackUrl(ctx), 'failed') };
    const { outcome, createdSessionId } = await verify(ctx, link, client);
    return { redirect: landingUrl(link.redirect_url, outcome, createdSessionId) };
  },
};

async function verify(
  ctx: FapiContext,
  link: EmailLinkRow,
  client: ClientRow,
): Promise<{ outcome: EmailLinkOutcome; createdSessionId?: string | null }> {
  if (link.consumed_at) return { outcome: 'failed' };
  if (link.expire_at.getTime() <= ctx.now.getTime()) {
    await consumeEmailLink(ctx.tx, link.id, ctx.now);
    await expireLinkVerification(ctx, link, client);
    return { outcome: 'expired' };
  }
  const sameClient = ctx.client?.id === link.client_id;
  // Left unused: the link still works in the browser that asked for it.
  if (!sameClient && ctx.deps.config.emailLinks.requireSameClient) return { outcome: 'client_mismatch' };
  // The attempt completes on the browser that started it, whichever browser opened the link.
  const origin: FapiContext & { client: ClientRow } = sameClient
    ? { ...ctx, client }
    : contextOfOtherClient(ctx, client);
  // clerk-js's waiting tab compares verified_at_client with its own client: equal, it shows "Signed in on
  // other tab" and stays signed out until reloaded. Opened in that very browser (another tab, same client),
  // the link is reported as verified elsewhere, so the waiting tab makes the session active by itself too,
  // as Clerk's own integration tests expect of both tabs.
  const landing = { verifiedAtClient: sameClient ? null : (ctx.client?.id ?? null) };
  const done =
    link.purpose === 'sign_in'
      ? await completeSignInLink(origin, link, landing)
      : await completeSignUpLink(origin, link, landing);
  if (!done) return { outcome: 'failed' };
  return { outcome: 'verified', createdSessionId: done.createdSessionId };
}

/**
 * The request's context acting on another browser's client (the one that asked for the link): its writes
 * go to that client, never to the browser that opened the link.
 */
function contextOfOtherClient(ctx: FapiContext, client: ClientRow): FapiContext & { client: ClientRow } {
  const other: FapiContext & { client: ClientRow } = {
    ...ctx,
    client,
    ensureClient: () => Promise.resolve(other.client),
    async updateClient(changes) {
      other.client = await updateClient(ctx.tx, other.client.id, changes, ctx.now);
      return other.client;
    },
    // Not one of this request's client's sessions: only the other client's row is kept.
    sessionOpened(_session, row) {
      if (row.id !== other.client.id) throw new Error('sessionOpened on another client');
      other.client = row;
    },
  };
  return other;
}

/** The product's sign-in page at clerk-js's email-link route (hash routing, as `<SignIn/>` is mounted). */
function fallbackUrl(ctx: FapiContext): string {
  return new URL('/sign-in#/verify', ctx.deps.config.publicUrl).toString();
}

export function landingUrl(
  redirectUrl: string,
  outcome: EmailLinkOutcome,
  sessionId?: string | null,
): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('__clerk_status', outcome);
  if (sessionId) url.searchParams.set('__clerk_created_session', sessionId);
  return url.toString();
}
