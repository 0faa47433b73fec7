import type { Queryable } from '../db/database.ts';

/** A row of `oauth_applications` (migration 029). `secret_hash` is null exactly when `public`. */
export interface OAuthApplicationRow {
  id: string;
  client_id: string;
  name: string;
  public: boolean;
  scopes: string;
  redirect_uris: string[];
  consent_screen_enabled: boolean;
  /** Its home page and its logo (migration 032), https URLs shown on the consent screen; null when none. */
  client_uri: string | null;
  logo_url: string | null;
  /** Registered by the application itself (RFC 7591, migration 032). */
  dynamically_registered: boolean;
  /** Declared in the instance settings (`oauthApplications`) and synced from them at start. */
  declared: boolean;
  secret_hash: string | null;
  /**
   * The HMAC of its RFC 7592 registration access token (migration 042), for a dynamically registered
   * application only; null for the operator's, which cannot be managed with one.
   */
  registration_token_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What an application is made of, besides its id, client id, secret and times. */
export interface OAuthApplicationFields {
  name: string;
  public: boolean;
  scopes: string;
  redirectUris: string[];
  consentScreenEnabled: boolean;
  clientUri: string | null;
  logoUrl: string | null;
}

export async function insertOAuthApplication(
  tx: Queryable,
  row: OAuthApplicationFields & {
    id: string;
    clientId: string;
    secretHash: string | null;
    declared?: boolean;
    dynamicallyRegistered?: boolean;
    registrationTokenHash?: string | null;
    now: Date;
  },
): Promise<OAuthApplicationRow> {
  const [inserted] = await tx.query<OAuthApplicationRow>(
    `INSERT INTO oauth_applications (id, client_id, name, public, scopes, redirect_uris, consent_screen_enabled,
       secret_hash, declared, created_at, updated_at, client_uri, logo_url, dynamically_registered,
       registration_token_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14) RETURNING *`,
    [
      row.id,
      row.clientId,
      row.name,
      row.public,
      row.scopes,
      JSON.stringify(row.redirectUris),
      row.consentScreenEnabled,
      row.secretHash,
      row.declared ?? false,
      row.now,
      row.clientUri,
      row.logoUrl,
      row.dynamicallyRegistered ?? false,
      row.registrationTokenHash ?? null,
    ],
  );
  return inserted!;
}

export async function findOAuthApplication(
  db: Queryable,
  id: string,
  lock = false,
): Promise<OAuthApplicationRow | null> {
  const rows = await db.query<OAuthApplicationRow>(
    `SELECT * FROM oauth_applications WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findOAuthApplicationByClientId(
  db: Queryable,
  clientId: string,
  lock = false,
): Promise<OAuthApplicationRow | null> {
  const rows = await db.query<OAuthApplicationRow>(
    `SELECT * FROM oauth_applications WHERE client_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [clientId],
  );
  return rows[0] ?? null;
}

/** Replaces an application's registration access token (its hash): the one before stops working. */
export async function setOAuthApplicationRegistrationToken(
  tx: Queryable,
  id: string,
  hash: string,
): Promise<OAuthApplicationRow> {
  const [row] = await tx.query<OAuthApplicationRow>(
    `UPDATE oauth_applications SET registration_token_hash = $2 WHERE id = $1 RETURNING *`,
    [id, hash],
  );
  return row!;
}

export type OAuthApplicationOrder = { column: 'name' | 'created_at'; descending: boolean };

/** A page of the applications and how many there are, in the order asked (id breaks ties). */
export async function listOAuthApplications(
  db: Queryable,
  order: OAuthApplicationOrder,
  page: { limit: number; offset: number },
): Promise<{ rows: OAuthApplicationRow[]; total: number }> {
  const direction = order.descending ? 'DESC' : 'ASC';
  const rows = await db.query<OAuthApplicationRow & { total: number }>(
    `SELECT *, count(*) OVER ()::int AS total FROM oauth_applications
     ORDER BY ${order.column} ${direction}, id ${direction} LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
  if (rows.length) return { rows: rows.map(({ total: _, ...row }) => row), total: rows[0]!.total };
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM oauth_applications`);
  return { rows: [], total: count!.total };
}

export async function updateOAuthApplication(
  tx: Queryable,
  id: string,
  fields: OAuthApplicationFields & { secretHash: string | null; now: Date },
): Promise<OAuthApplicationRow> {
  const [row] = await tx.query<OAuthApplicationRow>(
    `UPDATE oauth_applications SET name = $2, public = $3, scopes = $4, redirect_uris = $5,
       consent_screen_enabled = $6, secret_hash = $7, updated_at = $8, client_uri = $9, logo_url = $10
     WHERE id = $1 RETURNING *`,
    [
      id,
      fields.name,
      fields.public,
      fields.scopes,
      JSON.stringify(fields.redirectUris),
      fields.consentScreenEnabled,
      fields.secretHash,
      fields.now,
      fields.clientUri,
      fields.logoUrl,
    ],
  );
  return row!;
}

export async function deleteOAuthApplication(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query(`DELETE FROM oauth_applications WHERE id = $1 RETURNING id`, [id]);
  return rows.length > 0;
}

/** Removes the declared applications whose client id is not in `keep`. */
export async function deleteUndeclaredOAuthApplications(tx: Queryable, keep: string[]): Promise<number> {
  const rows = await tx.query(
    `DELETE FROM oauth_applications WHERE declared AND NOT (client_id = ANY($1::text[])) RETURNING id`,
    [keep],
  );
  return rows.length;
}
