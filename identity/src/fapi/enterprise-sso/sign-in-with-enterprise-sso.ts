import { connectionForEmail } from '../../enterprise-sso/connections.ts';
import { errors } from '../../errors.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import type { ClientRow } from '../../store/rows.ts';
import { createSignIn, findClientSignIn } from '../../store/sign-ins.ts';
import { findUserByIdentifier } from '../../store/users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { rawField } from '../form.ts';
import { assertRedirectParams } from '../redirect-params.ts';
import { limitSignInsOfIdentifier } from '../sign-ins/rate-limits.ts';
import { signInResponse } from '../sign-ins/respond.ts';
import { isEnterpriseSsoStrategy, startEnterpriseSso } from './start-enterprise-sso.ts';

/** The identifier is an email address at the domain of an enabled enterprise connection. */
export const isEnterpriseSsoIdentifier = (ctx: FapiContext, identifier: string) =>
  connectionForEmail(ctx.deps.settings.settings.enterpriseConnections, identifier) !== null;

/**
 * POST /client/sign_ins with an address at an enterprise connection's domain (or `strategy=enterprise_sso`
 * with one): a sign-in whose only first factor is `enterprise_sso`, as hosted Clerk answers, so <SignIn/>
 * goes to the IdP (SignInStart: `needs_first_factor` with only enterprise factors). The answer is the
 * same whether an account exists or not (the IdP decides, and provisions one when the connection may);
 * a password or any other strategy for such an address is refused (`strategy_for_user_invalid`, after
 * which <SignIn/> retries with the identifier alone). With `strategy=enterprise_sso` (custom flows'
 * `authenticateWithRedirect`) the redirect to the IdP is prepared at once.
 */
export async function signInWithEnterpriseSso(
  ctx: FapiContext,
  client: ClientRow,
  identifier: string,
  strategy: string | undefined,
  newClient: boolean,
): Promise<FapiResult> {
  const connection = connectionForEmail(ctx.deps.settings.settings.enterpriseConnections, identifier);
  if (!connection) throw errors.strategyForUserInvalid();
  if ((strategy && !isEnterpriseSsoStrategy(strategy)) || rawField(ctx.body, 'password') !== undefined) {
    throw errors.strategyForUserInvalid();
  }
  const user = await findUserByIdentifier(ctx.tx, identifier);
  await limitSignInsOfIdentifier(ctx, identifier, newClient ? null : user);
  if (!newClient && user) await assertMayOpenSession(ctx, client.id, user.id);
  const signIn = await createSignIn(ctx.tx, {
    clientId: client.id,
    status: 'needs_first_factor',
    identifier,
    userId: null,
    enterpriseConnectionId: connection.id,
    now: ctx.now,
  });
  await ctx.updateClient({ sign_in_id: signIn.id });
  if (isEnterpriseSsoStrategy(strategy)) return startEnterpriseSso(ctx, signIn);
  return signInResponse(ctx, signIn);
}

/**
 * POST /client/sign_ins/:id/prepare_first_factor `strategy=enterprise_sso` (or `saml`): this browser's
 * sign-in of an address at a connection's domain goes to the IdP. The redirect parameters must point to
 * the allowed origins or this instance's popup page, as for the social start.
 */
export async function prepareEnterpriseSso(ctx: FapiContext): Promise<FapiResult> {
  // Custom flows' `authenticateWithPopup({ strategy: 'enterprise_sso' })` points both at the popup page.
  await assertRedirectParams(ctx.tx, ctx.body, ctx.deps, { popup: true });
  if (!ctx.client) throw errors.notFound('sign in');
  const signIn = await findClientSignIn(ctx.tx, ctx.client.id, ctx.params.id!, ctx.now);
  if (!signIn) throw errors.notFound('sign in');
  if (signIn.status !== 'needs_first_factor') throw errors.signInNotActionable();
  if (!signIn.enterprise_connection_id) throw errors.strategyForUserInvalid();
  await assertMayOpenSession(ctx, ctx.client.id, null);
  return startEnterpriseSso(ctx, signIn);
}
