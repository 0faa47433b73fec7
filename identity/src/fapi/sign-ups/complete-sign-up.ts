import { NO_SECOND_FACTORS } from '../../second-factors/second-factor-state.ts';
import { errors } from '../../errors.ts';
import { signUpJSON, missingFields, unverifiedFields } from '../../serializers/sign-up.ts';
import type { SignUpRow } from '../../store/rows.ts';
import { openSession } from '../sessions/open-session.ts';
import { createUserWithVerifiedEmail, emailAddressTaken } from '../../store/users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { acceptTicketOfSignUp } from '../tickets/sign-up-ticket.ts';
import { usernameTaken } from '../../store/user-profile.ts';
import { assertSignUpPhoneAvailable, attachSignUpPhoneNumber } from './sign-up-phone-number.ts';
import { assertSignUpWeb3WalletAvailable, attachSignUpWeb3Wallet } from '../web3/web3-sign-up-wallet.ts';

const UNIQUE_VIOLATION = '23505';
import { updateSignUp } from '../../store/sign-ups.ts';
import { findExternalAccount, linkExternalAccount } from '../../store/external-accounts.ts';
import { decidedAgainIfTaken } from '../oauth/provider-account-race.ts';
import { assertMaySignUp } from '../../sign-up-modes/sign-up-mode.ts';
import { ticketInvitationOf } from '../tickets/sign-up-ticket.ts';
import { assertMaySignUpWith } from '../../identifier-lists/enforce-lists.ts';
import { keepTokensIssuedWith } from '../oauth/external-account-owner.ts';
import { settleDeferredCaptcha } from '../captcha/sign-up-captcha.ts';
import { enterpriseSignUpConnection } from '../enterprise-sso/enterprise-sign-up.ts';
import { ENTERPRISE_SSO, joinOrganization } from '../enterprise-sso/enterprise-sign-in.ts';
import { linkEnterpriseAccount } from '../../store/enterprise-sso.ts';

/**
 * When nothing is missing or unverified any more, creates the user, its verified email and a session
 * in the request's transaction, and makes the session active.
 */
export async function completeIfReady(ctx: FapiContext, ready: SignUpRow): Promise<FapiResult> {
  if (
    ready.status !== 'missing_requirements' ||
    missingFields(ready).length ||
    unverifiedFields(ready).length
  ) {
    return { response: signUpJSON(ready) };
  }
  // The mode may have changed since the sign-up started: the account is made only if it still may be.
  assertMaySignUp(ctx.deps.settings.settings, {
    ticket: ticketInvitationOf(ready) !== null,
    enterprise: Boolean(ready.enterprise_identity),
  });
  // The lists may have changed since the identifiers were given (or they came from a provider): asked again.
  await assertMaySignUpWith(ctx.tx, [ready.email_address, ready.phone_number, ready.web3_wallet], {
    invited: ticketInvitationOf(ready) !== null,
  });
  // Let in without a captcha on a provider's word, and completed without that provider: asked now.
  const signUp = await settleDeferredCaptcha(ctx, ready);
  const email = signUp.email_address!;
  if (await emailAddressTaken(ctx.tx, email)) throw errors.identifierExists('email_address');
  if (signUp.username && (await usernameTaken(ctx.tx, signUp.username))) {
    throw errors.identifierExists('username');
  }
  await assertSignUpPhoneAvailable(ctx, signUp);
  await assertSignUpWeb3WalletAvailable(ctx, signUp);
  // The provider's account may have been linked to someone else since the callback (their sign-up or
  // connection completed first): it stays theirs.
  const identity = signUp.external_identity;
  if (identity && (await findExternalAccount(ctx.tx, identity.strategy, identity.providerUserId))) {
    throw errors.externalAccountExists();
  }
  // A newcomer an enterprise IdP vouched for (transferred from its sign-in): provisioned as at sign-in.
  const enterprise = signUp.enterprise_identity ?? null;
  const connection = enterprise ? await enterpriseSignUpConnection(ctx, enterprise) : null;
  // Another browser may complete a sign-up for the same address (or username) at the same moment: the
  // unique index decides, and the loser gets the same answer as if it had come second.
  const user = await createUserWithVerifiedEmail(ctx.tx, {
    email,
    username: signUp.username,
    passwordHash: signUp.password_hash,
    firstName: signUp.first_name,
    lastName: signUp.last_name,
    unsafeMetadata: signUp.unsafe_metadata,
    legalAcceptedAt: signUp.legal_accepted_at,
    emailVerificationStrategy: emailVerifiedBy(signUp, email),
    externalId: signUp.external_id ?? null,
    now: ctx.now,
  }).catch((err: unknown) => {
    const { code, constraint } = err as { code?: string; constraint?: string };
    if (code === UNIQUE_VIOLATION && constraint?.includes('external_id')) {
      // The operator gave this sign-up an external id another user took meanwhile (signUps.update).
      throw errors.paramValueInvalid('external_id', 'That external ID is taken. Please try another.');
    }
    if (code === UNIQUE_VIOLATION) {
      throw errors.identifierExists(constraint?.includes('username') ? 'username' : 'email_address');
    }
    throw err;
  });
  await attachSignUpPhoneNumber(ctx, user.id, signUp);
  await attachSignUpWeb3Wallet(ctx, user.id, signUp);
  // A social sign-up: the provider's account is the user's from the start (its next sign-in finds it).
  // Another browser may have linked the same provider account meanwhile: decided again (provider-account-race.ts).
  // The tokens the provider issued come along (sealed with the identity on the sign-up).
  if (signUp.external_identity) {
    const account = await decidedAgainIfTaken(
      linkExternalAccount(ctx.tx, user.id, signUp.external_identity, ctx.now),
    );
    await keepTokensIssuedWith(ctx, account.id, signUp.external_identity);
  }
  if (enterprise && connection) {
    await linkEnterpriseAccount(ctx.tx, user.id, enterprise, ctx.now);
    await joinOrganization(ctx, connection, user.id);
  }
  // A ticket sign-up joins the inviting organisation in this same transaction.
  await acceptTicketOfSignUp(ctx, signUp, user.id);
  // A user created just now has no second factor yet.
  const session = await openSession(ctx, user.id, 'sign_up_id', {
    secondFactor: 'not_enrolled',
    readNow: NO_SECOND_FACTORS,
  });
  const done = await updateSignUp(
    ctx.tx,
    signUp.id,
    { status: 'complete', created_user_id: user.id, created_session_id: session.id },
    ctx.now,
  );
  return { response: signUpJSON(done) };
}

/**
 * The address came verified from the provider (`from_oauth_<p>`, as Clerk says) or the enterprise IdP
 * (`enterprise_sso`), or by a code.
 */
function emailVerifiedBy(signUp: SignUpRow, email: string): string {
  if (signUp.enterprise_identity?.email === email) return ENTERPRISE_SSO;
  const identity = signUp.external_identity;
  return identity?.emailVerified && identity.email === email ? `from_${identity.strategy}` : 'email_code';
}
