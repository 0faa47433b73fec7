import type { IdentityConfig } from '../../config.ts';
import { errors } from '../../errors.ts';
import type { FapiRoute } from '../context.ts';
import { field, rawField } from '../form.ts';
import { attemptPassword } from './attempt-password.ts';
import { firstFactorVerified } from './first-factor-verified.ts';
import { loadActionableSignIn } from './load-sign-in.ts';
import { signInResponse } from './respond.ts';
import { updateSignIn } from '../../store/sign-ins.ts';
import { codeAttemptLimits } from './rate-limits.ts';
import { attemptFactorCode } from '../code-attempt.ts';
import { isResetPasswordStrategy } from '../../password-reset/reset-factors.ts';
import { attemptResetPasswordFactor } from './reset-password-factor.ts';
import { attemptPhoneCodeFactor } from './phone-code-factor.ts';
import { precheckAttemptedPassword } from '../prepared-passwords.ts';
import { isWeb3Strategy } from '../../web3/web3-strategies.ts';
import { attemptWeb3FirstFactor } from '../web3/web3-sign-in-factor.ts';
import { attemptPasskeyFirstFactor } from '../passkeys/sign-in-with-passkey.ts';
import { formInput } from '../form-input.ts';

/** POST /client/sign_ins/:id/attempt_first_factor — password, email code or reset code. */
export const attemptFirstFactorRoute = (config: IdentityConfig): FapiRoute => ({
  method: 'POST',
  path: '/client/sign_ins/:id/attempt_first_factor',
  auth: 'client',
  permission: null,
  input: { body: formInput({ strategy: 'enum', password: 'password', code: 'code' }) },
  rateLimits: codeAttemptLimits(config),
  beforeTransaction: precheckAttemptedPassword('sign_ins'),
  async handler(ctx) {
    // A passkey's sign-in may have no account yet: its credential names it.
    if (field(ctx.body, 'strategy') === 'passkey') return attemptPasskeyFirstFactor(ctx);
    const { signIn, user, account } = await loadActionableSignIn(ctx);
    // An address at an enterprise connection's domain has no other first factor than its IdP.
    if (signIn.enterprise_connection_id) throw errors.strategyForUserInvalid();
    const strategy = field(ctx.body, 'strategy');
    if (strategy === 'password') {
      const password = rawField(ctx.body, 'password');
      if (password === undefined) throw errors.paramMissing('password');
      return attemptPassword(ctx, signIn, account, password);
    }
    if (isResetPasswordStrategy(strategy)) return attemptResetPasswordFactor(ctx, signIn, user, strategy);
    if (strategy === 'phone_code') return attemptPhoneCodeFactor(ctx, signIn, user);
    if (isWeb3Strategy(strategy)) return attemptWeb3FirstFactor(ctx, signIn, account, strategy!);
    // An email link is attempted by opening it (GET /v1/verify), never here.
    if (strategy !== 'email_code') throw errors.strategyForUserInvalid();
    const code = field(ctx.body, 'code');
    if (!code) throw errors.paramMissing('code');

    return attemptFactorCode(ctx, {
      code,
      strategy,
      source: { sent: `sign_in:${signIn.id}:email_code` },
      prepared: signIn.first_factor_verification,
      userId: user.id,
      keep: (state) => updateSignIn(ctx.tx, signIn.id, { first_factor_verification: state }, ctx.now),
      verified: async (state) => signInResponse(ctx, await firstFactorVerified(ctx, signIn, user, state)),
    });
  },
});
