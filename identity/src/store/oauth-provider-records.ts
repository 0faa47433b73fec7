import type { Queryable } from '../db/database.ts';

/** A row of `oauth_provider_records` (migration 030), as the adapter reads it. */
export interface OAuthProviderRecordRow {
  payload: Record<string, unknown>;
  consumed_at: Date | null;
}

export interface OAuthProviderRecord {
  model: string;
  idHash: string;
  grantId: string | null;
  accountId: string | null;
  clientId: string | null;
  payload: Record<string, unknown>;
  expiresAt: Date | null;
}

export async function upsertOAuthProviderRecord(db: Queryable, r: OAuthProviderRecord): Promise<void> {
  await db.query(
    `INSERT INTO oauth_provider_records (model, id_hash, grant_id, account_id, client_id, payload, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (model, id_hash) DO UPDATE SET grant_id = $3, account_id = $4, client_id = $5, payload = $6,
       expires_at = $7`,
    [r.model, r.idHash, r.grantId, r.accountId, r.clientId, JSON.stringify(r.payload), r.expiresAt],
  );
}

/** The record, unless it expired. */
export async function findOAuthProviderRecord(
  db: Queryable,
  model: string,
  idHash: string,
  now: Date,
): Promise<OAuthProviderRecordRow | null> {
  const [row] = await db.query<OAuthProviderRecordRow>(
    `SELECT payload, consumed_at FROM oauth_provider_records
     WHERE model = $1 AND id_hash = $2 AND (expires_at IS NULL OR expires_at > $3)`,
    [model, idHash, now],
  );
  return row ?? null;
}

/** Marks a code or a refresh token used; a second use finds it consumed (and revokes its grant). */
export async function consumeOAuthProviderRecord(
  db: Queryable,
  model: string,
  idHash: string,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE oauth_provider_records SET consumed_at = coalesce(consumed_at, $3) WHERE model = $1 AND id_hash = $2`,
    [model, idHash, now],
  );
}

export async function deleteOAuthProviderRecord(db: Queryable, model: string, idHash: string): Promise<void> {
  await db.query(`DELETE FROM oauth_provider_records WHERE model = $1 AND id_hash = $2`, [model, idHash]);
}

/** Everything issued under a grant (codes, tokens, the grant itself): a revoked grant leaves nothing usable. */
export async function deleteOAuthProviderGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query(`DELETE FROM oauth_provider_records WHERE grant_id = $1`, [grantId]);
}

/** Everything a user's consent let an application hold (its grants, codes and tokens for that user). */
export async function deleteOAuthProviderRecordsOf(
  db: Queryable,
  accountId: string,
  clientId: string,
): Promise<void> {
  await db.query(`DELETE FROM oauth_provider_records WHERE account_id = $1 AND client_id = $2`, [
    accountId,
    clientId,
  ]);
}
