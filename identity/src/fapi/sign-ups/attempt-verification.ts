import type { IdentityConfig } from '../../config.ts';
import { errors } from '../../errors.ts';
import { attemptCode } from '../code-attempt.ts';
import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { codeAttemptLimits } from '../sign-ins/rate-limits.ts';
import { completeIfReady } from './complete-sign-up.ts';
import { loadSignUp } from './load-sign-up.ts';
import { updateSignUp } from '../../store/sign-ups.ts';
import { attemptPhoneSignUpVerification } from './phone-verification.ts';
import { isWeb3Strategy } from '../../web3/web3-strategies.ts';
import { attemptWeb3SignUpVerification } from '../web3/web3-sign-up.ts';
import { formInput } from '../form-input.ts';

/** POST /client/sign_ups/:id/attempt_verification — checks the emailed code, completing the sign-up. */
export const attemptVerificationRoute = (config: IdentityConfig): FapiRoute => ({
  method: 'POST',
  path: '/client/sign_ups/:id/attempt_verification',
  auth: 'client',
  permission: null,
  input: { body: formInput({ strategy: 'enum', code: 'code' }) },
  rateLimits: codeAttemptLimits(config),
  async handler(ctx) {
    const signUp = await loadSignUp(ctx, { actionable: true });
    const strategy = field(ctx.body, 'strategy');
    if (strategy === 'phone_code') return attemptPhoneSignUpVerification(ctx, signUp);
    if (isWeb3Strategy(strategy)) return attemptWeb3SignUpVerification(ctx, signUp, strategy!);
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

    const attempt = await attemptCode(ctx, {
      subject: `sign_up:${signUp.id}:${signUp.email_address}`,
      code,
      prepared,
    });
    const updated = await updateSignUp(
      ctx.tx,
      signUp.id,
      { email_verification: attempt.verification },
      ctx.now,
    );
    return attempt.ok ? completeIfReady(ctx, updated) : { error: attempt.error };
  },
});
