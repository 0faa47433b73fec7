import type { IdentityConfig } from '../../config.ts';
import { errors } from '../../errors.ts';
import { secondFactorStateOf, supportedSecondFactors } from '../../second-factors/second-factor-state.ts';
import { attemptFactorCode } from '../code-attempt.ts';
import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { loadActionableSignIn } from './load-sign-in.ts';
import { codeAttemptLimits } from './rate-limits.ts';
import { signInResponse } from './respond.ts';
import { secondFactorVerified } from './second-factor-verified.ts';
import { updateSignIn } from '../../store/sign-ins.ts';
import { attemptPhoneSecondFactor } from './phone-second-factor.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /client/sign_ins/:id/attempt_second_factor — the authenticator code or a backup code after the
 * first factor. Wrong codes count on the verification (failed after `maxCodeAttempts`: start over) and
 * towards the account lockout, like wrong passwords.
 */
export const attemptSecondFactorRoute = (config: IdentityConfig): FapiRoute => ({
  method: 'POST',
  path: '/client/sign_ins/:id/attempt_second_factor',
  auth: 'client',
  permission: null,
  input: { body: formInput({ strategy: 'enum', code: 'code' }) },
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
    return attemptFactorCode(ctx, {
      code,
      strategy,
      source: { spent: strategy as 'totp' | 'backup_code' },
      prepared: prior,
      userId: user.id,
      keep: (state) => updateSignIn(ctx.tx, signIn.id, { second_factor_verification: state }, ctx.now),
      verified: async (state) => signInResponse(ctx, await secondFactorVerified(ctx, signIn, user, state)),
    });
  },
});
