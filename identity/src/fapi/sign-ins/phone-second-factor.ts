import { errors } from '../../errors.ts';
import { secondFactorStateOf } from '../../second-factors/second-factor-state.ts';
import type { SignInRow, UserRow } from '../../store/rows.ts';
import { attemptFactorCode } from '../code-attempt.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { field } from '../form.ts';
import { sendPhoneCode } from '../phone-numbers/phone-code.ts';
import { signInResponse } from './respond.ts';
import { secondFactorVerified } from './second-factor-verified.ts';
import { updateSignIn } from '../../store/sign-ins.ts';

const subjectOf = (signIn: SignInRow) => `sign_in:${signIn.id}:second_factor:phone_code`;

/**
 * `prepare_second_factor` with `phone_code`: a code by SMS to one of the numbers reserved for two-step
 * verification (`phone_number_id`, by default the default one). A second factor that failed (too many
 * wrong codes) stays failed: the sign-in starts over.
 */
export async function preparePhoneSecondFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
): Promise<FapiResult> {
  if (signIn.second_factor_verification?.status === 'failed') throw errors.verificationFailed();
  const { phones } = await secondFactorStateOf(ctx.tx, user.id);
  const requested = field(ctx.body, 'phone_number_id');
  const phone = requested === undefined ? phones[0] : phones.find((p) => p.id === requested);
  if (!phone) {
    if (requested !== undefined) {
      throw errors.paramValueInvalid(
        'phone_number_id',
        'phone_number_id is not a second factor of this account.',
      );
    }
    throw errors.noSecondFactors('phone_code');
  }
  const verification = await sendPhoneCode(ctx, {
    subject: subjectOf(signIn),
    phone: phone.phone_number,
    purpose: 'second_factor',
    recipient: user,
  });
  return signInResponse(
    ctx,
    await updateSignIn(ctx.tx, signIn.id, { second_factor_verification: verification }, ctx.now),
  );
}

/**
 * `attempt_second_factor` with `phone_code`: the right code opens the session. Wrong codes count on the
 * verification (failed after `maxCodeAttempts`) and towards the account lockout, as for every factor.
 */
export async function attemptPhoneSecondFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
): Promise<FapiResult> {
  const code = field(ctx.body, 'code');
  if (!code) throw errors.paramMissing('code');
  const prepared = signIn.second_factor_verification;
  if (prepared?.status === 'failed') throw errors.verificationFailed();
  return attemptFactorCode(ctx, {
    code,
    strategy: 'phone_code',
    source: { sent: subjectOf(signIn) },
    prepared,
    userId: user.id,
    keep: (state) => updateSignIn(ctx.tx, signIn.id, { second_factor_verification: state }, ctx.now),
    verified: async (state) => signInResponse(ctx, await secondFactorVerified(ctx, signIn, user, state)),
  });
}
