import { errors } from '../../../errors.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { secondFactorStateOf, twoFactorEnabled } from '../../../second-factors/second-factor-state.ts';
import { deleteBackupCodes } from '../../../store/backup-codes.ts';
import { deleteTotpSecret, findTotpSecret } from '../../../store/totp-secrets.ts';
import { touchUser } from '../../../store/user-profile.ts';
import type { FapiRoute } from '../../context.ts';
import { currentSession } from '../me-session.ts';
import { refusedToActors } from '../actor-guard.ts';
import { formInput } from '../../form-input.ts';

/**
 * DELETE /me/totp — <UserProfile/> → Security → authenticator app → Remove. Backup codes are a fallback
 * for a second factor: with none left they go too.
 */
export const deleteTotpRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/totp',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    await requireReverification(ctx, session);
    const row = await findTotpSecret(ctx.tx, session.user_id);
    if (!row) throw errors.notFound('totp');
    await deleteTotpSecret(ctx.tx, session.user_id);
    if (!twoFactorEnabled(await secondFactorStateOf(ctx.tx, session.user_id))) {
      await deleteBackupCodes(ctx.tx, session.user_id);
    }
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return { response: { object: 'totp', id: row.id, deleted: true } };
  },
});
