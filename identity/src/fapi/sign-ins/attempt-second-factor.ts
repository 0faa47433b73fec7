import type { IdentityConfig } from '../../config.ts';
import { errors } from '../../errors.ts';
import { secondFactorStateOf, supportedSecondFactors } from '../../second-factors/second-factor-state.ts';
import { spendSecondFactorCode } from '../../second-factors/spend-second-factor.ts';
import type { VerificationState } from '../../store/rows.ts';
import { recordFailedVerification } from '../../store/users.ts';
import { assertMayAttempt } from '../../abuse/attempt-gate.ts';
import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { loadActionableSignIn } from './load-sign-in.ts';
import { codeAttemptLimits } from './rate-limits.ts';
import { signInResponse } from './respond.ts';
import { secondFactorVerified } from './second-factor-verified.ts';
import { updateSignIn } from './sign-in-store.ts';
import { attemptPhoneSecondFactor } from './phone-second-factor.ts';

/**
 * POST /client/sign_ins/:id/attempt_second_factor — the authenticator code or a backup code after the
 * first factor. Wrong codes count on the verification (failed after `maxCodeAttempts`: start over) and
 * towards the account lockout, like wrong passwords.
 */
export const attemptSecondFactorRoute = (config: IdentityConfig): FapiRoute => ({
  method: 'POST',
  path: '/client/sign_ins/:id/attempt_second_factor',
  rateLimits: codeAttemptLimits(config),
  async handler(ctx) {
    const { signIn, user } = await loadActionableSignIn(ctx);
    if (signIn.status !== 'needs_second_factor') throw errors.strategyForUserInvalid();
    const strategy = field(ctx.body, 'strategy');
    if (!strategy) throw errors.paramMissing('strategy');
    const offered = supportedSecondFactors(await secondFactorStateOf(ctx.tx, user.id));
    if (!offered.some((f) => f.strategy === strategy)) throw errors.noSecondFactors(strategy);
    // SMS codes are sent codes, checked in the code store (expiry, attempts) like first-factor codes.
    if (strategy === 'phone_code') return attemptPhoneSecondFactor(ctx, signIn, user);
    const code = field(ctx.body, 'code');
    if (!code) throw errors.paramMissing('code');

    const prior = signIn.second_factor_verification;
    if (prior?.status === 'failed') throw errors.verificationFailed();
    const attempts = (prior?.attempts ?? 0) + 1;
    const verification = (status: VerificationState['status']): VerificationState => ({
      status,
      strategy,
      attempts,
      expire_at: null,
    });

    await assertMayAttempt(ctx, user.id);
    const spent = await spendSecondFactorCode(ctx.tx, ctx.deps.keys, {
      userId: user.id,
      strategy: strategy as 'totp' | 'backup_code',
      code,
      now: ctx.now,
    });
    if (!spent) {
      await recordFailedVerification(ctx.tx, user.id, ctx.deps.config.lockout, ctx.now, ctx.client?.id);
      const failed = attempts >= ctx.deps.config.maxCodeAttempts;
      await updateSignIn(
        ctx.tx,
        signIn.id,
        { second_factor_verification: verification(failed ? 'failed' : 'unverified') },
        ctx.now,
      );
      return { error: failed ? errors.verificationFailed() : errors.codeIncorrect() };
    }

    return signInResponse(ctx, await secondFactorVerified(ctx, signIn, user, verification('verified')));
  },
});
