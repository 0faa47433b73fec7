import type { Queryable } from '../db/database.ts';

/** A user's remembered consent to an application (migration 030), with the application's name. */
export interface OAuthConsentRow {
  user_id: string;
  application_id: string;
  client_id: string;
  name: string;
  scopes: string;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT c.user_id, c.application_id, a.client_id, a.name, c.scopes, c.created_at, c.updated_at
  FROM oauth_consents c JOIN oauth_applications a ON a.id = c.application_id`;

export async function consentsOfUser(db: Queryable, userId: string): Promise<OAuthConsentRow[]> {
  return db.query<OAuthConsentRow>(`${SELECT} WHERE c.user_id = $1 ORDER BY c.created_at DESC, a.id`, [
    userId,
  ]);
}

/** One page of a user's consents, newest first, and how many there are in all. */
export async function consentsOfUserPage(
  db: Queryable,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: OAuthConsentRow[]; total: number }> {
  const rows = await db.query<OAuthConsentRow>(
    `${SELECT} WHERE c.user_id = $1 ORDER BY c.created_at DESC, a.id LIMIT $2 OFFSET $3`,
    [userId, page.limit, page.offset],
  );
  const [count] = await db.query<{ total: string | number }>(
    `SELECT count(*) AS total FROM oauth_consents WHERE user_id = $1`,
    [userId],
  );
  return { rows, total: Number(count?.total ?? 0) };
}

export async function findConsent(
  db: Queryable,
  userId: string,
  applicationId: string,
): Promise<OAuthConsentRow | null> {
  const [row] = await db.query<OAuthConsentRow>(`${SELECT} WHERE c.user_id = $1 AND c.application_id = $2`, [
    userId,
    applicationId,
  ]);
  return row ?? null;
}

/** Remembers `scopes` (space-separated) as allowed, added to what was allowed before. */
export async function rememberConsent(
  db: Queryable,
  userId: string,
  applicationId: string,
  scopes: string,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_consents (user_id, application_id, scopes, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (user_id, application_id) DO UPDATE SET scopes = $3, updated_at = $4`,
    [userId, applicationId, scopes, now],
  );
}

export async function deleteConsent(db: Queryable, userId: string, applicationId: string): Promise<boolean> {
  const rows = await db.query(
    `DELETE FROM oauth_consents WHERE user_id = $1 AND application_id = $2 RETURNING user_id`,
    [userId, applicationId],
  );
  return rows.length > 0;
}
