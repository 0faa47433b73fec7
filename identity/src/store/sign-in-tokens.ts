import type { Queryable } from '../db/database.ts';
import type { SignInTokenRow } from './rows.ts';

/** Every column but the token's hash, which never leaves the database. */
const COLUMNS = 'id, user_id, status, expires_at, created_at, updated_at';

export async function insertSignInToken(
  tx: Queryable,
  input: { id: string; userId: string; tokenHash: string; expiresAt: Date; now: Date },
): Promise<SignInTokenRow> {
  const [row] = await tx.query<SignInTokenRow>(
    `INSERT INTO sign_in_tokens (id, user_id, status, token_hash, expires_at, created_at, updated_at)
     VALUES ($1, $2, 'pending', $3, $4, $5, $5) RETURNING ${COLUMNS}`,
    [input.id, input.userId, input.tokenHash, input.expiresAt, input.now],
  );
  return row!;
}

export async function lockSignInToken(tx: Queryable, id: string): Promise<SignInTokenRow | null> {
  const [row] = await tx.query<SignInTokenRow>(
    `SELECT ${COLUMNS} FROM sign_in_tokens WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row ?? null;
}

/** `lock` holds the row for this transaction. */
export async function findSignInTokenByHash(
  tx: Queryable,
  tokenHash: string,
  opts: { lock?: boolean } = {},
): Promise<SignInTokenRow | null> {
  const [row] = await tx.query<SignInTokenRow>(
    `SELECT ${COLUMNS} FROM sign_in_tokens WHERE token_hash = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [tokenHash],
  );
  return row ?? null;
}

/** Null when the token was no longer pending: then nothing changed. */
export async function markSignInToken(
  tx: Queryable,
  id: string,
  status: 'accepted' | 'revoked',
  now: Date,
): Promise<SignInTokenRow | null> {
  const [row] = await tx.query<SignInTokenRow>(
    `UPDATE sign_in_tokens SET status = $2, updated_at = $3
     WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
    [id, status, now],
  );
  return row ?? null;
}
