import { errors } from '../../../errors.ts';
import { signInPhoneNumbers } from '../../../phone-numbers/phone-factors.ts';
import { updateSessionVerification } from '../../../store/session-verifications.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { sendPhoneCode } from '../../phone-numbers/phone-code.ts';
import { emailOf, sendEmailCode } from '../../sign-ins/email-code.ts';
import { codeSubject } from './factor-verified.ts';
import { loadVerificationAt, loadVerifyingSession } from './load-verification.ts';
import { verificationResponse } from './respond.ts';
import { preparePasskeyReverification } from '../../passkeys/verify-session-with-passkey.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /client/sessions/:id/verify/prepare_first_factor — a code to one of the user's verified email
 * addresses (`email_address_id`) or sign-in phone numbers (`phone_number_id`), as for a sign-in.
 */
export const prepareVerificationFirstFactorRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/verify/prepare_first_factor',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum', email_address_id: 'id', phone_number_id: 'id' }) },
  rateLimits: (req) => [
    { key: `code_send:session_verification:${req.params.id}`, limit: 5, windowSeconds: 60 },
  ],
  async handler(ctx) {
    const { session, owner } = await loadVerifyingSession(ctx);
    const verification = await loadVerificationAt(ctx, session, 'needs_first_factor');
    const strategy = field(ctx.body, 'strategy');
    if (strategy === 'passkey') return preparePasskeyReverification(ctx, verification, owner);
    let state;
    if (strategy === 'email_code') {
      const email = emailOf(
        owner.emails,
        field(ctx.body, 'email_address_id'),
        owner.user.primary_email_address_id,
      );
      state = await sendEmailCode(ctx, {
        subject: codeSubject(verification, 'first_factor', strategy),
        email: email.email_address,
        purpose: 'sign_in',
        recipient: owner.user,
      });
    } else if (strategy === 'phone_code') {
      const phones = signInPhoneNumbers(owner.phones);
      const wanted = field(ctx.body, 'phone_number_id');
      const phone = wanted === undefined ? phones[0] : phones.find((p) => p.id === wanted);
      if (!phone) {
        throw errors.paramValueInvalid('phone_number_id', 'phone_number_id does not belong to this account.');
      }
      state = await sendPhoneCode(ctx, {
        subject: codeSubject(verification, 'first_factor', strategy),
        phone: phone.phone_number,
        purpose: 'verify',
        recipient: owner.user,
      });
    } else {
      throw errors.strategyForUserInvalid();
    }
    const prepared = await updateSessionVerification(
      ctx.tx,
      verification.id,
      { first_factor_verification: state },
      ctx.now,
    );
    return verificationResponse(ctx, prepared);
  },
};
