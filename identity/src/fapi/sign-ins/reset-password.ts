import { errors } from '../../errors.ts';
import { checkNewPassword } from '../../passwords/check-password.ts';
import type { FapiRoute } from '../context.ts';
import { booleanField, rawField } from '../form.ts';
import { loadActionableSignIn } from './load-sign-in.ts';
import { prehashNewPassword, userOfClientRow } from '../prepared-passwords.ts';
import { signInResponse } from './respond.ts';
import { setNewPassword } from './set-new-password.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /client/sign_ins/:id/reset_password — the new password of a sign-in in `needs_new_password`
 * (after a reset code, or a correct password the operator wants replaced). `<SignIn/>`'s
 * "Set new password" card sends `password` and `sign_out_of_other_sessions` (ticked by default).
 */
export const resetPasswordRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sign_ins/:id/reset_password',
  auth: 'client',
  permission: null,
  input: { body: formInput({ password: 'password', sign_out_of_other_sessions: 'bool' }) },
  rateLimits: (req) => [{ key: `reset_password:ip:${req.ip}`, limit: 10, windowSeconds: 60 }],
  // The new password hashed before the transaction if it passes the policy and the sign-in is this
  // browser's (a refused password, or a request for someone else's sign-in, costs no hash).
  async beforeTransaction(req, deps, clientToken) {
    if (!(await userOfClientRow(deps.db, 'sign_ins', req.params.id, clientToken))) return {};
    return prehashNewPassword(deps, rawField(req.body, 'password'), 'password');
  },
  async handler(ctx) {
    const { signIn, user } = await loadActionableSignIn(ctx);
    if (signIn.status !== 'needs_new_password' || signIn.first_factor_verification?.status !== 'verified') {
      throw errors.verificationNotPrepared();
    }
    const password = rawField(ctx.body, 'password');
    if (password === undefined) throw errors.paramMissing('password');
    checkNewPassword(password, ctx.deps.config.passwordPolicy, 'password');
    const signOutOfOtherSessions = booleanField(ctx.body, 'sign_out_of_other_sessions') ?? false;
    return signInResponse(ctx, await setNewPassword(ctx, signIn, user, password, { signOutOfOtherSessions }));
  },
};
