import type { Queryable } from '../db/database.ts';

/** Stores a handshake nonce's hash and its sealed directives; the expired ones go at the same time. */
export async function insertHandshakeNonce(
  tx: Queryable,
  input: { nonceHash: string; sealedDirectives: string; expiresAt: Date; now: Date },
): Promise<void> {
  await tx.query('DELETE FROM handshake_nonces WHERE expires_at <= $1', [input.now]);
  await tx.query(
    `INSERT INTO handshake_nonces (nonce_hash, sealed_directives, expires_at, created_at)
     VALUES ($1, $2, $3, $4)`,
    [input.nonceHash, input.sealedDirectives, input.expiresAt, input.now],
  );
}

/**
 * Takes the nonce with this hash: deleted by the one statement that reads it, so two servers redeeming
 * the same nonce at once cannot both get its directives. An expired one is deleted and answers null.
 */
export async function takeHandshakeNonce(
  db: Queryable,
  nonceHash: string,
  now: Date,
): Promise<{ sealed_directives: string } | null> {
  const [row] = await db.query<{ sealed_directives: string; expires_at: Date }>(
    'DELETE FROM handshake_nonces WHERE nonce_hash = $1 RETURNING sealed_directives, expires_at',
    [nonceHash],
  );
  if (!row || row.expires_at.getTime() <= now.getTime()) return null;
  return { sealed_directives: row.sealed_directives };
}
