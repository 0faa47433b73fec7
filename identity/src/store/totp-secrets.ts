import type { Queryable } from '../db/database.ts';
import type { TotpSecretRow } from './rows.ts';

/** The user's authenticator app, locked for the rest of the transaction (codes are checked and spent under it). */
export async function findTotpSecret(tx: Queryable, userId: string): Promise<TotpSecretRow | null> {
  const [row] = await tx.query<TotpSecretRow>('SELECT * FROM totp_secrets WHERE user_id = $1 FOR UPDATE', [
    userId,
  ]);
  return row ?? null;
}

/** A new pending secret in place of any earlier one; the caller has made sure none is verified. */
export async function replaceTotpSecret(
  tx: Queryable,
  input: { id: string; userId: string; sealedSecret: string; now: Date },
): Promise<TotpSecretRow> {
  await tx.query('DELETE FROM totp_secrets WHERE user_id = $1', [input.userId]);
  const [row] = await tx.query<TotpSecretRow>(
    `INSERT INTO totp_secrets (id, user_id, sealed_secret, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) RETURNING *`,
    [input.id, input.userId, input.sealedSecret, input.now],
  );
  return row!;
}

/** Spends the step of an accepted code; the first one also verifies the secret. */
export async function spendTotpStep(
  tx: Queryable,
  id: string,
  step: number,
  now: Date,
): Promise<TotpSecretRow> {
  const [row] = await tx.query<TotpSecretRow>(
    `UPDATE totp_secrets SET last_used_step = $2, verified_at = COALESCE(verified_at, $3), updated_at = $3
     WHERE id = $1 RETURNING *`,
    [id, step, now],
  );
  return row!;
}

export async function deleteTotpSecret(tx: Queryable, userId: string): Promise<void> {
  await tx.query('DELETE FROM totp_secrets WHERE user_id = $1', [userId]);
}
