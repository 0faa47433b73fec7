import type { IdentityConfig } from '../../config.ts';
import { errors } from '../../errors.ts';
import { checkCode } from '../../store/verification-codes.ts';
import { codeFailure } from '../code-failure.ts';
import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { codeAttemptLimits } from '../sign-ins/rate-limits.ts';
import { completeIfReady } from './complete-sign-up.ts';
import { loadSignUp } from './load-sign-up.ts';
import { updateSignUp } from './sign-up-store.ts';
import { attemptPhoneSignUpVerification } from './phone-verification.ts';

/** POST /client/sign_ups/:id/attempt_verification — checks the emailed code, completing the sign-up. */
export const attemptVerificationRoute = (config: IdentityConfig): FapiRoute => ({
  method: 'POST',
  path: '/client/sign_ups/:id/attempt_verification',
  rateLimits: codeAttemptLimits(config),
  async handler(ctx) {
    const signUp = await loadSignUp(ctx, { actionable: true });
    const strategy = field(ctx.body, 'strategy');
    if (strategy === 'phone_code') return attemptPhoneSignUpVerification(ctx, signUp);
    if (strategy !== 'email_code') {
      throw errors.paramValueInvalid(
        'strategy',
        'Only email_code and phone_code verification are enabled for this application.',
      );
    }
    const code = field(ctx.body, 'code');
    if (!code) throw errors.paramMissing('code');
    const prepared = signUp.email_verification;
    if (!signUp.email_address || prepared?.strategy !== 'email_code') throw errors.verificationNotPrepared();
    if (prepared.status === 'verified') return completeIfReady(ctx, signUp);

    const result = await checkCode(ctx.tx, {
      subject: `sign_up:${signUp.id}:${signUp.email_address}`,
      code,
      pepper: ctx.deps.keys.codePepper,
      maxAttempts: ctx.deps.config.maxCodeAttempts,
      now: ctx.now,
    });
    if (!result.ok) {
      const failure = codeFailure(prepared, result);
      await updateSignUp(ctx.tx, signUp.id, { email_verification: failure.verification }, ctx.now);
      return { error: failure.error };
    }
    const verified = await updateSignUp(
      ctx.tx,
      signUp.id,
      { email_verification: { ...prepared, status: 'verified', attempts: (prepared.attempts ?? 0) + 1 } },
      ctx.now,
    );
    return completeIfReady(ctx, verified);
  },
});
