import { signUpJSON } from '../../serializers/sign-up.ts';
import type { FapiRoute } from '../context.ts';
import { loadSignUp } from './load-sign-up.ts';

/** GET /client/sign_ups/:id — `signUp.reload()`. */
export const getSignUpRoute: FapiRoute = {
  method: 'GET',
  path: '/client/sign_ups/:id',
  async handler(ctx) {
    return { response: signUpJSON(await loadSignUp(ctx, { actionable: false })) };
  },
};
