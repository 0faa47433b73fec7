import { errors } from '../../../errors.ts';
import { findUserById } from '../../../store/users.ts';
import { phoneNumberJSON } from '../../../serializers/phone-number.ts';
import { setPhoneVerification } from '../../../store/phone-numbers.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { sendPhoneCode } from '../../phone-numbers/phone-code.ts';
import { ownPhoneNumber, phoneVerificationSubject } from './own-phone-number.ts';
import { refusedToActors } from '../actor-guard.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /me/phone_numbers/:id/prepare_verification — texts a code to the new number (on opening the
 * verify step, and "Resend"). Same code store as every code: hashed, expiring, single use,
 * attempt-limited; sending is limited per number and per IP.
 */
export const preparePhoneVerificationRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/phone_numbers/:id/prepare_verification',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum' }) },
  rateLimits: (req) => [{ key: `code_send:phone_number:${req.params.id}`, limit: 5, windowSeconds: 60 }],
  async handler(ctx) {
    const { session, phone } = await ownPhoneNumber(ctx);
    const strategy = field(ctx.body, 'strategy');
    if (strategy !== 'phone_code') {
      throw errors.paramValueInvalid(
        'strategy',
        `The verification strategy "${strategy ?? ''}" is not enabled for this application.`,
      );
    }
    if (phone.verified_at) return { response: phoneNumberJSON(phone) };
    const verification = await sendPhoneCode(ctx, {
      subject: phoneVerificationSubject(phone),
      phone: phone.phone_number,
      purpose: 'verify',
      recipient: await findUserById(ctx.tx, session.user_id),
    });
    return { response: phoneNumberJSON(await setPhoneVerification(ctx.tx, phone.id, verification, ctx.now)) };
  },
});
