import { errors } from '../../errors.ts';
import { chooseSignInPhone } from '../../phone-numbers/phone-factors.ts';
import { phoneNumbersOfUser } from '../../store/phone-numbers.ts';
import type { SignInRow, UserRow } from '../../store/rows.ts';
import { attemptFactorCode } from '../code-attempt.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { field } from '../form.ts';
import { sendPhoneCode } from '../phone-numbers/phone-code.ts';
import { firstFactorVerified } from './first-factor-verified.ts';
import { signInResponse } from './respond.ts';
import { updateSignIn } from '../../store/sign-ins.ts';

const subjectOf = (signIn: SignInRow) => `sign_in:${signIn.id}:phone_code`;

/**
 * `phone_code` as a first factor (the SMS card, "Resend", or `strategy=phone_code` at once): a code to
 * `phone_number_id`, or by default the typed number, the primary one, the first one.
 */
export async function preparePhoneCodeFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
): Promise<FapiResult> {
  const phones = await phoneNumbersOfUser(ctx.tx, user.id);
  const requested = field(ctx.body, 'phone_number_id');
  const phone = chooseSignInPhone(user, phones, signIn.identifier, requested);
  if (!phone) {
    if (requested !== undefined) {
      throw errors.paramValueInvalid('phone_number_id', 'phone_number_id does not belong to this account.');
    }
    throw errors.strategyForUserInvalid();
  }
  const verification = await sendPhoneCode(ctx, {
    subject: subjectOf(signIn),
    phone: phone.phone_number,
    purpose: 'sign_in',
    recipient: user,
  });
  return signInResponse(
    ctx,
    await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now),
  );
}

/**
 * The SMS code: right → complete (or the second factor). Wrong codes count like every code: on the
 * verification (failed after `maxCodeAttempts`) and towards the account lockout.
 */
export async function attemptPhoneCodeFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
): Promise<FapiResult> {
  if (!chooseSignInPhone(user, await phoneNumbersOfUser(ctx.tx, user.id), signIn.identifier, undefined)) {
    throw errors.strategyForUserInvalid();
  }
  const code = field(ctx.body, 'code');
  if (!code) throw errors.paramMissing('code');
  return attemptFactorCode(ctx, {
    code,
    strategy: 'phone_code',
    source: { sent: subjectOf(signIn) },
    prepared: signIn.first_factor_verification,
    userId: user.id,
    keep: (state) => updateSignIn(ctx.tx, signIn.id, { first_factor_verification: state }, ctx.now),
    verified: async (state) => signInResponse(ctx, await firstFactorVerified(ctx, signIn, user, state)),
  });
}
