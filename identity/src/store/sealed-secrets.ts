import type { Queryable } from '../db/database.ts';

/**
 * What is sealed under the instance secret key, read locked and written back by a secret-key rotation
 * (instance/rotate-secret-key.ts), in the rotation's transaction.
 */
export function lockedTotpSecrets(tx: Queryable) {
  return tx.query<{ id: string; sealed_secret: string }>(
    'SELECT id, sealed_secret FROM totp_secrets FOR UPDATE',
  );
}

export async function updateTotpSealedSecret(tx: Queryable, id: string, sealed: string): Promise<void> {
  await tx.query('UPDATE totp_secrets SET sealed_secret = $2 WHERE id = $1', [id, sealed]);
}

export function lockedApiKeySecrets(tx: Queryable) {
  return tx.query<{ id: string; secret_sealed: string }>('SELECT id, secret_sealed FROM api_keys FOR UPDATE');
}

export async function updateApiKeySealedSecret(tx: Queryable, id: string, sealed: string): Promise<void> {
  await tx.query('UPDATE api_keys SET secret_sealed = $2 WHERE id = $1', [id, sealed]);
}

export function lockedProviderTokens(tx: Queryable) {
  return tx.query<{ id: string; access_token_sealed: string | null; refresh_token_sealed: string | null }>(
    `SELECT id, access_token_sealed, refresh_token_sealed FROM external_accounts
     WHERE access_token_sealed IS NOT NULL OR refresh_token_sealed IS NOT NULL FOR UPDATE`,
  );
}

/** Replaces the tokens given (a null leaves that column as it was). */
export async function updateProviderSealedTokens(
  tx: Queryable,
  id: string,
  access: string | null,
  refresh: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE external_accounts SET access_token_sealed = COALESCE($2, access_token_sealed),
       refresh_token_sealed = COALESCE($3, refresh_token_sealed) WHERE id = $1`,
    [id, access, refresh],
  );
}

export function lockedJwtTemplateKeys(tx: Queryable) {
  return tx.query<{ id: string; sealed_signing_key: string }>(
    'SELECT id, sealed_signing_key FROM jwt_templates WHERE sealed_signing_key IS NOT NULL FOR UPDATE',
  );
}

export async function updateJwtTemplateSealedKey(tx: Queryable, id: string, sealed: string): Promise<void> {
  await tx.query('UPDATE jwt_templates SET sealed_signing_key = $2 WHERE id = $1', [id, sealed]);
}
