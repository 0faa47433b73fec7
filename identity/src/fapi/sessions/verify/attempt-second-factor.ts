import type { IdentityConfig } from '../../../config.ts';
import { errors } from '../../../errors.ts';
import { updateSessionVerification } from '../../../reverification/session-verification-store.ts';
import { supportedSecondFactors } from '../../../second-factors/second-factor-state.ts';
import { spendSecondFactorCode } from '../../../second-factors/spend-second-factor.ts';
import type { VerificationState } from '../../../store/rows.ts';
import { recordFailedVerification } from '../../../store/users.ts';
import { assertMayAttempt } from '../../../abuse/attempt-gate.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { codeAttemptLimits } from '../../sign-ins/rate-limits.ts';
import { checkStepCode } from './check-code.ts';
import { factorVerified } from './factor-verified.ts';
import { loadVerificationAt, loadVerifyingSession } from './load-verification.ts';
import { verificationResponse } from './respond.ts';

/**
 * POST /client/sessions/:id/verify/attempt_second_factor — an authenticator code, a backup code or the
 * SMS code just sent. Wrong codes count on the verification (failed after `maxCodeAttempts`: the modal
 * starts again) and towards the lockout.
 */
export const attemptVerificationSecondFactorRoute = (config: IdentityConfig): FapiRoute => ({
  method: 'POST',
  path: '/client/sessions/:id/verify/attempt_second_factor',
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
    const lockout = ctx.deps.config.lockout;

    if (strategy === 'phone_code') {
      if (prior?.strategy !== 'phone_code') throw errors.verificationNotPrepared();
      const checked = await checkStepCode(ctx, verification, owner.user.id, 'second_factor', prior, code);
      if ('error' in checked) return checked;
      return verificationResponse(
        ctx,
        await factorVerified(ctx, verification, session, owner, 'second_factor', checked.verified),
      );
    }

    const attempts = (prior?.attempts ?? 0) + 1;
    const state = (status: VerificationState['status']): VerificationState => ({
      status,
      strategy,
      attempts,
      expire_at: null,
    });
    await assertMayAttempt(ctx, owner.user.id);
    const spent = await spendSecondFactorCode(ctx.tx, ctx.deps.keys, {
      userId: owner.user.id,
      strategy: strategy as 'totp' | 'backup_code',
      code,
      now: ctx.now,
    });
    if (!spent) {
      await recordFailedVerification(ctx.tx, owner.user.id, lockout, ctx.now, ctx.client?.id);
      const failed = attempts >= ctx.deps.config.maxCodeAttempts;
      await updateSessionVerification(
        ctx.tx,
        verification.id,
        { second_factor_verification: state(failed ? 'failed' : 'unverified') },
        ctx.now,
      );
      return { error: failed ? errors.verificationFailed() : errors.codeIncorrect() };
    }
    return verificationResponse(
      ctx,
      await factorVerified(ctx, verification, session, owner, 'second_factor', state('verified')),
    );
  },
});
