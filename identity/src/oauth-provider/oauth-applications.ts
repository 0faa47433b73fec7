import type { Queryable } from '../db/database.ts';
import { errors } from '../errors.ts';
import { newId } from '../ids.ts';
import {
  deleteOAuthApplication,
  findOAuthApplication,
  insertOAuthApplication,
  updateOAuthApplication,
  type OAuthApplicationFields,
  type OAuthApplicationRow,
} from '../store/oauth-applications.ts';
import { clientSecretHash, newClientId, newClientSecret } from './oauth-client-secret.ts';

/** Clerk's cap on an application's name (OAuthApplicationsApi.ts: "Max length: 256"). */
export const OAUTH_APPLICATION_NAME_MAX_LENGTH = 256;
export const MAX_REDIRECT_URIS = 20;
const REDIRECT_URI_MAX_LENGTH = 2048;
/**
 * The scopes an application may ask: OpenID Connect's, and Clerk's two metadata scopes (what the user
 * info endpoint answers). Hosted Clerk's default for a new application is `profile email`.
 */
export const OAUTH_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'public_metadata',
  'private_metadata',
] as const;
export const DEFAULT_OAUTH_SCOPES = 'profile email';

/** What a create or an update asks for; an update's absent fields keep their values. */
export interface OAuthApplicationInput {
  name?: string;
  public?: boolean;
  scopes?: string;
  redirectUris?: string[];
  consentScreenEnabled?: boolean;
  /** Its home page and its logo; an empty string clears one. */
  clientUri?: string;
  logoUrl?: string;
}

/** Where plain http is allowed (RFC 8252 §7.3): this machine. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

const invalid = (name: string, detail: string) => errors.paramValueInvalid(name, detail);

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw errors.paramMissing('name');
  if (trimmed.length > OAUTH_APPLICATION_NAME_MAX_LENGTH) {
    throw errors.paramMaxLength('name', OAUTH_APPLICATION_NAME_MAX_LENGTH);
  }
  return trimmed;
}

/** Space-separated scopes of the list above, each once, in the order given. */
export function checkedScopes(scopes: string): string {
  const asked = scopes.split(' ').filter(Boolean);
  const unknown = asked.find((s) => !(OAUTH_SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) {
    throw invalid('scopes', `scopes must be space-separated values among ${OAUTH_SCOPES.join(', ')}.`);
  }
  return [...new Set(asked)].join(' ');
}

/**
 * A redirect URI is matched exactly at the authorization endpoint, so it must be absolute and final: no
 * fragment (RFC 6749 §3.1.2), https, plain http only on this machine's loopback (RFC 8252 §7.3), or a
 * native app's private-use scheme, which must hold a dot (a reversed domain, RFC 8252 §7.1) so that it
 * cannot be `javascript:` or `data:`.
 */
export function checkedRedirectUri(uri: string): string {
  const refuse = (why: string) => invalid('redirect_uris', `${uri.slice(0, 100)} ${why}`);
  if (uri.length > REDIRECT_URI_MAX_LENGTH)
    throw refuse(`is longer than ${REDIRECT_URI_MAX_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw refuse('is not an absolute URL.');
  }
  if (uri.includes('#')) throw refuse('must not have a fragment.');
  if (url.username || url.password) throw refuse('must not hold credentials.');
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return uri;
  if (scheme === 'http') {
    if (LOOPBACK_HOSTS.includes(url.hostname)) return uri;
    throw refuse('must be https (plain http only on localhost, 127.0.0.1 or [::1]).');
  }
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) return uri;
  throw refuse('must be https, loopback http, or a private-use scheme such as com.example.app:/callback.');
}

/**
 * An application's home page or logo, which the consent screen links to or shows: https, or plain http on
 * this machine's loopback (a developer's application), absolute, with no credentials; an empty string
 * clears it.
 */
export function checkedPageUrl(name: string, uri: string): string | null {
  if (uri === '') return null;
  const refuse = (why: string) => invalid(name, `${name} ${why}`);
  if (uri.length > REDIRECT_URI_MAX_LENGTH)
    throw refuse(`is longer than ${REDIRECT_URI_MAX_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw refuse('is not an absolute URL.');
  }
  if (url.username || url.password) throw refuse('must not hold credentials.');
  if (url.protocol === 'https:') return uri;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname)) return uri;
  throw refuse('must be https (plain http only on localhost, 127.0.0.1 or [::1]).');
}

function checkedRedirectUris(uris: string[]): string[] {
  if (uris.length > MAX_REDIRECT_URIS) {
    throw invalid('redirect_uris', `An application has at most ${MAX_REDIRECT_URIS} redirect URIs.`);
  }
  return [...new Set(uris.map(checkedRedirectUri))];
}

/** The fields of a new application, or of one changed by `input`; throws Clerk's field errors. */
function fieldsOf(input: OAuthApplicationInput, current?: OAuthApplicationRow): OAuthApplicationFields {
  if (input.name === undefined && !current) throw errors.paramMissing('name');
  return {
    name: input.name === undefined ? current!.name : checkedName(input.name),
    public: input.public ?? current?.public ?? false,
    scopes:
      input.scopes === undefined ? (current?.scopes ?? DEFAULT_OAUTH_SCOPES) : checkedScopes(input.scopes),
    redirectUris:
      input.redirectUris === undefined
        ? (current?.redirect_uris ?? [])
        : checkedRedirectUris(input.redirectUris),
    consentScreenEnabled: input.consentScreenEnabled ?? current?.consent_screen_enabled ?? true,
    clientUri:
      input.clientUri === undefined
        ? (current?.client_uri ?? null)
        : checkedPageUrl('client_uri', input.clientUri),
    logoUrl:
      input.logoUrl === undefined
        ? (current?.logo_url ?? null)
        : checkedPageUrl('client_image_url', input.logoUrl),
  };
}

/** A secret and its hash for a confidential application, nothing for a public one. */
function secretFor(pepper: string, isPublic: boolean): { secret?: string; hash: string | null } {
  if (isPublic) return { hash: null };
  const secret = newClientSecret();
  return { secret, hash: clientSecretHash(pepper, secret) };
}

export interface WithSecret {
  row: OAuthApplicationRow;
  /** The client secret, when one was just made: the only time it is shown. */
  secret?: string;
}

export async function createOAuthApplication(
  tx: Queryable,
  pepper: string,
  input: OAuthApplicationInput,
  now: Date,
  how: { dynamicallyRegistered?: boolean; registrationTokenHash?: string } = {},
): Promise<WithSecret> {
  const fields = fieldsOf(input);
  const { secret, hash } = secretFor(pepper, fields.public);
  const row = await insertOAuthApplication(tx, {
    ...fields,
    id: newId('oa'),
    clientId: newClientId(),
    secretHash: hash,
    dynamicallyRegistered: how.dynamicallyRegistered ?? false,
    registrationTokenHash: how.registrationTokenHash ?? null,
    now,
  });
  return { row, secret };
}

async function existing(tx: Queryable, id: string): Promise<OAuthApplicationRow> {
  const row = await findOAuthApplication(tx, id, true);
  if (!row) throw errors.notFound('oauth_application');
  return row;
}

/**
 * Changes an application. Turning it public drops its secret; turning a public one confidential makes a
 * secret, answered once as on create.
 */
export async function changeOAuthApplication(
  tx: Queryable,
  pepper: string,
  id: string,
  input: OAuthApplicationInput,
  now: Date,
): Promise<WithSecret> {
  const current = await existing(tx, id);
  const fields = fieldsOf(input, current);
  const made =
    fields.public === current.public ? { hash: current.secret_hash } : secretFor(pepper, fields.public);
  const row = await updateOAuthApplication(tx, id, { ...fields, secretHash: made.hash, now });
  return { row, secret: 'secret' in made ? made.secret : undefined };
}

/** A new secret for a confidential application; the old one stops working at once. */
export async function rotateOAuthApplicationSecret(
  tx: Queryable,
  pepper: string,
  id: string,
  now: Date,
): Promise<Required<WithSecret>> {
  const current = await existing(tx, id);
  // A public application proves itself with PKCE alone: there is no secret to rotate.
  if (current.public) {
    throw invalid('public', 'This OAuth application is public: it uses PKCE and has no client secret.');
  }
  const secret = newClientSecret();
  const row = await updateOAuthApplication(tx, id, {
    name: current.name,
    public: false,
    scopes: current.scopes,
    redirectUris: current.redirect_uris,
    consentScreenEnabled: current.consent_screen_enabled,
    clientUri: current.client_uri,
    logoUrl: current.logo_url,
    secretHash: clientSecretHash(pepper, secret),
    now,
  });
  return { row, secret };
}

export async function removeOAuthApplication(tx: Queryable, id: string): Promise<void> {
  if (!(await deleteOAuthApplication(tx, id))) throw errors.notFound('oauth_application');
}
