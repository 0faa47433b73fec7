import { errors } from '../../../errors.ts';
import { newId } from '../../../ids.ts';
import { newBackupCodes } from '../../../second-factors/backup-codes.ts';
import { secondFactorStateOf, twoFactorEnabled } from '../../../second-factors/second-factor-state.ts';
import { backupCodeJSON } from '../../../serializers/second-factors.ts';
import { replaceBackupCodes } from '../../../store/backup-codes.ts';
import { touchUser } from '../../../store/user-profile.ts';
import type { FapiRoute } from '../../context.ts';
import { currentSession } from '../me-session.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /me/backup_codes (clerk-js adds a trailing slash, which the router ignores) — a new set of ten;
 * the previous set stops working, used or not. Only next to another second factor.
 */
export const createBackupCodesRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/backup_codes',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    await requireReverification(ctx, session);
    if (!twoFactorEnabled(await secondFactorStateOf(ctx.tx, session.user_id)))
      throw errors.backupCodesNotAvailable();
    const codes = newBackupCodes();
    await replaceBackupCodes(ctx.tx, {
      userId: session.user_id,
      codes,
      pepper: ctx.deps.keys.codePepper,
      now: ctx.now,
    });
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return { response: backupCodeJSON(newId('bcode'), codes, ctx.now) };
  },
});
