import { errors } from '../../errors.ts';
import { resetPasswordFactorsFor, type ResetPasswordStrategy } from '../../password-reset/reset-factors.ts';
import { checkNewPassword } from '../../passwords/check-password.ts';
import type { SignInRow, UserRow } from '../../store/rows.ts';
import { emailAddressesOf } from '../../store/users.ts';
import { attemptFactorCode } from '../code-attempt.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { field, rawField } from '../form.ts';
import { emailOf, sendEmailCode } from './email-code.ts';
import { signInResponse } from './respond.ts';
import { setNewPassword } from './set-new-password.ts';
import { updateSignIn } from '../../store/sign-ins.ts';
import { prepareResetPasswordPhoneCode } from './reset-password-phone-code.ts';

const subjectOf = (signIn: SignInRow, strategy: ResetPasswordStrategy) => `sign_in:${signIn.id}:${strategy}`;

/**
 * "Forgot password?": sends the reset code (also "resend"). `reset_password_phone_code` is added here
 * with the phone-code sender and `phone_number_id`, exactly like the email case.
 */
export async function prepareResetPasswordFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  strategy: ResetPasswordStrategy,
): Promise<FapiResult> {
  if (strategy === 'reset_password_phone_code') return prepareResetPasswordPhoneCode(ctx, signIn, user);
  if (!user.password_hash) throw errors.strategyForUserInvalid();
  const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
  // By default the address the reset factor names (the typed one, else the primary).
  const offered = resetPasswordFactorsFor(user, emails, signIn.identifier).find(
    (f) => f.strategy === strategy,
  );
  const email = emailOf(
    emails,
    field(ctx.body, 'email_address_id') ?? (offered?.email_address_id as string | undefined),
    user.primary_email_address_id,
  );
  const verification = await sendEmailCode(ctx, {
    subject: subjectOf(signIn, strategy),
    email: email.email_address,
    purpose: 'reset_password',
    strategy,
    recipient: user,
  });
  return signInResponse(
    ctx,
    await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now),
  );
}

/**
 * The reset code: right → `needs_new_password` (the new password follows with `reset_password`), or,
 * when the new password comes with the code (Clerk's custom-flow shortcut), the password is set at once.
 * Wrong codes count like any code: on the verification (failed after `maxCodeAttempts`) and towards the
 * account lockout.
 */
export async function attemptResetPasswordFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  strategy: ResetPasswordStrategy,
): Promise<FapiResult> {
  const code = field(ctx.body, 'code');
  if (!code) throw errors.paramMissing('code');
  // Checked before the code is spent, so a refused password leaves the code usable.
  const password = rawField(ctx.body, 'password');
  if (password !== undefined) checkNewPassword(password, ctx.deps.config.passwordPolicy, 'password');
  return attemptFactorCode(ctx, {
    code,
    strategy,
    source: { sent: subjectOf(signIn, strategy) },
    prepared: signIn.first_factor_verification,
    userId: user.id,
    keep: (state) => updateSignIn(ctx.tx, signIn.id, { first_factor_verification: state }, ctx.now),
    async verified(state) {
      const waiting = await updateSignIn(
        ctx.tx,
        signIn.id,
        { status: 'needs_new_password', first_factor_verification: state },
        ctx.now,
      );
      if (password === undefined) return signInResponse(ctx, waiting);
      return signInResponse(
        ctx,
        await setNewPassword(ctx, waiting, user, password, { signOutOfOtherSessions: false }),
      );
    },
  });
}
