import { constantTimeEqual } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import {
  findOAuthApplicationByClientId,
  setOAuthApplicationRegistrationToken,
  type OAuthApplicationRow,
} from '../store/oauth-applications.ts';
import { clientInformation, registrationRequestOf, RegistrationError } from './dynamic-registration.ts';
import { changeOAuthApplication, removeOAuthApplication } from './oauth-applications.ts';
import { clientSecretMatches, newRegistrationToken, registrationTokenHash } from './oauth-client-secret.ts';

/**
 * RFC 7592 client management of the applications that registered themselves (docs/oauth-provider.md): the
 * registration access token answered at registration reads, replaces and deletes its own application at
 * `/oauth/register/<client_id>`. The operator's applications have no token and cannot be managed this way.
 */

/** What an unknown client is compared with, so that it takes the time a known one does. */
const NO_TOKEN_HASH = '0'.repeat(64);

/** A client id as ours look (printable ASCII); anything else names no client, and is not looked up. */
const CLIENT_ID = /^[\x21-\x7e]{1,100}$/;

/** RFC 6750 §2.1's credentials: `Bearer <token>`. */
function bearerOf(authorization: string | undefined): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization ?? '');
  return match ? match[1]! : null;
}

/**
 * The application `clientId` names, when `authorization` holds its registration access token; null for a
 * missing or wrong token, another application's, an unknown client id and an application without a token
 * alike (RFC 7592 §2: all are 401, nothing told apart). The hashes are compared in constant time. `lock`
 * holds the row to the end of the transaction, so that two replacements with one token cannot both pass.
 */
export async function authorizedApplication(
  db: Queryable,
  pepper: string,
  clientId: string,
  authorization: string | undefined,
  lock = false,
): Promise<{ row: OAuthApplicationRow; token: string } | null> {
  const token = bearerOf(authorization);
  const row =
    token && CLIENT_ID.test(clientId) ? await findOAuthApplicationByClientId(db, clientId, lock) : null;
  const stored = row?.registration_token_hash ?? NO_TOKEN_HASH;
  const matches = constantTimeEqual(registrationTokenHash(pepper, token ?? ''), stored);
  return row && token && matches && row.registration_token_hash !== null ? { row, token } : null;
}

const badMetadata = (description: string) => new RegistrationError('invalid_client_metadata', description);

/**
 * RFC 7592 §2.2's replacement body, checked as a registration (dynamic-registration.ts) and besides: it
 * names the application's own `client_id`; it keeps the application public or confidential (the
 * authentication method, when given, must be of the same kind: a public application cannot give itself a
 * secret, a confidential one cannot drop it); a `client_secret`, when given, must be the one issued.
 * Omitted metadata is cleared or takes its registration default, as §2.2 says. The server-set values
 * (`registration_access_token`, `registration_client_uri`, `client_id_issued_at`,
 * `client_secret_expires_at`) are ignored.
 */
function replacementOf(pepper: string, row: OAuthApplicationRow, body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badMetadata('The request body must be a JSON object of client metadata.');
  }
  const metadata = body as Record<string, unknown>;
  if (metadata.client_id !== row.client_id) {
    throw badMetadata('client_id must be the client identifier this registration was issued.');
  }
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== null && (method === 'none') !== row.public) {
    throw badMetadata(
      row.public
        ? 'A public client stays public: token_endpoint_auth_method must be none.'
        : 'A confidential client stays confidential: register a new client to change it.',
    );
  }
  const secret = metadata.client_secret;
  if (secret !== undefined && secret !== null) {
    if (typeof secret !== 'string' || row.public || !clientSecretMatches(pepper, secret, row.secret_hash!)) {
      throw badMetadata('client_secret must be the secret issued to this client, or absent.');
    }
  }
  return registrationRequestOf({
    ...metadata,
    token_endpoint_auth_method: method ?? (row.public ? 'none' : 'client_secret_basic'),
  });
}

/**
 * PUT: replaces the registration (a 400 RFC 7591 error changes nothing) and rotates the registration
 * access token, as RFC 7592 §2.2 allows: the answer holds the new one, and the one used stops working.
 * Null when the token does not authorize it (then nothing is read from the body).
 */
export async function replaceRegistration(
  deps: IdentityDeps,
  clientId: string,
  authorization: string | undefined,
  readBody: () => Promise<unknown>,
) {
  const pepper = deps.keys.codePepper;
  return deps.db.transaction(async (tx) => {
    const found = await authorizedApplication(tx, pepper, clientId, authorization, true);
    if (!found) return null;
    const request = replacementOf(pepper, found.row, await readBody());
    await changeOAuthApplication(
      tx,
      pepper,
      found.row.id,
      {
        name: request.name,
        public: found.row.public,
        scopes: request.scopes,
        redirectUris: request.redirectUris,
        clientUri: request.clientUri ?? '',
        logoUrl: request.logoUrl ?? '',
      },
      deps.clock(),
    );
    const token = newRegistrationToken();
    const row = await setOAuthApplicationRegistrationToken(
      tx,
      found.row.id,
      registrationTokenHash(pepper, token),
    );
    return clientInformation(deps.fapiBase, row, token);
  });
}

/**
 * DELETE: deletes the application as the Backend API does (its consents go with it, its codes and tokens
 * name no client any more and stop working); its token with it. False when the token does not authorize it.
 */
export async function deleteRegistration(
  deps: IdentityDeps,
  clientId: string,
  authorization: string | undefined,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const found = await authorizedApplication(tx, deps.keys.codePepper, clientId, authorization, true);
    if (!found) return false;
    await removeOAuthApplication(tx, found.row.id);
    return true;
  });
}
