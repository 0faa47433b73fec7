import { assertNotLockedOut } from '../../abuse/attempt-gate.ts';
import { signUpModeRefusal } from '../../sign-up-modes/sign-up-mode.ts';
import { ClerkError, errors } from '../../errors.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import type { ExternalIdentity } from '../../social/oauth-client.ts';
import { withSealedTokens } from '../../social/provider-tokens.ts';
import type { SignInRow, UserRow, VerificationState } from '../../store/rows.ts';
import { updateSignIn } from '../../store/sign-ins.ts';
import { findUserById } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';
import { firstFactorVerified } from '../sign-ins/first-factor-verified.ts';
import { externalAccountOwner } from './external-account-owner.ts';

export const externalVerification = (
  status: VerificationState['status'],
  strategy: string,
  error: ClerkError | null = null,
): VerificationState => ({
  status,
  strategy,
  attempts: null,
  expire_at: null,
  external_verification_redirect_url: null,
  error: error?.toJSON() ?? null,
});

/**
 * The provider vouched for `identity` on a sign-in: the user it belongs to goes on as after any first
 * factor (complete, or `needs_second_factor` for a user with two-factor sign-in). Nobody: the sign-in is
 * `transferable` and clerk-js turns it into a sign-up (`transfer=true`), unless the provider may not
 * create accounts. A refusal on the way (a locked account, the account already signed in here) fails
 * the verification with that error, which clerk-js acts on or shows.
 */
export async function socialSignInVerified(
  ctx: FapiContext,
  signIn: SignInRow,
  identity: ExternalIdentity,
  signUpAllowed: boolean,
): Promise<SignInRow> {
  const strategy = identity.strategy;
  try {
    const userId = await externalAccountOwner(ctx, identity, { link: true });
    const user = userId ? await findUserById(ctx.tx, userId) : null;
    if (!user) {
      // Restricted and waitlist modes: nobody new is made an account from a provider's word; clerk-js
      // shows `sign_up_mode_restricted` / `sign_up_restricted_waitlist` on <SignIn/>'s card (SignInStart).
      const modeRefusal = signUpAllowed ? signUpModeRefusal(ctx.deps.settings.settings) : null;
      if (modeRefusal) {
        return await updateSignIn(
          ctx.tx,
          signIn.id,
          { first_factor_verification: externalVerification('failed', strategy, modeRefusal) },
          ctx.now,
        );
      }
      return await updateSignIn(
        ctx.tx,
        signIn.id,
        signUpAllowed
          ? {
              first_factor_verification: externalVerification(
                'transferable',
                strategy,
                errors.externalAccountNotFound(),
              ),
              // With its tokens sealed: the sign-up it is transferred to gives them to the account.
              external_identity: withSealedTokens(ctx.deps, identity, ctx.now),
            }
          : {
              first_factor_verification: externalVerification(
                'failed',
                strategy,
                errors.externalAccountNotFound(),
              ),
            },
        ctx.now,
      );
    }
    return await externalAccountUserSignIn(ctx, signIn, user, identity.email, strategy);
  } catch (err) {
    return verificationFailed(ctx, signIn, strategy, err);
  }
}

/**
 * A provider vouched for an account of `user` (by `strategy`: the redirect's `oauth_*`, or
 * `google_one_tap`): the sign-in goes on as after any first factor. A refusal (a locked account, the
 * account already signed in here) fails the verification with that error, which clerk-js acts on or shows.
 */
export async function externalAccountUserSignIn(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  identifier: string | null,
  strategy: string,
): Promise<SignInRow> {
  try {
    await assertNotLockedOut(ctx, user);
    await assertMayOpenSession(ctx, ctx.client!.id, user.id);
    const identified = await updateSignIn(
      ctx.tx,
      signIn.id,
      { user_id: user.id, identifier, status: 'needs_first_factor' },
      ctx.now,
    );
    return await firstFactorVerified(ctx, identified, user, externalVerification('verified', strategy));
  } catch (err) {
    return verificationFailed(ctx, signIn, strategy, err);
  }
}

/** A Clerk error on the provider's way in fails the sign-in's verification with it (others are thrown). */
function verificationFailed(ctx: FapiContext, signIn: SignInRow, strategy: string, err: unknown) {
  if (!(err instanceof ClerkError)) throw err;
  return updateSignIn(
    ctx.tx,
    signIn.id,
    { first_factor_verification: externalVerification('failed', strategy, err) },
    ctx.now,
  );
}
