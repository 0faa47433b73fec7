import type { JWK } from 'jose';
import type { Queryable } from '../db/database.ts';

export interface SigningKeyRow {
  kid: string;
  private_jwk: JWK;
  public_jwk: JWK;
}

/** The instance's newest signing key, if it has one yet. */
export async function newestSigningKey(db: Queryable): Promise<SigningKeyRow | null> {
  const [row] = await db.query<SigningKeyRow>(
    'SELECT kid, private_jwk, public_jwk FROM signing_keys ORDER BY created_at DESC LIMIT 1',
  );
  return row ?? null;
}

/**
 * Stores the instance's first signing key. Two processes starting together on one server: the first insert
 * wins, and both read the stored key back.
 */
export async function insertFirstSigningKey(db: Queryable, key: SigningKeyRow): Promise<void> {
  await db.query(
    `INSERT INTO signing_keys (kid, private_jwk, public_jwk)
     SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM signing_keys)`,
    [key.kid, JSON.stringify(key.private_jwk), JSON.stringify(key.public_jwk)],
  );
}
