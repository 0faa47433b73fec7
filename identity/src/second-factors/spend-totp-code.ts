import type { Queryable } from '../db/database.ts';
import { unseal } from '../crypto/sealing.ts';
import type { TotpSecretRow } from '../store/rows.ts';
import { spendTotpStep } from '../store/totp-secrets.ts';
import { acceptedStep, totpSealingKey } from './totp.ts';

/**
 * Checks `code` against the (locked) authenticator app `row` and spends its time step, so the same code
 * is never accepted twice. Null when the code is wrong, too far from now, or already used.
 */
export async function spendTotpCode(
  tx: Queryable,
  row: TotpSecretRow,
  input: { code: string; instanceSecretKey: string; now: Date },
): Promise<TotpSecretRow | null> {
  let secret: string;
  try {
    secret = unseal(totpSealingKey(input.instanceSecretKey), row.sealed_secret, row.id);
  } catch {
    // Sealed under another instance secret key (it was changed): no code can match any more; the user
    // signs in with a backup code and adds the app again.
    return null;
  }
  const step = acceptedStep(secret, input.code, input.now, row.last_used_step);
  return step === null ? null : spendTotpStep(tx, row.id, step, input.now);
}
