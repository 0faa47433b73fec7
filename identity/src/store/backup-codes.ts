import type { Queryable } from '../db/database.ts';
import { constantTimeEqual, hashCode } from '../crypto/secrets.ts';
import { backupCodeSubject, normalizeBackupCode } from '../second-factors/backup-codes.ts';

/** Stores a new set as keyed hashes; the previous set, used or not, stops working. */
export async function replaceBackupCodes(
  tx: Queryable,
  input: { userId: string; codes: string[]; pepper: string; now: Date },
): Promise<void> {
  await deleteBackupCodes(tx, input.userId);
  const subject = backupCodeSubject(input.userId);
  await tx.query(
    `INSERT INTO backup_codes (user_id, code_hash, created_at)
     SELECT $1, h, $3 FROM unnest($2::text[]) AS h`,
    [input.userId, input.codes.map((c) => hashCode(input.pepper, subject, c)), input.now],
  );
}

/**
 * Spends `code` if it is one of the user's unused backup codes. The rows are locked so two concurrent
 * sign-ins cannot both spend the same code; every stored hash is compared, in constant time.
 */
export async function spendBackupCode(
  tx: Queryable,
  input: { userId: string; code: string; pepper: string; now: Date },
): Promise<boolean> {
  const rows = await tx.query<{ code_hash: string }>(
    'SELECT code_hash FROM backup_codes WHERE user_id = $1 AND used_at IS NULL FOR UPDATE',
    [input.userId],
  );
  const candidate = hashCode(input.pepper, backupCodeSubject(input.userId), normalizeBackupCode(input.code));
  let match: string | null = null;
  for (const { code_hash } of rows) if (constantTimeEqual(candidate, code_hash)) match = code_hash;
  if (match === null) return false;
  await tx.query('UPDATE backup_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2', [
    input.userId,
    match,
    input.now,
  ]);
  return true;
}

export async function deleteBackupCodes(tx: Queryable, userId: string): Promise<void> {
  await tx.query('DELETE FROM backup_codes WHERE user_id = $1', [userId]);
}
