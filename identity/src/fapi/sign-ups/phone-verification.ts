import { errors } from '../../errors.ts';
import { validatePhoneNumber } from '../../phone-numbers/phone-number.ts';
import { signUpJSON } from '../../serializers/sign-up.ts';
import { phoneNumberTaken } from '../../store/phone-numbers.ts';
import type { SignUpRow } from '../../store/rows.ts';
import { attemptCode } from '../code-attempt.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { field } from '../form.ts';
import { sendPhoneCode } from '../phone-numbers/phone-code.ts';
import { phoneNumbersDisabled } from '../phone-numbers/phone-numbers-enabled.ts';
import { completeIfReady } from './complete-sign-up.ts';
import { updateSignUp, type SignUpChanges } from '../../store/sign-ups.ts';

/** The code subject names the number: changing it leaves any earlier code for the old one useless. */
const subjectOf = (signUp: Pick<SignUpRow, 'id' | 'phone_number'>) =>
  `sign_up:${signUp.id}:${signUp.phone_number}`;

/**
 * `phone_number` of a sign-up (optional on this instance): normalised to E.164, refused when an account
 * owns it (`form_identifier_exists`). A new number needs a new verification. An empty value means "not
 * given", as for every sign-up field clerk-js sends.
 */
export async function phoneSignUpChanges(
  ctx: FapiContext,
  existing: SignUpRow | null,
): Promise<SignUpChanges> {
  const raw = field(ctx.body, 'phone_number');
  if (raw === undefined) return {};
  if (!ctx.deps.sms) throw phoneNumbersDisabled();
  const phone = validatePhoneNumber(raw, { testMode: ctx.deps.config.mode === 'development' });
  if (phone === existing?.phone_number) return {};
  if (await phoneNumberTaken(ctx.tx, phone)) throw errors.identifierExists('phone_number');
  return { phone_number: phone, phone_verification: null };
}

/** `prepare_verification` with `phone_code` (`/sign-up#/verify-phone-number` on opening, and "Resend"). */
export async function preparePhoneSignUpVerification(
  ctx: FapiContext,
  signUp: SignUpRow,
): Promise<FapiResult> {
  if (!signUp.phone_number) throw noPhoneNumber();
  if (signUp.phone_verification?.status === 'verified') return { response: signUpJSON(signUp) };
  const verification = await sendPhoneCode(ctx, {
    subject: subjectOf(signUp),
    phone: signUp.phone_number,
    purpose: 'sign_up',
    recipient: signUp,
  });
  return {
    response: signUpJSON(
      await updateSignUp(ctx.tx, signUp.id, { phone_verification: verification }, ctx.now),
    ),
  };
}

/** `attempt_verification` with `phone_code`: the SMS code verifies the number; the sign-up completes when nothing else is missing. */
export async function attemptPhoneSignUpVerification(
  ctx: FapiContext,
  signUp: SignUpRow,
): Promise<FapiResult> {
  if (!signUp.phone_number) throw noPhoneNumber();
  const code = field(ctx.body, 'code');
  if (!code) throw errors.paramMissing('code');
  const prepared = signUp.phone_verification;
  if (prepared?.strategy !== 'phone_code') throw errors.verificationNotPrepared();
  if (prepared.status === 'verified') return completeIfReady(ctx, signUp);
  const attempt = await attemptCode(ctx, { subject: subjectOf(signUp), code, prepared });
  const updated = await updateSignUp(
    ctx.tx,
    signUp.id,
    { phone_verification: attempt.verification },
    ctx.now,
  );
  return attempt.ok ? completeIfReady(ctx, updated) : { error: attempt.error };
}

/** `phone_code` for a sign-up that carries no number: the strategy does not apply to it. */
function noPhoneNumber() {
  return errors.paramValueInvalid('strategy', 'This sign-up has no phone number to verify.');
}
