import { errors } from '../../errors.ts';
import { setPasswordResetRequired } from '../../store/user-admin-changes.ts';
import type { BapiRoute } from '../route.ts';
import { userAnswer } from './user-routes.ts';

/**
 * Backend API: an operator requires a user to set a new password. From then on a correct password at
 * sign-in leads to `needs_new_password` (the Clerk UI's "Set new password" card) instead of a session,
 * until the user sets one (there, by "Forgot password?", or from the profile). Other factors (email
 * code, email link) still sign in: the demand is about the password, which may have leaked.
 * `DELETE` withdraws the demand. Both answer the user, as Clerk's lock/unlock endpoints do.
 */
const passwordResetRoute = (method: 'POST' | 'DELETE', required: boolean): BapiRoute => ({
  method,
  path: '/v1/users/:id/require_password_reset',
  auth: 'secret_key',
  permission: 'instance_secret_key',
  input: {},
  async handler(req, deps) {
    const now = deps.clock();
    if (!(await setPasswordResetRequired(deps.db, req.params.id!, required, now))) {
      throw errors.notFound('user');
    }
    return userAnswer(deps, req.params.id!, now);
  },
});

export const passwordResetRoutes: BapiRoute[] = [
  passwordResetRoute('POST', true),
  passwordResetRoute('DELETE', false),
];
