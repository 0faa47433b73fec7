import type { Queryable } from '../db/database.ts';

/** Stores a new testing token's hash; the expired ones go at the same time (nothing else reads them). */
export async function insertTestingToken(
  tx: Queryable,
  input: { tokenHash: string; expiresAt: Date; now: Date },
): Promise<void> {
  await tx.query('DELETE FROM testing_tokens WHERE expires_at <= $1', [input.now]);
  await tx.query('INSERT INTO testing_tokens (token_hash, expires_at, created_at) VALUES ($1, $2, $3)', [
    input.tokenHash,
    input.expiresAt,
    input.now,
  ]);
}

/** Whether an unexpired testing token has this hash. */
export async function liveTestingTokenExists(db: Queryable, tokenHash: string, now: Date): Promise<boolean> {
  const rows = await db.query<{ one: number }>(
    'SELECT 1 AS one FROM testing_tokens WHERE token_hash = $1 AND expires_at > $2',
    [tokenHash, now],
  );
  return rows.length > 0;
}
