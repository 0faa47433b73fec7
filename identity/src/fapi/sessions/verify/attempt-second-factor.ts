import type { IdentityConfig } from '../../../config.ts';
import { errors } from '../../../errors.ts';
import { updateSessionVerification } from '../../../store/session-verifications.ts';
import { supportedSecondFactors } from '../../../second-factors/second-factor-state.ts';
import { attemptFactorCode } from '../../code-attempt.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { codeAttemptLimits } from '../../sign-ins/rate-limits.ts';
import { codeSubject, factorVerified } from './factor-verified.ts';
import { loadVerificationAt, loadVerifyingSession } from './load-verification.ts';
import { verificationResponse } from './respond.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /client/sessions/:id/verify/attempt_second_factor — an authenticator code, a backup code or the
 * SMS code just sent. Wrong codes count on the verification (failed after `maxCodeAttempts`: the modal
 * starts again) and towards the lockout.
 */
export const attemptVerificationSecondFactorRoute = (config: IdentityConfig): FapiRoute => ({
  method: 'POST',
  path: '/client/sessions/:id/verify/attempt_second_factor',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum', code: 'code' }) },
  rateLimits: codeAttemptLimits(config),
  async handler(ctx) {
    const { session, owner } = await loadVerifyingSession(ctx);
    const verification = await loadVerificationAt(ctx, session, 'needs_second_factor');
    const strategy = field(ctx.body, 'strategy');
    if (!strategy) throw errors.paramMissing('strategy');
    if (!supportedSecondFactors(owner.secondFactors).some((f) => f.strategy === strategy)) {
      throw errors.noSecondFactors(strategy);
    }
    const code = field(ctx.body, 'code');
    if (!code) throw errors.paramMissing('code');
    const prior = verification.second_factor_verification;
    if (prior?.status === 'failed') throw errors.verificationFailed();
    // The SMS code just sent is checked in the code store; an authenticator or backup code is spent.
    const source =
      strategy === 'phone_code'
        ? { sent: codeSubject(verification, 'second_factor', strategy) }
        : { spent: strategy as 'totp' | 'backup_code' };
    return attemptFactorCode(ctx, {
      code,
      strategy,
      source,
      prepared: prior,
      userId: owner.user.id,
      keep: (state) =>
        updateSessionVerification(ctx.tx, verification.id, { second_factor_verification: state }, ctx.now),
      verified: async (state) =>
        verificationResponse(
          ctx,
          await factorVerified(ctx, verification, session, owner, 'second_factor', state),
        ),
    });
  },
});
