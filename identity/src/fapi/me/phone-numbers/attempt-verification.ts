import type { IdentityConfig } from '../../../config.ts';
import { errors } from '../../../errors.ts';
import { phoneNumberJSON } from '../../../serializers/phone-number.ts';
import {
  dropUnverifiedPhoneCopies,
  markPhoneVerified,
  phoneNumberTaken,
  setPhoneVerification,
} from '../../../store/phone-numbers.ts';
import { setPrimaryPhoneNumberIfNone, touchUser } from '../../../store/user-profile.ts';
import { attemptCode } from '../../code-attempt.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { codeAttemptLimits } from '../../sign-ins/rate-limits.ts';
import { ownPhoneNumber, phoneVerificationSubject } from './own-phone-number.ts';
import { refusedToActors } from '../actor-guard.ts';
import { formInput } from '../../form-input.ts';

const UNIQUE_VIOLATION = '23505';

/**
 * POST /me/phone_numbers/:id/attempt_verification — the texted code. A right code verifies the number:
 * it can then sign in (the first one becomes the primary number) or be reserved for two-step
 * verification. If another account verified it meanwhile, it stays theirs: `form_identifier_exists`.
 */
export const attemptPhoneVerificationRoute = (config: IdentityConfig): FapiRoute =>
  refusedToActors({
    method: 'POST',
    path: '/me/phone_numbers/:id/attempt_verification',
    auth: 'session',
    permission: null,
    input: { body: formInput({ code: 'code' }) },
    rateLimits: codeAttemptLimits(config),
    async handler(ctx) {
      const { session, phone } = await ownPhoneNumber(ctx);
      if (phone.verified_at) return { response: phoneNumberJSON(phone) };
      const code = field(ctx.body, 'code');
      if (!code) throw errors.paramMissing('code');
      const prepared = phone.verification;
      if (prepared?.strategy !== 'phone_code') throw errors.verificationNotPrepared();

      const attempt = await attemptCode(ctx, { subject: phoneVerificationSubject(phone), code, prepared });
      if (!attempt.ok) {
        await setPhoneVerification(ctx.tx, phone.id, attempt.verification, ctx.now);
        return { error: attempt.error };
      }
      if (await phoneNumberTaken(ctx.tx, phone.phone_number)) throw errors.identifierExists('phone_number');
      const verified = await markPhoneVerified(ctx.tx, phone.id, ctx.now).catch((err: unknown) => {
        if ((err as { code?: string }).code === UNIQUE_VIOLATION)
          throw errors.identifierExists('phone_number');
        throw err;
      });
      await dropUnverifiedPhoneCopies(ctx.tx, verified.phone_number, session.user_id);
      await setPrimaryPhoneNumberIfNone(ctx.tx, session.user_id, verified.id);
      await touchUser(ctx.tx, session.user_id, ctx.now);
      return { response: phoneNumberJSON(verified) };
    },
  });
