import {
  connectionForEmail,
  enabledConnection,
  type EnterpriseConnection,
} from '../../enterprise-sso/connections.ts';
import type { VouchedEnterpriseIdentity } from '../../enterprise-sso/enterprise-identity.ts';
import { legalConsentRequired } from '../../sign-up-modes/sign-up-mode.ts';
import { findEnterpriseAccount } from '../../store/enterprise-sso.ts';
import { externalVerification } from '../oauth/social-sign-in.ts';
import { errors } from '../../errors.ts';
import { signUpJSON } from '../../serializers/sign-up.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import type { SignInRow, SignUpRow } from '../../store/rows.ts';
import { createSignIn } from '../../store/sign-ins.ts';
import { findClientSignUp, updateSignUp, type SignUpChanges } from '../../store/sign-ups.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { ENTERPRISE_SSO, type NewcomerConsent } from './enterprise-sign-in.ts';
import { ticketInvitationOf } from '../tickets/sign-up-ticket.ts';
import { redirectToEnterpriseIdp } from './start-enterprise-sso.ts';

/**
 * What a sign-up's address means for enterprise SSO once the form's changes apply: an address at an
 * enabled connection's domain is verified by that connection's IdP, so the sign-up answers
 * `missing_fields: ["enterprise_sso"]` (and <SignUp/> goes to the IdP), keeps no password (the IdP is the
 * factor) and cannot be completed any other way: no code stands in for the IdP (prepare_verification
 * refuses email codes and links for such an address). An address an invitation proves needs no IdP. A
 * change of address to another domain lifts it.
 */
export function enterpriseSignUpChanges(
  ctx: FapiContext,
  changes: SignUpChanges,
  existing: SignUpRow | null,
): SignUpChanges {
  const email = changes.email_address ?? existing?.email_address ?? null;
  const email_verification =
    'email_verification' in changes ? changes.email_verification : existing?.email_verification;
  // An invitation proves the address itself, and so does the IdP once it vouched (a sign-up transferred
  // from its sign-in); nothing else (a code) stands in for the IdP.
  const proven =
    ticketInvitationOf({ email_verification: email_verification ?? null }) !== null ||
    (email_verification?.status === 'verified' && email_verification.strategy === ENTERPRISE_SSO);
  const connection = proven
    ? null
    : connectionForEmail(ctx.deps.settings.settings.enterpriseConnections, email);
  const id = connection?.id ?? null;
  if (!id)
    return (existing?.enterprise_connection_id ?? null) === null
      ? changes
      : { ...changes, enterprise_connection_id: null };
  const { password_hash: _ignored, ...rest } = changes;
  return {
    ...rest,
    ...(existing?.password_hash ? { password_hash: null } : {}),
    ...(existing?.enterprise_connection_id === id ? {} : { enterprise_connection_id: id }),
  };
}

/**
 * `strategy=enterprise_sso` on this browser's sign-up (clerk-js's `completeSignUpFlow` PATCHes it with
 * `redirect_url` and `action_complete_redirect_url`, or a custom flow creates the sign-up with it): the
 * address goes to its connection's IdP through a sign-in of that address on this client, exactly the one
 * <SignIn/> would have started (SAML request or OpenID Connect state bound to it), and the sign-up answers
 * `verifications.external_account` unverified with the IdP's URL, which clerk-js navigates to. When the IdP
 * vouches, the account is provisioned as on a first enterprise sign-in and the sign-up completes with its
 * session (settleEnterpriseSignUp).
 */
export async function startEnterpriseSignUp(ctx: FapiContext, signUp: SignUpRow): Promise<FapiResult> {
  const connection = signUp.enterprise_connection_id
    ? enabledConnection(ctx.deps.settings.settings.enterpriseConnections, signUp.enterprise_connection_id)
    : null;
  if (!connection || !signUp.email_address) {
    throw errors.paramValueInvalid('strategy', 'No enterprise connection verifies this email address.');
  }
  await assertMayOpenSession(ctx, signUp.client_id, null);
  const signIn = await createSignIn(ctx.tx, {
    clientId: signUp.client_id,
    status: 'needs_first_factor',
    identifier: signUp.email_address,
    userId: null,
    enterpriseConnectionId: connection.id,
    now: ctx.now,
  });
  await ctx.updateClient({ sign_in_id: signIn.id, sign_up_id: signUp.id });
  const redirected = await redirectToEnterpriseIdp(ctx, signIn);
  const updated = await updateSignUp(
    ctx.tx,
    signUp.id,
    { external_account_verification: redirected.first_factor_verification },
    ctx.now,
  );
  return { response: signUpJSON(updated) };
}

/**
 * The sign-up of this browser waiting for the IdP of `signIn`'s connection (started on <SignUp/>), if any.
 */
export async function waitingEnterpriseSignUp(
  ctx: FapiContext,
  signIn: SignInRow,
): Promise<SignUpRow | null> {
  if (!ctx.client?.sign_up_id || !signIn.enterprise_connection_id) return null;
  const signUp = await findClientSignUp(ctx.tx, ctx.client.id, ctx.client.sign_up_id, ctx.now);
  const waiting = signUp?.external_account_verification;
  return signUp &&
    signUp.status === 'missing_requirements' &&
    signUp.enterprise_connection_id === signIn.enterprise_connection_id &&
    waiting?.strategy === ENTERPRISE_SSO &&
    waiting.status === 'unverified'
    ? signUp
    : null;
}

/**
 * The legal consent a newcomer the IdP vouched for brings to the account made for them: that given on the
 * sign-up waiting for the IdP (<SignUp/> sends `legal_accepted` with the form), asked as that sign-up was
 * when it started; on a sign-in (<SignIn/>), none, asked as the instance asks it now.
 */
export function newcomerConsent(ctx: FapiContext, waiting: SignUpRow | null): NewcomerConsent {
  return waiting
    ? { required: waiting.legal_consent_required ?? false, acceptedAt: waiting.legal_accepted_at }
    : { required: legalConsentRequired(ctx.deps.settings.settings), acceptedAt: null };
}

/**
 * After the IdP answered this browser's enterprise sign-in: the sign-up waiting for that IdP
 * (waitingEnterpriseSignUp) follows it — complete with the sign-in's user and session, or failed with the
 * same error, which <SignUp/> shows on the sign-up page the SSO callback sends the browser to. A sign-in
 * left `transferable` (a newcomer who owes the legal consent) leaves it waiting: clerk-js transfers the
 * sign-in to a new sign-up, which asks for the consent.
 */
export async function settleEnterpriseSignUp(
  ctx: FapiContext,
  signIn: SignInRow,
  signUp: SignUpRow | null,
): Promise<void> {
  const waiting = signUp?.external_account_verification;
  if (!signUp || !waiting) return;
  const outcome = signIn.first_factor_verification;
  if (signIn.status === 'complete') {
    await updateSignUp(
      ctx.tx,
      signUp.id,
      {
        status: 'complete',
        created_user_id: signIn.user_id,
        created_session_id: signIn.created_session_id,
        external_account_verification: {
          ...waiting,
          status: 'verified',
          external_verification_redirect_url: null,
        },
      },
      ctx.now,
    );
    // Finished, as the sign-in is: the client holds neither any more (a new session ends both).
    await ctx.updateClient({ sign_up_id: null });
  } else if (outcome?.status === 'failed') {
    await updateSignUp(ctx.tx, signUp.id, { external_account_verification: outcome }, ctx.now);
  }
}

/** What a sign-up transferred from an enterprise sign-in takes from the IdP: the address, verified by it. */
export function enterpriseIdentitySignUpChanges(identity: VouchedEnterpriseIdentity): SignUpChanges {
  return {
    email_address: identity.email,
    email_verification: { status: 'verified', strategy: ENTERPRISE_SSO, attempts: null, expire_at: null },
    ...(identity.firstName ? { first_name: identity.firstName.slice(0, 256) } : {}),
    ...(identity.lastName ? { last_name: identity.lastName.slice(0, 256) } : {}),
    // The IdP is the factor: no password is kept, whatever the form sent.
    password_hash: null,
    enterprise_identity: identity,
    external_account_verification: externalVerification('verified', ENTERPRISE_SSO),
  };
}

/**
 * Before the account of a sign-up the IdP vouched for is made: the connection still enabled and signing
 * people up, and its IdP user not linked to someone else meanwhile. Answers the connection.
 */
export async function enterpriseSignUpConnection(
  ctx: FapiContext,
  identity: VouchedEnterpriseIdentity,
): Promise<EnterpriseConnection> {
  const connection = enabledConnection(
    ctx.deps.settings.settings.enterpriseConnections,
    identity.connectionId,
  );
  if (!connection?.signUpAllowed) throw errors.notAllowedToSignUp();
  if (await findEnterpriseAccount(ctx.tx, connection.id, identity.providerUserId)) {
    throw errors.externalAccountExists();
  }
  return connection;
}
