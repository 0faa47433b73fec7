import { errors } from '../../errors.ts';
import { chooseSignInPhone } from '../../phone-numbers/phone-factors.ts';
import { phoneNumbersOfUser } from '../../store/phone-numbers.ts';
import type { SignInRow, UserRow } from '../../store/rows.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { field } from '../form.ts';
import { sendPhoneCode } from '../phone-numbers/phone-code.ts';
import { signInResponse } from './respond.ts';
import { updateSignIn } from '../../store/sign-ins.ts';

/**
 * "Forgot password?" by SMS (`reset_password_phone_code`): the reset code goes to `phone_number_id`, by
 * default the number typed to sign in. The code is checked like the emailed one (same subject scheme,
 * `sign_in:<id>:<strategy>`), then `needs_new_password`.
 */
export async function prepareResetPasswordPhoneCode(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
): Promise<FapiResult> {
  if (!user.password_hash) throw errors.strategyForUserInvalid();
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
    subject: `sign_in:${signIn.id}:reset_password_phone_code`,
    phone: phone.phone_number,
    purpose: 'reset_password',
    strategy: 'reset_password_phone_code',
    recipient: user,
  });
  return signInResponse(
    ctx,
    await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now),
  );
}
