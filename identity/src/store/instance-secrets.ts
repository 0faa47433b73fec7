import type { Queryable } from '../db/database.ts';

/**
 * The instance's secrets in the key/value table of migration 001: the Backend API secret key's hash
 * (replaced when the key changes) and the pepper of one-time code hashes (made once, kept for ever).
 */
export async function storeSecretKeyHash(db: Queryable, hash: string): Promise<void> {
  await db.query(
    `INSERT INTO instance_settings (key, value) VALUES ('secret_key_sha256', $1)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [hash],
  );
}

/** The code pepper, `candidate` becoming it when the instance has none yet. */
export async function codePepperOr(db: Queryable, candidate: string): Promise<string> {
  await db.query(
    `INSERT INTO instance_settings (key, value) VALUES ('code_pepper', $1) ON CONFLICT (key) DO NOTHING`,
    [candidate],
  );
  const [pepper] = await db.query<{ value: string }>(
    `SELECT value FROM instance_settings WHERE key = 'code_pepper'`,
  );
  return pepper!.value;
}

/** The stored hash of the Backend API secret key, if the instance has started once. */
/** The pepper of one-time code hashes, as the server made it at its first start; null before. */
export async function storedCodePepper(db: Queryable): Promise<string | null> {
  const [row] = await db.query<{ value: string }>(
    `SELECT value FROM instance_settings WHERE key = 'code_pepper'`,
  );
  return row?.value ?? null;
}

export async function storedSecretKeyHash(db: Queryable): Promise<string | null> {
  const [row] = await db.query<{ value: string }>(
    `SELECT value FROM instance_settings WHERE key = 'secret_key_sha256'`,
  );
  return row?.value ?? null;
}
