import type { Queryable } from '../db/database.ts';
import { spendBackupCode } from '../store/backup-codes.ts';
import { findTotpSecret } from '../store/totp-secrets.ts';
import { spendTotpCode } from './spend-totp-code.ts';

/**
 * Spends an authenticator-app code or a backup code of the user (two-step sign-in, re-verification).
 * False when it is wrong, already used or the user has no such factor.
 */
export async function spendSecondFactorCode(
  tx: Queryable,
  keys: { secretKey: string; codePepper: string },
  input: { userId: string; strategy: 'totp' | 'backup_code'; code: string; now: Date },
): Promise<boolean> {
  const { userId, code, now } = input;
  if (input.strategy === 'backup_code') {
    return spendBackupCode(tx, { userId, code, pepper: keys.codePepper, now });
  }
  const row = await findTotpSecret(tx, userId);
  if (!row?.verified_at) return false;
  return (await spendTotpCode(tx, row, { code, instanceSecretKey: keys.secretKey, now })) !== null;
}
