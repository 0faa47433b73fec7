import { errors } from '../../../errors.ts';
import { updateSessionVerification } from '../../../store/session-verifications.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { sendPhoneCode } from '../../phone-numbers/phone-code.ts';
import { codeSubject } from './factor-verified.ts';
import { loadVerificationAt, loadVerifyingSession } from './load-verification.ts';
import { verificationResponse } from './respond.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /client/sessions/:id/verify/prepare_second_factor — an SMS code to a number reserved for
 * two-step verification (`phone_number_id`, else the default one). TOTP and backup codes need nothing.
 */
export const prepareVerificationSecondFactorRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/verify/prepare_second_factor',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum', phone_number_id: 'id' }) },
  rateLimits: (req) => [
    { key: `code_send:session_verification_2fa:${req.params.id}`, limit: 5, windowSeconds: 60 },
  ],
  async handler(ctx) {
    const { session, owner } = await loadVerifyingSession(ctx);
    const verification = await loadVerificationAt(ctx, session, 'needs_second_factor');
    if (field(ctx.body, 'strategy') !== 'phone_code') {
      throw errors.paramValueInvalid('strategy', 'Only phone_code second factors are prepared.');
    }
    if (verification.second_factor_verification?.status === 'failed') throw errors.verificationFailed();
    const { phones } = owner.secondFactors;
    const wanted = field(ctx.body, 'phone_number_id');
    const phone = wanted === undefined ? phones[0] : phones.find((p) => p.id === wanted);
    if (!phone) throw errors.noSecondFactors('phone_code');
    const state = await sendPhoneCode(ctx, {
      subject: codeSubject(verification, 'second_factor', 'phone_code'),
      phone: phone.phone_number,
      purpose: 'second_factor',
      recipient: owner.user,
    });
    const prepared = await updateSessionVerification(
      ctx.tx,
      verification.id,
      { second_factor_verification: state },
      ctx.now,
    );
    return verificationResponse(ctx, prepared);
  },
};
