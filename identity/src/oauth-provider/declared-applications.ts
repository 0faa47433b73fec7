import type { Database } from '../db/database.ts';
import { ClerkError } from '../errors.ts';
import { newId } from '../ids.ts';
import { secretFromEnv } from '../instance/settings/secret-reference.ts';
import {
  deleteUndeclaredOAuthApplications,
  findOAuthApplicationByClientId,
  insertOAuthApplication,
  updateOAuthApplication,
  type OAuthApplicationFields,
} from '../store/oauth-applications.ts';
import { clientSecretHash } from './oauth-client-secret.ts';
import { checkedPageUrl, checkedRedirectUri, checkedScopes } from './oauth-applications.ts';
import type { OAuthApplicationSettings } from './oauth-provider-settings.ts';

/** The row values an application declared in the settings stands for; throws naming the application. */
function declaredFields(
  app: OAuthApplicationSettings,
  pepper: string,
  env: NodeJS.ProcessEnv,
): OAuthApplicationFields & { secretHash: string | null } {
  try {
    return {
      name: app.name,
      public: app.public,
      scopes: checkedScopes(app.scopes),
      redirectUris: [...new Set(app.redirectUris.map(checkedRedirectUri))],
      consentScreenEnabled: app.consentScreenEnabled,
      clientUri: app.clientUri === undefined ? null : checkedPageUrl('clientUri', app.clientUri),
      logoUrl: app.logoUrl === undefined ? null : checkedPageUrl('logoUrl', app.logoUrl),
      secretHash: app.clientSecret ? clientSecretHash(pepper, secretFromEnv(app.clientSecret, env)) : null,
    };
  } catch (err) {
    const why = err instanceof ClerkError ? err.longMessage : (err as Error).message;
    throw new Error(`instance settings: oauthApplications ${app.clientId}: ${why}`, { cause: err });
  }
}

/**
 * Makes the declared rows of `oauth_applications` exactly the settings' `oauthApplications`, by client id,
 * in one transaction: a bad declaration stops the start and changes nothing. A client id already taken by
 * an application made through the Backend API is refused rather than taken over.
 */
export async function syncDeclaredOAuthApplications(
  db: Database,
  pepper: string,
  declared: readonly OAuthApplicationSettings[] | undefined,
  now: Date,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const wanted = (declared ?? []).map((app) => ({ app, fields: declaredFields(app, pepper, env) }));
  await db.transaction(async (tx) => {
    for (const { app, fields } of wanted) {
      const current = await findOAuthApplicationByClientId(tx, app.clientId);
      if (!current) {
        await insertOAuthApplication(tx, {
          ...fields,
          id: newId('oa'),
          clientId: app.clientId,
          declared: true,
          now,
        });
        continue;
      }
      if (!current.declared) {
        throw new Error(
          `instance settings: oauthApplications ${app.clientId}: that client id belongs to an application made ` +
            'through the Backend API; declare another one or delete that application.',
        );
      }
      const same =
        current.name === fields.name &&
        current.public === fields.public &&
        current.scopes === fields.scopes &&
        JSON.stringify(current.redirect_uris) === JSON.stringify(fields.redirectUris) &&
        current.consent_screen_enabled === fields.consentScreenEnabled &&
        current.client_uri === fields.clientUri &&
        current.logo_url === fields.logoUrl &&
        current.secret_hash === fields.secretHash;
      if (!same) await updateOAuthApplication(tx, current.id, { ...fields, now });
    }
    await deleteUndeclaredOAuthApplications(
      tx,
      wanted.map(({ app }) => app.clientId),
    );
  });
}
