import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { sha256 } from '../crypto/secrets.ts';
import type { SocialProviderSettings } from '../instance/settings/schema.ts';
import { identityOf, providerConfiguration, type ExternalIdentity } from './oauth-client.ts';
import { enabledSocialProvider, type SocialProvider } from './providers.ts';

/** The strategy clerk-js sends with a Google One Tap credential (sign-in, then sign-up). */
export const GOOGLE_ONE_TAP = 'google_one_tap';

/** Google's own issuer, which its ID tokens name with or without the scheme. */
const GOOGLE_ISSUER = 'https://accounts.google.com';
const GOOGLE_ISSUERS = [GOOGLE_ISSUER, 'accounts.google.com'];

/** A Google ID token is about 1 KB; anything far larger is not one. */
const MAX_TOKEN_LENGTH = 8192;

/** Clock difference allowed between Google and us on `exp`, `iat` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 60;

/** How long Google's JWKS may take to answer. */
const JWKS_TIMEOUT_MS = 10_000;

/**
 * The Google provider when it offers One Tap (`oauth_google` enabled with `oneTap: true`), else null:
 * its client id is the audience of the tokens, its issuer and JWKS the ones they are checked against.
 */
export function oneTapProvider(social: Record<string, SocialProviderSettings>): SocialProvider | null {
  const provider = enabledSocialProvider(social, 'oauth_google');
  return provider?.source.oneTap && provider.authenticatable ? provider : null;
}

/** `display_config.google_one_tap_client_id`: what makes clerk-js's <GoogleOneTap/> prompt. */
export const googleOneTapClientId = (social: Record<string, SocialProviderSettings>): string | null =>
  oneTapProvider(social)?.clientId ?? null;

/** Why a One Tap credential was refused. */
export type OneTapRefusal =
  /** Not a valid ID token of the provider for this client (signature, issuer, audience, expiry, shape). */
  | 'token_invalid'
  /** Valid, but Google does not vouch for the email address. */
  | 'email_unverified'
  /** The provider's keys could not be had (network, discovery, a JWKS that is not one). */
  | 'provider_failed';

/** What a One Tap credential proved: who, and the key that makes it single use. */
export interface OneTapIdentity {
  identity: ExternalIdentity;
  /** SHA-256 of the token's issuer and `jti`: recorded when the token is used, refused when seen again. */
  tokenKey: string;
  /** The token's expiry: its record is of no use after it (plus the clock tolerance). */
  expireAt: Date;
}

export type OneTapAnswer = OneTapIdentity | { refused: OneTapRefusal };

// One key set per provider settings object (a settings change replaces the object): jose's key set keeps
// the keys it fetched and fetches again, at most every 30 s, when a token names a key it does not have
// (Google rotates its keys).
const keySets = new WeakMap<SocialProvider['source'], Promise<ReturnType<typeof createRemoteJWKSet>>>();

function keySetOf(provider: SocialProvider): Promise<ReturnType<typeof createRemoteJWKSet>> {
  const cached = keySets.get(provider.source);
  if (cached) return cached;
  const made = (async () => {
    // The provider's configuration checks its endpoints (plain http only on this machine) and, without
    // an explicit `jwksUri`, finds the JWKS by discovery of the issuer, as the redirect flow does.
    const config = await providerConfiguration(provider);
    const url = provider.jwksUri ?? config.serverMetadata().jwks_uri;
    if (!url) throw new Error(`${provider.strategy}: the provider publishes no JWKS`);
    return createRemoteJWKSet(new URL(url), { timeoutDuration: JWKS_TIMEOUT_MS });
  })();
  keySets.set(provider.source, made);
  made.catch(() => keySets.delete(provider.source));
  return made;
}

/** The issuers a token may name: Google's two spellings, or the one an override configures. */
function issuersOf(provider: SocialProvider): string[] {
  const issuer = provider.issuer ?? GOOGLE_ISSUER;
  return issuer === GOOGLE_ISSUER ? GOOGLE_ISSUERS : [issuer];
}

/**
 * Verifies a Google One Tap credential (an ID token) with jose against the provider's JWKS: an RS256
 * signature by one of its keys (so never `alg: none`, nor a key the token brings along), its issuer, the
 * provider's client id as audience, `exp`/`iat`/`nbf` against `now`, a subject, and an email address
 * Google says is verified. Nothing is written: using the token (and refusing it a second time) is the
 * caller's, inside its transaction.
 */
export async function verifyGoogleOneTapToken(
  provider: SocialProvider,
  token: string,
  now: Date,
): Promise<OneTapAnswer> {
  if (token.length > MAX_TOKEN_LENGTH) return { refused: 'token_invalid' };
  let payload: JWTPayload;
  try {
    const keys = await keySetOf(provider);
    ({ payload } = await jwtVerify(token, keys, {
      algorithms: ['RS256'],
      issuer: issuersOf(provider),
      audience: provider.clientId,
      currentDate: now,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (err) {
    if (isTokenFault(err)) return { refused: 'token_invalid' };
    // jose's and openid-client's messages name what failed, never the token.
    console.warn(`identity: Google One Tap: the provider's keys are unavailable: ${(err as Error).message}`);
    return { refused: 'provider_failed' };
  }
  if (typeof payload.sub !== 'string' || !payload.sub) return { refused: 'token_invalid' };
  const identity = identityOf(provider.strategy, payload.sub, payload, provider.scopes.join(' '));
  if (!identity.email || !identity.emailVerified) return { refused: 'email_unverified' };
  // Google's ID tokens carry a `jti`; without one, the subject and issue time name the token.
  const id = typeof payload.jti === 'string' ? `jti:${payload.jti}` : `sub:${payload.sub}:${payload.iat}`;
  return {
    identity,
    tokenKey: sha256(`google_one_tap\n${payload.iss}\n${id}`),
    expireAt: new Date((payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000),
  };
}

/** A fault of the token itself (as opposed to the provider's keys being out of reach). */
function isTokenFault(err: unknown): boolean {
  if (!(err instanceof joseErrors.JOSEError)) return false;
  // The JWKS endpoint's own failures: a timeout, an answer that is not a key set, a status other than 200
  // or a body that is not JSON (jose's generic error).
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid) return false;
  return err.code !== joseErrors.JOSEError.code;
}
