import { sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import type { ClerkErrorJSON } from '../errors.ts';
import type { EnterpriseIdentity } from '../enterprise-sso/enterprise-identity.ts';
import { newId } from '../ids.ts';

/** What the ACS found, for the browser's next request to act on. */
export type SamlOutcome = { identity: EnterpriseIdentity } | { refusal: ClerkErrorJSON };

export interface SamlRequestRow {
  id: string;
  connection_id: string;
  client_id: string;
  sign_in_id: string;
  redirect_url: string | null;
  action_complete_redirect_url: string | null;
  expire_at: Date;
  consumed_at: Date | null;
  outcome: SamlOutcome | null;
  handoff_expire_at: Date | null;
  handoff_used_at: Date | null;
  created_at: Date;
}

/** Keeps an AuthnRequest we sent (its ID hashed), bound to the browser's client and its sign-in. */
export async function insertSamlRequest(
  tx: Queryable,
  input: {
    requestId: string;
    connectionId: string;
    clientId: string;
    signInId: string;
    redirectUrl: string | null;
    actionCompleteRedirectUrl: string | null;
    expireAt: Date;
    now: Date;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO saml_requests (id, request_id_hash, connection_id, client_id, sign_in_id, redirect_url,
                                action_complete_redirect_url, expire_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      newId('samlr'),
      sha256(input.requestId),
      input.connectionId,
      input.clientId,
      input.signInId,
      input.redirectUrl,
      input.actionCompleteRedirectUrl,
      input.expireAt,
      input.now,
    ],
  );
}

/**
 * The request `requestId` names at `connectionId`, unused and unexpired, locked until the transaction
 * ends: two posts of the same response are decided one after the other, and the second finds it spent.
 */
export async function findOpenSamlRequest(
  tx: Queryable,
  requestId: string,
  connectionId: string,
  now: Date,
): Promise<SamlRequestRow | null> {
  const [row] = await tx.query<SamlRequestRow>(
    `SELECT * FROM saml_requests
      WHERE request_id_hash = $1 AND connection_id = $2 AND consumed_at IS NULL AND expire_at > $3
      FOR UPDATE`,
    [sha256(requestId), connectionId, now],
  );
  return row ?? null;
}

/** Spends the request and leaves its outcome, which only the holder of `handoff` can take, until `handoffExpireAt`. */
export async function settleSamlRequest(
  tx: Queryable,
  id: string,
  outcome: SamlOutcome,
  handoff: string,
  handoffExpireAt: Date,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE saml_requests SET consumed_at = $2, outcome = $3, handoff_hash = $4, handoff_expire_at = $5
      WHERE id = $1`,
    [id, now, JSON.stringify(outcome), sha256(handoff), handoffExpireAt],
  );
}

/**
 * The settled request `handoff` opens, spent whatever happens next (a second use finds nothing). Null when
 * unknown or already used; the caller checks its expiry, connection and client.
 */
export async function takeSamlHandoff(
  tx: Queryable,
  handoff: string,
  now: Date,
): Promise<SamlRequestRow | null> {
  const [row] = await tx.query<SamlRequestRow>(
    `UPDATE saml_requests SET handoff_used_at = $2
      WHERE handoff_hash = $1 AND handoff_used_at IS NULL
      RETURNING *`,
    [sha256(handoff), now],
  );
  return row ?? null;
}

/**
 * Records an assertion the ACS accepted; false when it was recorded before (a replay), on this instance
 * or any other on the database: the primary key decides between concurrent posts.
 */
export async function recordSamlAssertion(
  tx: Queryable,
  connectionId: string,
  assertionId: string,
  expireAt: Date,
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO saml_assertions (connection_id, assertion_id, expire_at, created_at)
     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1`,
    [connectionId, assertionId, expireAt, now],
  );
  return rows.length === 1;
}

export interface EnterpriseAccountRow {
  id: string;
  user_id: string;
  connection_id: string;
  protocol: 'saml' | 'oidc';
  provider_user_id: string;
  email_address: string;
  first_name: string | null;
  last_name: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The account an IdP's user is linked to at a connection, if any (how a returning user is recognised). */
export async function findEnterpriseAccount(
  tx: Queryable,
  connectionId: string,
  providerUserId: string,
): Promise<EnterpriseAccountRow | null> {
  const [row] = await tx.query<EnterpriseAccountRow>(
    'SELECT * FROM enterprise_accounts WHERE connection_id = $1 AND provider_user_id = $2',
    [connectionId, providerUserId],
  );
  return row ?? null;
}

/** Links the IdP's user to `userId`; a second link of the same IdP user is refused by the unique index. */
export async function linkEnterpriseAccount(
  tx: Queryable,
  userId: string,
  identity: EnterpriseIdentity & { providerUserId: string; email: string },
  now: Date,
): Promise<EnterpriseAccountRow> {
  const [row] = await tx.query<EnterpriseAccountRow>(
    `INSERT INTO enterprise_accounts (id, user_id, connection_id, protocol, provider_user_id, email_address,
                                      first_name, last_name, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING *`,
    [
      newId('eac'),
      userId,
      identity.connectionId,
      identity.protocol,
      identity.providerUserId,
      identity.email,
      identity.firstName,
      identity.lastName,
      now,
    ],
  );
  return row!;
}

/** What the IdP says of a returning user replaces what it said before. */
export async function refreshEnterpriseAccount(
  tx: Queryable,
  id: string,
  identity: EnterpriseIdentity & { email: string },
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE enterprise_accounts SET email_address = $2, first_name = $3, last_name = $4, updated_at = $5
      WHERE id = $1`,
    [id, identity.email, identity.firstName, identity.lastName, now],
  );
}

/** How many accounts each connection has (the Backend API's `user_count`). */
export async function enterpriseAccountCounts(db: Queryable): Promise<Map<string, number>> {
  const rows = await db.query<{ connection_id: string; n: number }>(
    'SELECT connection_id, count(*)::int AS n FROM enterprise_accounts GROUP BY connection_id',
  );
  return new Map(rows.map((r) => [r.connection_id, r.n]));
}

/** The enterprise accounts of the given users, oldest first. */
export async function enterpriseAccountsOf(
  db: Queryable,
  userIds: string[],
): Promise<EnterpriseAccountRow[]> {
  if (!userIds.length) return [];
  return db.query<EnterpriseAccountRow>(
    'SELECT * FROM enterprise_accounts WHERE user_id = ANY($1) ORDER BY created_at, id',
    [userIds],
  );
}
