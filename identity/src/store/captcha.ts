import type { Queryable } from '../db/database.ts';

/**
 * Records a proof-of-work challenge as spent; false when it was already (a replay, or a concurrent request
 * with the same token that got here first: the insert waits for that one's transaction, then finds its row).
 */
export async function spendCaptchaChallenge(
  tx: Queryable,
  challengeHash: string,
  expireAt: Date,
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO captcha_spent_challenges (challenge_hash, expire_at, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (challenge_hash) DO NOTHING RETURNING 1`,
    [challengeHash, expireAt, now],
  );
  return rows.length > 0;
}

/**
 * Uses the client's captcha pass, if it holds one still valid: true then (once; a concurrent request waits
 * for this one's transaction and finds none).
 */
export async function consumeCaptchaPass(tx: Queryable, clientId: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    'DELETE FROM captcha_passes WHERE client_id = $1 AND pass_until > $2 RETURNING 1',
    [clientId, now],
  );
  return rows.length > 0;
}

/** The client solved the captcha modal: let through until `passUntil`. */
export async function recordCaptchaPass(tx: Queryable, clientId: string, passUntil: Date): Promise<void> {
  await tx.query(
    `INSERT INTO captcha_passes (client_id, pass_until) VALUES ($1, $2)
     ON CONFLICT (client_id) DO UPDATE SET pass_until = GREATEST(captcha_passes.pass_until, EXCLUDED.pass_until)`,
    [clientId, passUntil],
  );
}
