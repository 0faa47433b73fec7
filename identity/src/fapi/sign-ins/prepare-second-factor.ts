import { errors } from '../../errors.ts';
import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { loadActionableSignIn } from './load-sign-in.ts';
import { preparePhoneSecondFactor } from './phone-second-factor.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /client/sign_ins/:id/prepare_second_factor — `SignInFactorTwoPhoneCodeCard` on opening and
 * "Resend". Only SMS codes are prepared: the authenticator app and backup codes need nothing sent.
 */
export const prepareSecondFactorRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sign_ins/:id/prepare_second_factor',
  auth: 'client',
  permission: null,
  input: { body: formInput({ strategy: 'enum', phone_number_id: 'id' }) },
  // Per attempt here; per number and per IP where the SMS is sent (sendPhoneCode).
  rateLimits: (req) => [{ key: `code_send:sign_in_2fa:${req.params.id}`, limit: 5, windowSeconds: 60 }],
  async handler(ctx) {
    const { signIn, user } = await loadActionableSignIn(ctx);
    if (signIn.status !== 'needs_second_factor') throw errors.strategyForUserInvalid();
    const strategy = field(ctx.body, 'strategy');
    if (strategy !== 'phone_code') {
      throw errors.paramValueInvalid('strategy', 'Only phone_code second factors are prepared.');
    }
    return preparePhoneSecondFactor(ctx, signIn, user);
  },
};
