import type { IdentityConfig } from '../../../config.ts';
import { errors } from '../../../errors.ts';
import { offersFirstFactor } from '../../../reverification/verification-factors.ts';
import { assertMayAttempt, countFailedAttempt } from '../../../abuse/attempt-gate.ts';
import { attemptFactorCode } from '../../code-attempt.ts';
import type { FapiRoute } from '../../context.ts';
import { updateSessionVerification } from '../../../store/session-verifications.ts';
import { field, rawField } from '../../form.ts';
import { codeAttemptLimits } from '../../sign-ins/rate-limits.ts';
import { codeSubject, factorVerified } from './factor-verified.ts';
import { loadVerificationAt, loadVerifyingSession } from './load-verification.ts';
import { verificationResponse } from './respond.ts';
import { checkPassword, precheckAttemptedPassword } from '../../prepared-passwords.ts';
import { attemptPasskeyReverification } from '../../passkeys/verify-session-with-passkey.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /client/sessions/:id/verify/attempt_first_factor — the password, or the code just sent. Wrong
 * ones count towards the account lockout exactly as at sign-in, and codes are single use and limited to
 * `maxCodeAttempts`.
 */
export const attemptVerificationFirstFactorRoute = (config: IdentityConfig): FapiRoute => ({
  method: 'POST',
  path: '/client/sessions/:id/verify/attempt_first_factor',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum', password: 'password', code: 'code' }) },
  rateLimits: codeAttemptLimits(config),
  beforeTransaction: precheckAttemptedPassword('sessions'),
  async handler(ctx) {
    const { session, owner } = await loadVerifyingSession(ctx);
    const verification = await loadVerificationAt(ctx, session, 'needs_first_factor');
    const strategy = field(ctx.body, 'strategy');
    if (strategy === 'passkey') return attemptPasskeyReverification(ctx, verification, session, owner);

    if (strategy === 'password') {
      const password = rawField(ctx.body, 'password');
      if (password === undefined) throw errors.paramMissing('password');
      if (!owner.user.password_hash) throw errors.strategyForUserInvalid();
      await assertMayAttempt(ctx, owner.user);
      if (!(await checkPassword(ctx.prepared, owner.user.password_hash, password))) {
        await countFailedAttempt(ctx, owner.user.id);
        return { error: errors.passwordIncorrect() };
      }
      const state = { status: 'verified', strategy, attempts: null, expire_at: null } as const;
      return verificationResponse(
        ctx,
        await factorVerified(ctx, verification, session, owner, 'first_factor', state),
      );
    }

    if (strategy !== 'email_code' && strategy !== 'phone_code') throw errors.strategyForUserInvalid();
    if (!offersFirstFactor(owner, strategy)) throw errors.strategyForUserInvalid();
    const code = field(ctx.body, 'code');
    if (!code) throw errors.paramMissing('code');
    return attemptFactorCode(ctx, {
      code,
      strategy,
      source: { sent: codeSubject(verification, 'first_factor', strategy) },
      prepared: verification.first_factor_verification,
      userId: owner.user.id,
      keep: (state) =>
        updateSessionVerification(ctx.tx, verification.id, { first_factor_verification: state }, ctx.now),
      verified: async (state) =>
        verificationResponse(
          ctx,
          await factorVerified(ctx, verification, session, owner, 'first_factor', state),
        ),
    });
  },
});
