import { ClerkError } from '../errors.ts';
import type { IdentityDeps } from '../deps.ts';
import {
  checkedPageUrl,
  checkedRedirectUri,
  checkedScopes,
  createOAuthApplication,
} from './oauth-applications.ts';
import type { OAuthApplicationRow } from '../store/oauth-applications.ts';
import { OAUTH_APPLICATION_NAME_MAX_LENGTH, MAX_REDIRECT_URIS } from './oauth-applications.ts';
import { newRegistrationToken, registrationTokenHash } from './oauth-client-secret.ts';

/** Where an application registers itself (RFC 7591), under the Frontend API's path: hosted Clerk's path. */
export const REGISTRATION_PATH = '/oauth/register';

/** The scopes of an application that names none: what a client signing users in with OpenID Connect needs. */
const DEFAULT_REGISTERED_SCOPES = 'openid profile email';
const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
type AuthMethod = (typeof AUTH_METHODS)[number];

/** RFC 7591 §3.2.2's error answer: nothing was registered. */
export class RegistrationError extends Error {
  constructor(
    readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata',
    readonly description: string,
  ) {
    super(description);
  }
  toJSON() {
    return { error: this.error, error_description: this.description };
  }
}

const badMetadata = (description: string) => new RegistrationError('invalid_client_metadata', description);

/** A ClerkError of one of oauth-applications.ts's checks, as RFC 7591's error of the given kind. */
function asRegistrationError<T>(kind: RegistrationError['error'], check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof ClerkError) throw new RegistrationError(kind, err.longMessage);
    throw err;
  }
}

function stringList(metadata: Record<string, unknown>, name: string): string[] | undefined {
  const value = metadata[name];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw badMetadata(`${name} must be an array of strings.`);
  }
  return value as string[];
}

function text(metadata: Record<string, unknown>, name: string): string | undefined {
  const value = metadata[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badMetadata(`${name} must be a string.`);
  return value;
}

/** The application RFC 7591 metadata asks for, checked as the Backend API checks it; throws RegistrationError. */
export interface RegistrationRequest {
  name: string;
  public: boolean;
  scopes: string;
  redirectUris: string[];
  clientUri?: string;
  logoUrl?: string;
}

/**
 * Reads a registration request (RFC 7591 §2): redirect URIs (required, checked as every application's:
 * https, loopback http, or a native app's private-use scheme; no fragment), the authentication method
 * (`none` makes a public application, which must use PKCE), grant and response types among what the
 * server does (the code flow, refresh tokens through `offline_access`), scopes among the instance's, a
 * name, a home page and a logo. Metadata it does not know is ignored, as §2 says.
 */
export function registrationRequestOf(body: unknown): RegistrationRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badMetadata('The request body must be a JSON object of client metadata.');
  }
  const metadata = body as Record<string, unknown>;
  const uris = stringList(metadata, 'redirect_uris');
  if (!uris?.length) throw new RegistrationError('invalid_redirect_uri', 'redirect_uris is required.');
  if (uris.length > MAX_REDIRECT_URIS) {
    throw new RegistrationError('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect_uris.`);
  }
  const redirectUris = asRegistrationError('invalid_redirect_uri', () => [
    ...new Set(uris.map(checkedRedirectUri)),
  ]);

  const authMethod = (text(metadata, 'token_endpoint_auth_method') ?? 'client_secret_basic') as AuthMethod;
  if (!AUTH_METHODS.includes(authMethod)) {
    throw badMetadata(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`);
  }
  const responseTypes = stringList(metadata, 'response_types') ?? ['code'];
  if (responseTypes.some((t) => t !== 'code')) throw badMetadata('response_types may only be code.');
  const grantTypes = stringList(metadata, 'grant_types') ?? ['authorization_code'];
  if (!grantTypes.includes('authorization_code')) {
    throw badMetadata('grant_types must include authorization_code.');
  }
  if (grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw badMetadata('grant_types may only be authorization_code and refresh_token.');
  }
  let scopes = asRegistrationError('invalid_client_metadata', () =>
    checkedScopes(text(metadata, 'scope') ?? DEFAULT_REGISTERED_SCOPES),
  );
  // A refresh token comes with `offline_access` here (oidc-adapter.ts): asking for the grant asks for it.
  if (grantTypes.includes('refresh_token') && !scopes.split(' ').includes('offline_access')) {
    scopes = `${scopes} offline_access`.trim();
  }
  const name = (text(metadata, 'client_name') ?? new URL(redirectUris[0]!).host).trim();
  if (!name || name.length > OAUTH_APPLICATION_NAME_MAX_LENGTH) {
    throw badMetadata(`client_name must be 1 to ${OAUTH_APPLICATION_NAME_MAX_LENGTH} characters.`);
  }
  const clientUri = text(metadata, 'client_uri');
  const logoUri = text(metadata, 'logo_uri');
  asRegistrationError('invalid_client_metadata', () => {
    if (clientUri) checkedPageUrl('client_uri', clientUri);
    if (logoUri) checkedPageUrl('logo_uri', logoUri);
  });
  return {
    name,
    public: authMethod === 'none',
    scopes,
    redirectUris,
    ...(clientUri ? { clientUri } : {}),
    ...(logoUri ? { logoUrl: logoUri } : {}),
  };
}

/** RFC 7591 §3.2.1's answer: the registered metadata, and the secret of a confidential client, once. */
export function registrationResponse(row: OAuthApplicationRow, secret?: string) {
  const scopes = row.scopes.split(' ');
  return {
    client_id: row.client_id,
    ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    client_id_issued_at: Math.floor(row.created_at.getTime() / 1000),
    client_name: row.name,
    redirect_uris: row.redirect_uris,
    // A confidential application authenticates with either secret method; Basic is the one named (§2's
    // default), whichever was asked, as §3.2.1 lets the server choose.
    token_endpoint_auth_method: row.public ? 'none' : 'client_secret_basic',
    grant_types: scopes.includes('offline_access')
      ? ['authorization_code', 'refresh_token']
      : ['authorization_code'],
    response_types: ['code'],
    scope: row.scopes,
    ...(row.client_uri ? { client_uri: row.client_uri } : {}),
    ...(row.logo_url ? { logo_uri: row.logo_url } : {}),
  };
}

/** Where the application reads, replaces and deletes its registration (RFC 7592 §1.2). */
export function registrationClientUri(fapiBase: string, clientId: string): string {
  return `${fapiBase}${REGISTRATION_PATH}/${encodeURIComponent(clientId)}`;
}

/**
 * RFC 7592 §3's client information: the registration, its configuration endpoint and the registration
 * access token the application manages it with.
 */
export function clientInformation(
  fapiBase: string,
  row: OAuthApplicationRow,
  registrationToken: string,
  secret?: string,
) {
  return {
    ...registrationResponse(row, secret),
    registration_access_token: registrationToken,
    registration_client_uri: registrationClientUri(fapiBase, row.client_id),
  };
}

/**
 * Registers an application as RFC 7591 asks: an ordinary OAuth application of the instance (the Backend
 * API lists it, `dynamically_registered` true), whose consent screen cannot be turned off by itself, with
 * the registration access token it manages itself with (RFC 7592), kept only as its hash.
 */
export async function registerApplication(deps: IdentityDeps, body: unknown) {
  const request = registrationRequestOf(body);
  const token = newRegistrationToken();
  const { row, secret } = await deps.db.transaction((tx) =>
    createOAuthApplication(
      tx,
      deps.keys.codePepper,
      {
        name: request.name,
        public: request.public,
        scopes: request.scopes,
        redirectUris: request.redirectUris,
        consentScreenEnabled: true,
        ...(request.clientUri ? { clientUri: request.clientUri } : {}),
        ...(request.logoUrl ? { logoUrl: request.logoUrl } : {}),
      },
      deps.clock(),
      {
        dynamicallyRegistered: true,
        registrationTokenHash: registrationTokenHash(deps.keys.codePepper, token),
      },
    ),
  );
  return clientInformation(deps.fapiBase, row, token, secret);
}
