import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { constantTimeEqual, hashCode } from '../crypto/secrets.ts';

export type CodeCheck =
  | { ok: true }
  | { ok: false; reason: 'not_prepared' | 'expired' | 'too_many_attempts' | 'incorrect'; attempts: number };

/** Issues a new code for `subject`; earlier unused codes for it stop working. */
export async function issueCode(
  db: Queryable,
  input: { subject: string; code: string; pepper: string; ttlSeconds: number; now: Date },
): Promise<Date> {
  const expireAt = new Date(input.now.getTime() + input.ttlSeconds * 1000);
  await db.query(
    'UPDATE verification_codes SET consumed_at = $2 WHERE subject = $1 AND consumed_at IS NULL',
    [input.subject, input.now],
  );
  await db.query(
    `INSERT INTO verification_codes (id, subject, code_hash, expire_at, created_at) VALUES ($1, $2, $3, $4, $5)`,
    [newId('vc'), input.subject, hashCode(input.pepper, input.subject, input.code), expireAt, input.now],
  );
  return expireAt;
}

/**
 * Checks a code: single use, expiring, attempt-limited. The row is locked so two concurrent attempts
 * cannot both spend the same code or both slip under the attempt limit.
 */
export async function checkCode(
  db: Queryable,
  input: { subject: string; code: string; pepper: string; maxAttempts: number; now: Date },
): Promise<CodeCheck> {
  const [row] = await db.query<{ id: string; code_hash: string; expire_at: Date; attempts: number }>(
    `SELECT id, code_hash, expire_at, attempts FROM verification_codes
     WHERE subject = $1 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    [input.subject],
  );
  if (!row) return { ok: false, reason: 'not_prepared', attempts: 0 };
  if (row.attempts >= input.maxAttempts)
    return { ok: false, reason: 'too_many_attempts', attempts: row.attempts };
  if (row.expire_at.getTime() <= input.now.getTime())
    return { ok: false, reason: 'expired', attempts: row.attempts };
  const candidate = hashCode(input.pepper, input.subject, input.code.trim());
  if (!constantTimeEqual(candidate, row.code_hash)) {
    await db.query('UPDATE verification_codes SET attempts = attempts + 1 WHERE id = $1', [row.id]);
    const attempts = row.attempts + 1;
    return { ok: false, reason: attempts >= input.maxAttempts ? 'too_many_attempts' : 'incorrect', attempts };
  }
  await db.query('UPDATE verification_codes SET consumed_at = $2, attempts = attempts + 1 WHERE id = $1', [
    row.id,
    input.now,
  ]);
  return { ok: true };
}

/** Codes of every subject that starts with `prefix` (matched with LIKE), spent or not. */
export async function deleteCodesOfSubjectPrefix(db: Queryable, prefix: string): Promise<void> {
  await db.query('DELETE FROM verification_codes WHERE subject LIKE $1', [`${prefix}%`]);
}
