import type { JWK } from 'jose';
import type { Queryable } from '../db/database.ts';

export interface SigningKeyRow {
  kid: string;
  private_jwk: JWK;
  public_jwk: JWK;
}

export interface StoredSigningKey extends SigningKeyRow {
  created_at: Date;
  /** From when it signs; the key with the latest `signs_from` not in the future signs. */
  signs_from: Date;
  /** When it leaves the JWKS (every token it signed has expired); null while it is the newest. */
  retire_at: Date | null;
}

/** Every key still published at `now` (not retired), oldest first. */
export function publishedSigningKeys(db: Queryable, now: Date): Promise<StoredSigningKey[]> {
  return db.query<StoredSigningKey>(
    `SELECT kid, private_jwk, public_jwk, created_at, signs_from, retire_at FROM signing_keys
     WHERE retire_at IS NULL OR retire_at > $1 ORDER BY signs_from, created_at`,
    [now],
  );
}

/** Every stored key, retired ones included, oldest first (`keys list`). */
export function allSigningKeys(db: Queryable): Promise<StoredSigningKey[]> {
  return db.query<StoredSigningKey>(
    `SELECT kid, private_jwk, public_jwk, created_at, signs_from, retire_at FROM signing_keys
     ORDER BY signs_from, created_at`,
  );
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

/**
 * A rotation: `key` is published now and signs from `signsFrom`; every key not yet given a retirement
 * leaves the JWKS at `retireAt`. Keys already past their retirement are deleted.
 */
export async function insertNextSigningKey(
  db: Queryable,
  key: SigningKeyRow,
  signsFrom: Date,
  retireAt: Date,
  now: Date,
): Promise<void> {
  await db.query('DELETE FROM signing_keys WHERE retire_at IS NOT NULL AND retire_at <= $1', [now]);
  await db.query('UPDATE signing_keys SET retire_at = $1 WHERE retire_at IS NULL', [retireAt]);
  await db.query(
    `INSERT INTO signing_keys (kid, private_jwk, public_jwk, created_at, signs_from) VALUES ($1, $2, $3, $4, $5)`,
    [key.kid, JSON.stringify(key.private_jwk), JSON.stringify(key.public_jwk), now, signsFrom],
  );
}
