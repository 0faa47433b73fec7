import { errors } from '../../errors.ts';
import { findUserById, recordFailedVerification } from '../../store/users.ts';
import type { FapiRoute } from '../context.ts';
import { booleanField, rawField } from '../form.ts';
import {
  isRecentEnough,
  requireReverification,
  STRICT,
} from '../../reverification/require-reverification.ts';
import { factorVerificationAgeOf } from '../../reverification/factor-age.ts';
import { isSignedIn } from '../../store/sessions.ts';
import { deleteUser, replacePassword } from '../../store/user-profile.ts';
import { revokeOtherSessionsOfUser } from '../../store/user-sessions.ts';
import {
  acceptNewPassword,
  checkPassword,
  precheckPassword,
  prehashNewPassword,
  sessionOfClient,
} from '../prepared-passwords.ts';
import { currentSession } from './me-session.ts';
import { meResponse } from './me-routes.ts';
import { refusedToActors } from './actor-guard.ts';
import { formInput } from '../form-input.ts';

/** POST /me/change_password — UserProfile → Security → Password. */
export const changePasswordRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/change_password',
  auth: 'session',
  permission: null,
  input: {
    body: formInput({
      current_password: 'password',
      new_password: 'password',
      sign_out_of_other_sessions: 'bool',
    }),
  },
  rateLimits: (req) => [{ key: `change_password:ip:${req.ip}`, limit: 10, windowSeconds: 60 }],
  // The handler's checks, read ahead: no hashing for a call that will be asked to re-verify first.
  async beforeTransaction(req, deps, clientToken) {
    try {
      const newPassword = rawField(req.body, 'new_password');
      const current = rawField(req.body, 'current_password');
      const now = deps.clock();
      const session = await sessionOfClient(deps.db, req.sessionId, clientToken);
      if (newPassword === undefined || !session || !isSignedIn(session, now)) return {};
      if (!isRecentEnough(await factorVerificationAgeOf(deps.db, session, now), STRICT)) return {};
      const user = await findUserById(deps.db, session.user_id);
      const checked =
        user?.password_hash && current !== undefined ? await precheckPassword(deps, user, current) : {};
      if (checked.passwordCheck?.ok === false) return checked;
      return { ...checked, ...(await prehashNewPassword(deps, newPassword, 'new_password')) };
    } catch {
      return {};
    }
  },
  async handler(ctx) {
    const session = await currentSession(ctx);
    await requireReverification(ctx, session);
    const user = (await findUserById(ctx.tx, session.user_id))!;
    const newPassword = rawField(ctx.body, 'new_password');
    if (newPassword === undefined) throw errors.paramMissing('new_password');
    // With re-verification on (auth_config.reverification) clerk-js asks for no current password: the
    // recent factor verification checked above stands for it. One that is sent must still be right.
    const current = rawField(ctx.body, 'current_password');
    if (user.password_hash && current !== undefined) {
      if (!(await checkPassword(ctx.prepared, user.password_hash, current))) {
        if ((await recordFailedVerification(ctx.tx, user.id, ctx.deps.config.lockout, ctx.now)) === 'locked')
          ctx.deps.metrics.lockouts.inc();
        return { error: errors.passwordIncorrect('current_password') };
      }
    }
    const passwordHash = await acceptNewPassword(ctx.prepared, newPassword, ctx.deps, 'new_password');
    await replacePassword(ctx.tx, user.id, passwordHash, ctx.now);
    if (booleanField(ctx.body, 'sign_out_of_other_sessions')) {
      await revokeOtherSessionsOfUser(ctx.tx, user.id, session.id, ctx.now);
    }
    return meResponse(ctx, user.id);
  },
});

/** DELETE /me — self-service account deletion, when the instance and the user allow it (`delete_self_enabled`). */
export const deleteMeRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const user = (await findUserById(ctx.tx, session.user_id))!;
    if (!ctx.deps.config.deleteSelfEnabled || !user.delete_self_enabled) throw errors.deleteSelfNotAllowed();
    await requireReverification(ctx, session);
    // Sessions, emails and attempts go with the user (ON DELETE CASCADE).
    await deleteUser(ctx.tx, user.id);
    await ctx.updateClient({ last_active_session_id: null });
    ctx.signInStateChanged();
    ctx.rotateClientCredential(ctx.client!.id);
    return { response: { object: 'user', id: user.id, deleted: true } };
  },
});
