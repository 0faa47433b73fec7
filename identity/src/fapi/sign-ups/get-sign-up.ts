import { signUpJSON } from '../../serializers/sign-up.ts';
import type { FapiRoute } from '../context.ts';
import { loadSignUp } from './load-sign-up.ts';
import { updateSignUp } from '../../store/sign-ups.ts';
import { staleEmailLink } from '../email-links/send-email-link.ts';
import { formInput } from '../form-input.ts';

/** GET /client/sign_ups/:id — `signUp.reload()`, also the email-link tab's polling (every second). */
export const getSignUpRoute: FapiRoute = {
  method: 'GET',
  path: '/client/sign_ups/:id',
  auth: 'client',
  permission: null,
  input: { query: formInput() },
  async handler(ctx) {
    const signUp = await loadSignUp(ctx, { actionable: false });
    const v = signUp.email_verification;
    if (staleEmailLink(v, ctx.now)) {
      const expired = { ...v, status: 'expired' as const };
      return {
        response: signUpJSON(await updateSignUp(ctx.tx, signUp.id, { email_verification: expired }, ctx.now)),
      };
    }
    return { response: signUpJSON(signUp) };
  },
};
