import type { Queryable } from '../db/database.ts';
import type { ClerkErrorJSON } from '../errors.ts';
import { newId } from '../ids.ts';
import type { ExternalIdentity } from '../social/external-identity.ts';
import { profileValues, type ExternalAccountRow } from './external-accounts.ts';

/**
 * Connected accounts (<UserProfile/>): external accounts a signed-in user connects, reauthorizes and
 * removes, and the provider tokens kept on them. Tokens arrive here sealed (connections/provider-tokens.ts)
 * and are only ever stored and read back sealed.
 */

/** The provider's tokens as stored: each sealed, bound to the row. */
export interface SealedTokens {
  access: string;
  refresh: string | null;
  expiresAt: Date | null;
}

/** The user's external account `id`, locked for the request; null when it is not theirs (or not at all). */
export async function findOwnExternalAccount(
  tx: Queryable,
  userId: string,
  id: string,
): Promise<ExternalAccountRow | null> {
  const [row] = await tx.query<ExternalAccountRow>(
    'SELECT * FROM external_accounts WHERE id = $1 AND user_id = $2 FOR UPDATE',
    [id, userId],
  );
  return row ?? null;
}

/**
 * A connection waiting for the provider: an unverified account of `provider` naming nobody yet. The user's
 * earlier unfinished connections to the same provider go (one at a time per provider).
 */
export async function insertPendingExternalAccount(
  tx: Queryable,
  input: { userId: string; provider: string; expireAt: Date; now: Date },
): Promise<ExternalAccountRow> {
  await tx.query(
    `DELETE FROM external_accounts
      WHERE user_id = $1 AND provider = $2 AND verification_status = 'unverified' AND provider_user_id IS NULL`,
    [input.userId, input.provider],
  );
  const [row] = await tx.query<ExternalAccountRow>(
    `INSERT INTO external_accounts (id, user_id, provider, provider_user_id, verification_status,
                                    verification_expire_at, created_at, updated_at)
     VALUES ($1, $2, $3, NULL, 'unverified', $4, $5, $5) RETURNING *`,
    [newId('eac'), input.userId, input.provider, input.expireAt, input.now],
  );
  return row!;
}

/**
 * The provider vouched for `identity` on this connection: the account now names it, verified, with what
 * the provider said and its tokens (sealed by the caller for this row).
 */
export async function completeConnection(
  tx: Queryable,
  id: string,
  identity: ExternalIdentity,
  approvedScopes: string,
  tokens: SealedTokens | null,
  now: Date,
): Promise<ExternalAccountRow> {
  const [row] = await tx.query<ExternalAccountRow>(
    `UPDATE external_accounts
        SET provider_user_id = $2, email_address = $3, email_verified = $4, first_name = $5, last_name = $6,
            username = $7, image_url = $8, approved_scopes = $9, verification_status = 'verified',
            verification_error = NULL, verification_expire_at = NULL,
            access_token_sealed = COALESCE($10, access_token_sealed),
            refresh_token_sealed = COALESCE($11, refresh_token_sealed),
            token_expires_at = CASE WHEN $10::text IS NULL THEN token_expires_at ELSE $12 END,
            updated_at = $13
      WHERE id = $1 RETURNING *`,
    [
      id,
      identity.providerUserId,
      ...profileValues(identity),
      approvedScopes,
      tokens?.access ?? null,
      tokens?.refresh ?? null,
      tokens?.expiresAt ?? null,
      now,
    ],
  );
  return row!;
}

/**
 * A sign-in or sign-up with the provider issued new tokens: they replace the kept ones (the refresh token
 * only when one was issued; providers send it on the first consent only), so the Backend API answers the
 * latest.
 */
export async function keepIssuedTokens(
  tx: Queryable,
  id: string,
  tokens: SealedTokens,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE external_accounts
        SET access_token_sealed = $2, refresh_token_sealed = COALESCE($3, refresh_token_sealed),
            token_expires_at = $4, updated_at = $5
      WHERE id = $1`,
    [id, tokens.access, tokens.refresh, tokens.expiresAt, now],
  );
}

/** The connection failed: the account keeps `error` for <UserProfile/> to show (its status is unchanged). */
export async function failConnection(
  tx: Queryable,
  id: string,
  error: ClerkErrorJSON,
  now: Date,
): Promise<void> {
  await tx.query('UPDATE external_accounts SET verification_error = $2, updated_at = $3 WHERE id = $1', [
    id,
    JSON.stringify(error),
    now,
  ]);
}

/** A reauthorization starts: the account's last error is cleared. */
export async function clearConnectionError(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query('UPDATE external_accounts SET verification_error = NULL, updated_at = $2 WHERE id = $1', [
    id,
    now,
  ]);
}

export async function deleteExternalAccount(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM external_accounts WHERE id = $1', [id]);
}

/** The user's verified accounts of `provider` (the Backend API's oauth_access_tokens). */
export async function verifiedExternalAccountsOf(
  db: Queryable,
  userId: string,
  provider: string,
): Promise<ExternalAccountRow[]> {
  return db.query<ExternalAccountRow>(
    `SELECT * FROM external_accounts
      WHERE user_id = $1 AND provider = $2 AND verification_status = 'verified'
      ORDER BY created_at, id`,
    [userId, provider],
  );
}

/**
 * Replaces an account's tokens after a refresh, only if they are still the ones the refresh started from
 * (`previousAccess`): of two refreshes at once, the first to write wins and the other's answer is dropped.
 */
export async function replaceTokens(
  db: Queryable,
  id: string,
  previousAccess: string,
  tokens: SealedTokens,
  now: Date,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE external_accounts
        SET access_token_sealed = $3, refresh_token_sealed = $4, token_expires_at = $5, updated_at = $6
      WHERE id = $1 AND access_token_sealed = $2 RETURNING id`,
    [id, previousAccess, tokens.access, tokens.refresh, tokens.expiresAt, now],
  );
  return rows.length > 0;
}
