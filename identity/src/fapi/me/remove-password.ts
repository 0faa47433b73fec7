import { errors } from '../../errors.ts';
import { emailAddressesOf, findUserById, recordFailedVerification } from '../../store/users.ts';
import { removePassword } from '../../store/user-profile.ts';
import type { FapiRoute } from '../context.ts';
import { rawField } from '../form.ts';
import { currentSession } from './me-session.ts';
import { meResponse } from './me-routes.ts';
import { checkPassword, precheckPassword, userOfClientRow } from '../prepared-passwords.ts';
import { refusedToActors } from './actor-guard.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /me/remove_password — `user.removePassword({currentPassword})` (no stock UI). The password goes
 * only when the account can still sign in without it: with a code emailed to a verified address, which
 * this instance always offers as a first factor. The current password must be given and is counted
 * towards the lockout like any other failed attempt.
 */
export const removePasswordRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/remove_password',
  auth: 'session',
  permission: null,
  input: { body: formInput({ current_password: 'password' }) },
  rateLimits: (req) => [{ key: `change_password:ip:${req.ip}`, limit: 10, windowSeconds: 60 }],
  async beforeTransaction(req, deps, clientToken) {
    try {
      const current = rawField(req.body, 'current_password');
      if (current === undefined) return {};
      return await precheckPassword(
        deps,
        await userOfClientRow(deps.db, 'sessions', req.sessionId, clientToken),
        current,
      );
    } catch {
      return {};
    }
  },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const user = (await findUserById(ctx.tx, session.user_id))!;
    if (!user.password_hash) {
      throw errors.passwordRemovalNotAllowed('This account has no password to remove.');
    }
    const current = rawField(ctx.body, 'current_password');
    if (current === undefined) throw errors.paramMissing('current_password');
    if (!(await checkPassword(ctx.prepared, user.password_hash, current))) {
      if ((await recordFailedVerification(ctx.tx, user.id, ctx.deps.config.lockout, ctx.now)) === 'locked')
        ctx.deps.metrics.lockouts.inc();
      return { error: errors.passwordIncorrect('current_password') };
    }
    const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
    if (!emails.some((e) => e.verified_at)) {
      throw errors.passwordRemovalNotAllowed(
        'Verify an email address first: without a password, you sign in with a code sent to it.',
      );
    }
    await removePassword(ctx.tx, user.id, ctx.now);
    return meResponse(ctx, user.id);
  },
});
