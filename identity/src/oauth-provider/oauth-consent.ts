import type Provider from 'oidc-provider';
import type { Queryable } from '../db/database.ts';
import { constantTimeEqual, hashCode } from '../crypto/secrets.ts';
import { errors } from '../errors.ts';
import { findOAuthApplicationByClientId, type OAuthApplicationRow } from '../store/oauth-applications.ts';
import { findConsent, rememberConsent } from '../store/oauth-consents.ts';
import { deleteOAuthProviderRecord, findOAuthProviderRecord } from '../store/oauth-provider-records.ts';
import { recordIdHash } from './oidc-adapter.ts';
import { CONSENT_BINDING_MODEL } from './oidc-provider-instance.ts';

export type Language = 'en' | 'fr';

/** What each scope lets the application do, as the consent screen lists it. */
const SCOPE_DESCRIPTIONS: Record<string, Record<Language, string>> = {
  openid: { en: 'Confirm your identity', fr: 'Confirmer votre identité' },
  profile: { en: 'View your name and profile picture', fr: 'Voir votre nom et votre photo de profil' },
  email: { en: 'View your email address', fr: 'Voir votre adresse e-mail' },
  offline_access: {
    en: 'Stay connected when you are not using it',
    fr: 'Rester connectée lorsque vous ne l’utilisez pas',
  },
  public_metadata: { en: 'View your public metadata', fr: 'Voir vos métadonnées publiques' },
  private_metadata: { en: 'View your private metadata', fr: 'Voir vos métadonnées privées' },
};

/** `fr` when the browser puts French first, else English (the consent screen's two languages). */
export function consentLanguage(acceptLanguage: string | null): Language {
  return /^\s*fr\b/i.test(acceptLanguage ?? '') ? 'fr' : 'en';
}

/** Consent is needed for every scope but `openid`, which only says who the user is. */
export function scopesJSON(scopes: readonly string[], language: Language) {
  return scopes.map((scope) => ({
    scope,
    description: SCOPE_DESCRIPTIONS[scope]?.[language] ?? scope,
    requires_consent: scope !== 'openid',
  }));
}

interface BoundInteraction {
  interaction: InstanceType<Provider['Interaction']>;
  application: OAuthApplicationRow;
  scopes: string[];
}

/**
 * The interaction `uid` if this browser started it (its consent cookie matches, see interactions.url) and
 * it still waits for a decision; "not found" otherwise, as for an interaction that does not exist, so that
 * another user or browser holding the id learns nothing and can decide nothing.
 */
export async function boundInteraction(
  db: Queryable,
  provider: Provider,
  pepper: string,
  uid: string,
  binding: string | undefined,
): Promise<BoundInteraction> {
  const notFound = () => errors.notFound('oauth_consent');
  if (!binding || uid.length > 64) throw notFound();
  const record = await findOAuthProviderRecord(
    db,
    CONSENT_BINDING_MODEL,
    recordIdHash(pepper, CONSENT_BINDING_MODEL, uid),
    new Date(),
  );
  const expected = typeof record?.payload.binding === 'string' ? record.payload.binding : null;
  if (!expected || !constantTimeEqual(hashCode(pepper, 'oauth_consent_binding', binding), expected)) {
    throw notFound();
  }
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.result) throw notFound();
  const clientId = String(interaction.params.client_id ?? '');
  const application = await findOAuthApplicationByClientId(db, clientId);
  if (!application) throw notFound();
  const scopes = String(interaction.params.scope ?? '')
    .split(' ')
    .filter(Boolean);
  // oidc-provider drops `offline_access` from a request without `prompt=consent` (OpenID Connect Core
  // §11), yet an application registered with it gets refresh tokens (issueRefreshToken): the user is told.
  if (application.scopes.split(' ').includes('offline_access') && !scopes.includes('offline_access')) {
    scopes.push('offline_access');
  }
  return { interaction, application, scopes };
}

/** Whether the user allowed these scopes (or more) to the application before. */
async function remembered(db: Queryable, userId: string, app: OAuthApplicationRow, scopes: string[]) {
  const consent = await findConsent(db, userId, app.id);
  if (!consent) return false;
  const allowed = new Set(consent.scopes.split(' '));
  return scopes.every((s) => allowed.has(s));
}

/** GET <fapi>/v1/me/oauth_consent/<uid>: what the consent page shows. */
export async function consentDetailsJSON(
  db: Queryable,
  bound: BoundInteraction,
  userId: string,
  language: Language,
) {
  const { application, scopes, interaction } = bound;
  const redirectUri = String(interaction.params.redirect_uri ?? '');
  let redirectHost: string;
  try {
    redirectHost = new URL(redirectUri).host || redirectUri;
  } catch {
    redirectHost = redirectUri;
  }
  const alreadyAllowed = await remembered(db, userId, application, scopes);
  return {
    object: 'oauth_consent_request',
    id: interaction.uid,
    application_id: application.id,
    client_id: application.client_id,
    oauth_application_name: application.name,
    oauth_application_logo_url: application.logo_url,
    oauth_application_url: application.client_uri,
    scopes: scopesJSON(scopes, language),
    redirect_url: redirectHost,
    consent_remembered: alreadyAllowed,
    // The page decides at once (allow) when nothing needs asking.
    consent_required: application.consent_screen_enabled && !alreadyAllowed,
  };
}

/**
 * POST <fapi>/v1/me/oauth_consent/<uid>/decision: the user's answer becomes the interaction's result
 * (signed in as the session's user, with a grant of the scopes asked, or `access_denied`); the browser
 * then goes back into oidc-provider at `redirect_url`, which finishes at the client's redirect URI. The
 * binding is used up: a second decision finds nothing.
 */
export async function decide(
  db: Queryable,
  provider: Provider,
  pepper: string,
  bound: BoundInteraction,
  userId: string,
  allow: boolean,
  now: Date,
): Promise<{ redirect_url: string }> {
  const { interaction, application, scopes } = bound;
  await deleteOAuthProviderRecord(
    db,
    CONSENT_BINDING_MODEL,
    recordIdHash(pepper, CONSENT_BINDING_MODEL, interaction.uid),
  );
  if (allow) {
    const grant = new provider.Grant({ accountId: userId, clientId: application.client_id });
    if (scopes.length) grant.addOIDCScope(scopes.join(' '));
    const grantId = await grant.save();
    interaction.result = { login: { accountId: userId }, consent: { grantId } };
    const previous = await findConsent(db, userId, application.id);
    const union = new Set([...(previous?.scopes.split(' ').filter(Boolean) ?? []), ...scopes]);
    await rememberConsent(db, userId, application.id, [...union].join(' '), now);
  } else {
    interaction.result = { error: 'access_denied', error_description: 'The user denied the request.' };
  }
  const ttl = Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000));
  await interaction.save(ttl);
  return { redirect_url: interaction.returnTo };
}
