import type { Queryable } from '../db/database.ts';
import { deleteOAuthProviderRecordsOf } from '../store/oauth-provider-records.ts';
import { deleteConsent, findConsent, type OAuthConsentRow } from '../store/oauth-consents.ts';
import { scopesJSON, type Language } from './oauth-consent.ts';

/**
 * A user's remembered consent to an application, as the Frontend API (`/me/oauth_consents`, the user's own)
 * and the Backend API (`/v1/users/{id}/oauth_consents`, the operator's) answer it; the scopes' descriptions
 * are in `language`.
 */
export function oauthConsentJSON(row: OAuthConsentRow, language: Language) {
  return {
    object: 'oauth_consent',
    user_id: row.user_id,
    application_id: row.application_id,
    client_id: row.client_id,
    oauth_application_name: row.name,
    scopes: scopesJSON(row.scopes.split(' ').filter(Boolean), language),
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}

/**
 * Withdraws a user's consent to an application: the consent is forgotten (the next authorization asks
 * again) and every code, access and refresh token the application holds for that user is deleted, so they
 * stop at once. Null when the user has no consent for that application.
 */
export async function withdrawConsent(
  tx: Queryable,
  userId: string,
  applicationId: string,
): Promise<OAuthConsentRow | null> {
  const row = await findConsent(tx, userId, applicationId);
  if (!row) return null;
  await deleteConsent(tx, userId, row.application_id);
  await deleteOAuthProviderRecordsOf(tx, userId, row.client_id);
  return row;
}
