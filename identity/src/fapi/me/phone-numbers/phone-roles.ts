import { secondFactorStateOf, twoFactorEnabled } from '../../../second-factors/second-factor-state.ts';
import { deleteBackupCodes } from '../../../store/backup-codes.ts';
import type { FapiContext } from '../../context.ts';

/**
 * The primary number must be one the user signs in with: when it leaves that role (removed, reserved for
 * two-step verification), the oldest other such number takes over, or none.
 */
export async function reassignPrimaryPhone(
  ctx: FapiContext,
  userId: string,
  leavingId: string,
): Promise<void> {
  await ctx.tx.query(
    `UPDATE users SET primary_phone_number_id = (
       SELECT p.id FROM phone_numbers p
       WHERE p.user_id = $1 AND p.id <> $2 AND p.verified_at IS NOT NULL AND NOT p.reserved_for_second_factor
       ORDER BY p.created_at, p.id LIMIT 1)
     WHERE id = $1 AND primary_phone_number_id = $2`,
    [userId, leavingId],
  );
}

/** Exactly one reserved number is the default second factor while any is reserved. */
export async function ensureDefaultSecondFactorPhone(ctx: FapiContext, userId: string): Promise<void> {
  await ctx.tx.query(
    `UPDATE phone_numbers SET default_second_factor = true, updated_at = $2
     WHERE id = (SELECT id FROM phone_numbers WHERE user_id = $1 AND reserved_for_second_factor
                 ORDER BY created_at, id LIMIT 1)
       AND NOT EXISTS (SELECT 1 FROM phone_numbers WHERE user_id = $1 AND reserved_for_second_factor
                       AND default_second_factor)`,
    [userId, ctx.now],
  );
}

/** Backup codes back up a second factor: with none left, they go too (as when the authenticator app goes). */
export async function dropBackupCodesWithoutSecondFactor(ctx: FapiContext, userId: string): Promise<void> {
  if (!twoFactorEnabled(await secondFactorStateOf(ctx.tx, userId))) await deleteBackupCodes(ctx.tx, userId);
}
