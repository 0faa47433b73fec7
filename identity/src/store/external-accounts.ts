import type { Queryable } from '../db/database.ts';
import type { ClerkErrorJSON } from '../errors.ts';
import { newId } from '../ids.ts';
import type { ExternalIdentity } from '../social/external-identity.ts';

export interface ExternalAccountRow {
  id: string;
  user_id: string;
  provider: string;
  /** Null while a connection started from <UserProfile/> waits for the provider (connected-accounts.ts). */
  provider_user_id: string | null;
  email_address: string | null;
  email_verified: boolean;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  image_url: string | null;
  approved_scopes: string;
  /** `unverified`: a connection not (yet) completed; `verification_error` says why, if it failed. */
  verification_status: 'verified' | 'unverified';
  verification_error: ClerkErrorJSON | null;
  verification_expire_at: Date | null;
  /**
   * The provider's tokens, sealed (social/provider-tokens.ts); never serialized, and left out (undefined)
   * of the users read for their JSON (store/owners.ts).
   */
  access_token_sealed?: string | null;
  refresh_token_sealed?: string | null;
  token_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The account a provider's user is linked to, if any (how a returning user is recognised). */
export async function findExternalAccount(
  tx: Queryable,
  provider: string,
  providerUserId: string,
): Promise<ExternalAccountRow | null> {
  const [row] = await tx.query<ExternalAccountRow>(
    'SELECT * FROM external_accounts WHERE provider = $1 AND provider_user_id = $2',
    [provider, providerUserId],
  );
  return row ?? null;
}

export async function externalAccountsOf(tx: Queryable, userIds: string[]): Promise<ExternalAccountRow[]> {
  if (!userIds.length) return [];
  return tx.query<ExternalAccountRow>(
    'SELECT * FROM external_accounts WHERE user_id = ANY($1) ORDER BY created_at, id',
    [userIds],
  );
}

/** Links a provider's user to `userId`; a second link of the same provider account is refused by the unique index. */
export async function linkExternalAccount(
  tx: Queryable,
  userId: string,
  identity: ExternalIdentity,
  now: Date,
): Promise<ExternalAccountRow> {
  const [row] = await tx.query<ExternalAccountRow>(
    `INSERT INTO external_accounts (id, user_id, provider, provider_user_id, email_address, email_verified,
                                    first_name, last_name, username, image_url, approved_scopes,
                                    created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING *`,
    [
      newId('eac'),
      userId,
      identity.strategy,
      identity.providerUserId,
      ...profileValues(identity),
      identity.approvedScopes,
      now,
    ],
  );
  return row!;
}

/**
 * What the provider says of its user, in the order of the columns `email_address, email_verified,
 * first_name, last_name, username, image_url`.
 */
export function profileValues(identity: ExternalIdentity): unknown[] {
  return [
    identity.email,
    identity.emailVerified,
    identity.firstName,
    identity.lastName,
    identity.username,
    identity.imageUrl,
  ];
}

/** What the provider says now replaces what it said at the last sign-in (Clerk refreshes it too). */
export async function refreshExternalAccount(
  tx: Queryable,
  id: string,
  identity: ExternalIdentity,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE external_accounts SET email_address = $2, email_verified = $3, first_name = $4, last_name = $5,
            username = $6, image_url = $7, approved_scopes = $8, updated_at = $9 WHERE id = $1`,
    [id, ...profileValues(identity), identity.approvedScopes, now],
  );
}

/** The user holding `email` as a verified address (the only kind an external account may be linked by). */
export async function userIdWithVerifiedEmail(tx: Queryable, email: string): Promise<string | null> {
  const [row] = await tx.query<{ user_id: string }>(
    'SELECT user_id FROM email_addresses WHERE lower(email_address) = lower($1) AND verified_at IS NOT NULL',
    [email],
  );
  return row?.user_id ?? null;
}
