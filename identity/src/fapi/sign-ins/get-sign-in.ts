import { errors } from '../../errors.ts';
import type { FapiRoute } from '../context.ts';
import { signInResponse } from './respond.ts';
import { findClientSignIn, updateSignIn } from '../../store/sign-ins.ts';
import { staleEmailLink } from '../email-links/send-email-link.ts';
import { formInput } from '../form-input.ts';

/** GET /client/sign_ins/:id — `signIn.reload()`, also the email-link tab's polling (every second). */
export const getSignInRoute: FapiRoute = {
  method: 'GET',
  path: '/client/sign_ins/:id',
  auth: 'client',
  permission: null,
  input: { query: formInput() },
  async handler(ctx) {
    const signIn = ctx.client ? await findClientSignIn(ctx.tx, ctx.client.id, ctx.params.id!, ctx.now) : null;
    if (!signIn) throw errors.notFound('sign in');
    const v = signIn.first_factor_verification;
    if (staleEmailLink(v, ctx.now)) {
      const expired = { ...v, status: 'expired' as const };
      return signInResponse(
        ctx,
        await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: expired }, ctx.now),
      );
    }
    return signInResponse(ctx, signIn);
  },
};
