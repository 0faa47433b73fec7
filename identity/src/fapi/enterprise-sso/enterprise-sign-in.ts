import { assertNotLockedOut } from '../../abuse/attempt-gate.ts';
import type { EnterpriseConnection } from '../../enterprise-sso/connections.ts';
import type { EnterpriseIdentity } from '../../enterprise-sso/enterprise-identity.ts';
import { ClerkError, errors, type ClerkErrorJSON } from '../../errors.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import {
  findEnterpriseAccount,
  linkEnterpriseAccount,
  refreshEnterpriseAccount,
} from '../../store/enterprise-sso.ts';
import { userIdWithVerifiedEmail } from '../../store/external-accounts.ts';
import { findOrganization, insertMembership, membershipOf } from '../../store/organizations.ts';
import type { SignInRow, VerificationState } from '../../store/rows.ts';
import { updateSignIn } from '../../store/sign-ins.ts';
import { createUserWithVerifiedEmail, findUserById } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';
import { externalVerification } from '../oauth/social-sign-in.ts';
import { firstFactorVerified } from '../sign-ins/first-factor-verified.ts';

export const ENTERPRISE_SSO = 'enterprise_sso';

/**
 * The legal consent a newcomer brings to the account the IdP's word would make (enterprise-sign-up.ts
 * `newcomerConsent`): whether the instance asks it of them, and when they gave it, if they did.
 */
export interface NewcomerConsent {
  required: boolean;
  acceptedAt: Date | null;
}

const UNIQUE_VIOLATION = '23505';

/** The sign-in's enterprise SSO failed with `error` (shown by <SignIn/> on the page the browser lands on). */
export function enterpriseSignInFailed(
  ctx: FapiContext,
  signIn: SignInRow,
  error: ClerkError | ClerkErrorJSON,
): Promise<SignInRow> {
  const verification: VerificationState = {
    ...externalVerification('failed', ENTERPRISE_SSO),
    error: error instanceof ClerkError ? error.toJSON() : error,
  };
  return updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now);
}

/**
 * The connection's IdP vouched for `identity` on this browser's sign-in. The user is the one its
 * enterprise account is linked to, or else the one holding the address verified (linked now: the
 * connection's domains are the operator's, and the IdP speaks for them), or else — when the connection
 * may sign people up — a new user with that address verified, and the legal consent they gave on
 * <SignUp/>. Either way the user joins the connection's organisation (if it names one and they are not a
 * member yet) and the sign-in goes on as after any first factor: complete, or `needs_second_factor` for a
 * user with two-factor sign-in. A newcomer who owes the legal consent the instance requires gets no account
 * yet: the sign-in is `transferable`, as a social sign-in of someone new, and the sign-up clerk-js
 * transfers it to asks for `legal_accepted` before the account is made (as every sign-up does). A refusal
 * fails the verification with its error; nothing is created then.
 */
export async function enterpriseSignInVerified(
  ctx: FapiContext,
  signIn: SignInRow,
  identity: EnterpriseIdentity,
  connection: EnterpriseConnection,
  consent: NewcomerConsent,
): Promise<SignInRow> {
  try {
    const { providerUserId, email } = identity;
    if (!providerUserId) throw errors.enterpriseSsoUserAttributeMissing('user_id');
    if (!email) throw errors.enterpriseSsoUserAttributeMissing('email_address');
    if (!identity.emailInDomain || identity.connectionId !== connection.id) {
      throw errors.enterpriseSsoEmailDomainMismatch();
    }
    const known = { ...identity, providerUserId, email };
    const account = await findEnterpriseAccount(ctx.tx, connection.id, providerUserId);
    let userId = account?.user_id ?? (await userIdWithVerifiedEmail(ctx.tx, email));
    if (userId) {
      const user = await findUserById(ctx.tx, userId);
      if (!user) throw errors.externalAccountNotFound();
      await assertNotLockedOut(ctx, user);
      await assertMayOpenSession(ctx, signIn.client_id, user.id);
      if (account) await refreshEnterpriseAccount(ctx.tx, account.id, known, ctx.now);
      else await linkEnterpriseAccount(ctx.tx, user.id, known, ctx.now);
    } else {
      if (!connection.signUpAllowed) throw errors.notAllowedToSignUp();
      await assertMayOpenSession(ctx, signIn.client_id, null);
      if (consent.required && !consent.acceptedAt) {
        return await updateSignIn(
          ctx.tx,
          signIn.id,
          {
            first_factor_verification: externalVerification(
              'transferable',
              ENTERPRISE_SSO,
              errors.externalAccountNotFound(),
            ),
            enterprise_identity: known,
          },
          ctx.now,
        );
      }
      const created = await createUserWithVerifiedEmail(ctx.tx, {
        email,
        username: null,
        passwordHash: null,
        firstName: identity.firstName,
        lastName: identity.lastName,
        unsafeMetadata: {},
        legalAcceptedAt: consent.acceptedAt,
        emailVerificationStrategy: ENTERPRISE_SSO,
        now: ctx.now,
      }).catch((err: unknown) => {
        // The same address signed up at the same moment elsewhere: as if it had come second.
        if ((err as { code?: string }).code === UNIQUE_VIOLATION)
          throw errors.identifierExists('email_address');
        throw err;
      });
      userId = created.id;
      await linkEnterpriseAccount(ctx.tx, userId, known, ctx.now);
    }
    await joinOrganization(ctx, connection, userId);
    const user = (await findUserById(ctx.tx, userId))!;
    const identified = await updateSignIn(
      ctx.tx,
      signIn.id,
      { user_id: user.id, identifier: email, status: 'needs_first_factor' },
      ctx.now,
    );
    return await firstFactorVerified(ctx, identified, user, externalVerification('verified', ENTERPRISE_SSO));
  } catch (err) {
    if (!(err instanceof ClerkError)) throw err;
    return enterpriseSignInFailed(ctx, signIn, err);
  }
}

/** The connection's organisation, with its default role, for a user not yet a member of it. */
export async function joinOrganization(ctx: FapiContext, connection: EnterpriseConnection, userId: string) {
  if (!connection.organization) return;
  const organization = await findOrganization(ctx.tx, connection.organization);
  if (!organization) {
    // The operator's settings name an organisation that is gone: the sign-in goes on without it.
    console.warn(
      `identity: ${connection.id} names the organisation ${connection.organization}, which does not exist`,
    );
    return;
  }
  if (await membershipOf(ctx.tx, organization.id, userId)) return;
  await insertMembership(ctx.tx, {
    organizationId: organization.id,
    userId,
    role: connection.defaultRole,
    now: ctx.now,
  });
}
