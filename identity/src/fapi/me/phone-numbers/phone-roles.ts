import { secondFactorStateOf, twoFactorEnabled } from '../../../second-factors/second-factor-state.ts';
import { deleteBackupCodes } from '../../../store/backup-codes.ts';
import type { FapiContext } from '../../context.ts';

/** Backup codes back up a second factor: with none left, they go too (as when the authenticator app goes). */
export async function dropBackupCodesWithoutSecondFactor(ctx: FapiContext, userId: string): Promise<void> {
  if (!twoFactorEnabled(await secondFactorStateOf(ctx.tx, userId))) await deleteBackupCodes(ctx.tx, userId);
}
