import type { Queryable } from '../db/database.ts';

/** Whether a Google One Tap token with this key (see social/google-one-tap.ts) was used already. */
export async function oneTapTokenUsed(db: Queryable, tokenKey: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM google_one_tap_tokens WHERE token_hash = $1', [tokenKey]);
  return rows.length > 0;
}

/**
 * Records the token as used; answers false when it was already (a replay, or a second request with the
 * same token that got here first: the insert waits for that one's transaction, then finds its row).
 */
export async function recordOneTapToken(
  tx: Queryable,
  tokenKey: string,
  expireAt: Date,
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO google_one_tap_tokens (token_hash, expire_at, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (token_hash) DO NOTHING RETURNING 1`,
    [tokenKey, expireAt, now],
  );
  return rows.length > 0;
}
