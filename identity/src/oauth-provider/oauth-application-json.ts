import type { OAuthApplicationRow } from '../store/oauth-applications.ts';

/** The one instance a provider serves, as its webhooks name it too. */
const INSTANCE_ID = 'ins_embedded';

/** Where this instance's authorization server answers, from the Frontend API's absolute URL. */
export function oauthEndpoints(fapiBase: string) {
  return {
    authorize_url: `${fapiBase}/oauth/authorize`,
    token_fetch_url: `${fapiBase}/oauth/token`,
    user_info_url: `${fapiBase}/oauth/userinfo`,
    discovery_url: `${fapiBase}/.well-known/openid-configuration`,
    token_introspection_url: `${fapiBase}/oauth/token_info`,
  };
}

/**
 * An application as @clerk/backend 2.10.1's `OAuthApplication.fromJSON` reads it (api/resources/JSON.ts),
 * plus `callback_url` (the first redirect URI), which older clients and Clerk's dashboard still read.
 * `client_secret` only where it was just made: the Backend API never shows it again.
 */
export function oauthApplicationJSON(row: OAuthApplicationRow, fapiBase: string, clientSecret?: string) {
  return {
    object: 'oauth_application',
    id: row.id,
    instance_id: INSTANCE_ID,
    name: row.name,
    client_id: row.client_id,
    client_uri: row.client_uri,
    client_image_url: row.logo_url,
    dynamically_registered: row.dynamically_registered,
    consent_screen_enabled: row.consent_screen_enabled,
    pkce_required: row.public,
    public: row.public,
    scopes: row.scopes,
    redirect_uris: row.redirect_uris,
    callback_url: row.redirect_uris[0] ?? '',
    ...oauthEndpoints(fapiBase),
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
    ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
  };
}
