import { errors } from '../../errors.ts';
import type { FapiRoute } from '../context.ts';
import { signInResponse } from './respond.ts';
import { findClientSignIn } from './sign-in-store.ts';

/** GET /client/sign_ins/:id — `signIn.reload()`. */
export const getSignInRoute: FapiRoute = {
  method: 'GET',
  path: '/client/sign_ins/:id',
  async handler(ctx) {
    const signIn = ctx.client ? await findClientSignIn(ctx.tx, ctx.client.id, ctx.params.id!, ctx.now) : null;
    if (!signIn) throw errors.notFound('sign in');
    return signInResponse(ctx, signIn);
  },
};
