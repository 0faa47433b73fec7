import { SignJWT } from 'jose';
import { randomToken, sha256 } from '../crypto/secrets.ts';
import { sealingKey, seal, unseal } from '../crypto/sealing.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { organizationClaims, tokenForSubject } from '../organizations/active-organization.ts';
import { insertHandshakeNonce, takeHandshakeNonce } from '../store/handshake-nonces.ts';
import type { ClientRow } from '../store/rows.ts';
import { isSignedIn, setActiveOrganization, signedInSessionsOfClient } from '../store/sessions.ts';
import { tokenSubjectBySessionId } from '../store/token-subjects.ts';
import { clientUatOf } from './client-uat.ts';
import type { SessionRequest } from '../store/session-activities.ts';

/** How long a handshake nonce may be redeemed: the browser is redirected to the application at once. */
export const HANDSHAKE_NONCE_TTL_SECONDS = 60;
/** How long the signed handshake token says it is good for (`@clerk/backend` reads it at once). */
const HANDSHAKE_TOKEN_TTL_SECONDS = 60;
/** clerk-js keeps `__session`, `__client_uat` and the dev-browser cookie a year. */
const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

export interface HandshakeInput {
  /** The browser's client, or null for a browser we do not know (signed out). */
  client: ClientRow | null;
  /** `suffixed_cookies=true`: the application reads the suffixed names too. */
  suffixed: boolean;
  /** The application's origin is https: the cookies are Secure. */
  secure: boolean;
  /** The application's origin, the session token's `azp`. */
  azp: string;
  /** Development keys: the dev-browser token the browser presented, handed to the application's domain. */
  devBrowserToken: string | null;
  request: SessionRequest;
  now: Date;
}

/** A `Set-Cookie` value as the application's server sends it on (`@clerk/backend` copies them verbatim). */
function directive(name: string, value: string, maxAge: number, secure: boolean): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * The cookie directives of a handshake: a fresh session token in `__session` and the client's
 * `__client_uat` for a signed-in browser (its last active session), `__session` cleared and
 * `__client_uat=0` for a signed-out one; the suffixed names as well when the application uses them,
 * and the dev-browser token with development keys.
 */
export async function handshakeDirectives(
  deps: IdentityDeps,
  db: Queryable,
  input: HandshakeInput,
): Promise<string[]> {
  const { client, now, secure } = input;
  const { sessions, session } = await lastActiveSession(db, client, now);
  const subject = session
    ? await tokenSubjectBySessionId(db, session.id, { session: true }, deps.billing.catalogue() !== null)
    : null;
  let token: string | null = null;
  if (subject && isSignedIn(subject.session, now)) {
    token = await tokenForSubject(deps, subject, { azp: input.azp, now });
    deps.activity.record({
      sessionId: subject.session.id,
      userId: subject.session.user_id,
      at: now,
      request: input.request,
    });
  }
  const uat = token && client ? clientUatOf(client, sessions.length) : 0;
  const names = (base: string) => (input.suffixed ? [`${base}_${deps.cookieSuffix}`, base] : [base]);
  const directives = [
    ...names('__client_uat').map((n) => directive(n, String(uat), COOKIE_MAX_AGE_SECONDS, secure)),
    ...names('__session').map((n) =>
      token ? directive(n, token, COOKIE_MAX_AGE_SECONDS, secure) : directive(n, '', 0, secure),
    ),
  ];
  // Both names whatever `suffixed_cookies` says: clerk-js writes both and reads the suffixed one first, so
  // a suffixed cookie left from before (a token replaced on the other domain) would outlive this one.
  if (input.devBrowserToken) {
    for (const n of [`__clerk_db_jwt_${deps.cookieSuffix}`, '__clerk_db_jwt'])
      directives.push(directive(n, input.devBrowserToken, COOKIE_MAX_AGE_SECONDS, secure));
  }
  return directives;
}

/** The client's signed-in sessions, and the one the handshake speaks for: its last active, else its latest. */
async function lastActiveSession(db: Queryable, client: ClientRow | null, now: Date) {
  const sessions = client ? await signedInSessionsOfClient(db, client.id, now) : [];
  const session =
    sessions.find((s) => s.id === client?.last_active_session_id) ?? sessions[sessions.length - 1];
  return { sessions, session };
}

/**
 * `organization_id` of a handshake, what `@clerk/backend`'s `organizationSyncOptions` sends when a page's
 * URL names an organisation other than the session token's: an organisation's id or slug makes it the
 * session's active organisation (as `setActive` would), `""` the personal account. A user who is not a
 * member of it, an unknown one, or the personal account where the instance requires an organisation,
 * changes nothing (the SDK then stops asking after a few rounds). True when the session changed.
 */
export async function activateRequestedOrganization(
  deps: IdentityDeps,
  db: Queryable,
  input: { client: ClientRow | null; organization: string; now: Date },
): Promise<boolean> {
  const { session } = await lastActiveSession(db, input.client, input.now);
  if (!session) return false;
  const claims = input.organization
    ? await organizationClaims(db, session.user_id, input.organization)
    : null;
  if (input.organization && !claims) return false;
  if (!claims && deps.config.forceOrganizationSelection) return false;
  const organizationId = claims?.id ?? null;
  if (organizationId === session.last_active_organization_id && session.status === 'active') return false;
  return (await setActiveOrganization(db, session.id, organizationId, 'active', input.now)) !== null;
}

/** `format=token`: the directives in the `handshake` claim of a JWT signed with the instance's key. */
export function signHandshakeToken(deps: IdentityDeps, directives: string[], now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ handshake: directives })
    .setProtectedHeader({ alg: 'RS256', kid: deps.signingKey.kid, typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + HANDSHAKE_TOKEN_TTL_SECONDS)
    .sign(deps.signingKey.privateKey);
}

/**
 * The nonce itself is the key: the directives (which hold a session token) are sealed under a key derived
 * from it, and only its SHA-256 is stored, so the table alone opens nothing.
 */
const nonceKey = (nonce: string) => sealingKey(nonce, 'handshake_nonce');

/** `format=nonce`: stores the directives for one redemption within HANDSHAKE_NONCE_TTL_SECONDS. */
export async function issueHandshakeNonce(tx: Queryable, directives: string[], now: Date): Promise<string> {
  const nonce = randomToken(32);
  const nonceHash = sha256(nonce);
  await insertHandshakeNonce(tx, {
    nonceHash,
    sealedDirectives: seal(nonceKey(nonce), JSON.stringify(directives), nonceHash),
    expiresAt: new Date(now.getTime() + HANDSHAKE_NONCE_TTL_SECONDS * 1000),
    now,
  });
  return nonce;
}

/** The directives of a live nonce of this instance, once; null for an unknown, spent or expired one. */
export async function redeemHandshakeNonce(
  db: Queryable,
  nonce: string,
  now: Date,
): Promise<string[] | null> {
  const nonceHash = sha256(nonce);
  const row = await takeHandshakeNonce(db, nonceHash, now);
  if (!row) return null;
  return JSON.parse(unseal(nonceKey(nonce), row.sealed_directives, nonceHash)) as string[];
}
