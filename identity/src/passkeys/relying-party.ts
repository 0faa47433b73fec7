import { createHash, timingSafeEqual } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { IdentityConfig } from '../config.ts';

/**
 * The WebAuthn relying party: this instance's public URL. Its host is the RP id (a passkey belongs to that
 * domain and its subdomains); the ceremonies are accepted from the public URL's origin and the allowed
 * origins. User verification (PIN or biometric) is required every time: a passkey stands for a password.
 */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** How long a ceremony's challenge is good for (the browser's prompt times out at the same moment). */
export const CHALLENGE_TTL_SECONDS = 300;

/** The largest `public_key_credential` taken: a real one is a few kilobytes at most. */
export const MAX_CREDENTIAL_CHARS = 16 * 1024;

/** ES256 and RS256: what authenticators offer in practice. */
const ALGORITHMS = [-7, -257];

export function relyingParty(config: IdentityConfig): RelyingParty {
  const publicUrl = new URL(config.publicUrl);
  const origins = new Set([publicUrl.origin, ...config.allowedOrigins.map((o) => new URL(o).origin)]);
  return { id: publicUrl.hostname, name: config.applicationName, origins: [...origins] };
}

/** What is stored of a challenge: its SHA-256 (the browser holds the challenge itself). */
export function challengeHash(challenge: string): string {
  return createHash('sha256').update(challenge).digest('hex');
}

/** The check @simplewebauthn/server runs on the challenge the browser signed: equal to the stored one's hash. */
function challengeMatcher(storedHash: string): (challenge: string) => boolean {
  const expected = Buffer.from(storedHash, 'hex');
  return (challenge) => timingSafeEqual(Buffer.from(challengeHash(challenge), 'hex'), expected);
}

/** The options `navigator.credentials.create()` is called with (clerk-js: `verification.nonce`, a JSON string). */
export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; name: string; displayName: string },
  excludeCredentials: { credential_id: string; transports: string[] }[],
) {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new TextEncoder().encode(user.id),
    userName: user.name,
    userDisplayName: user.displayName,
    timeout: CHALLENGE_TTL_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: excludeCredentials.map((c) => ({ id: c.credential_id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

/**
 * The options `navigator.credentials.get()` is called with. No credentials listed: any passkey of this RP
 * on the device (the button, autofill); the identified user's: only theirs.
 */
export async function authenticationOptions(
  rp: RelyingParty,
  allowCredentials: { credential_id: string; transports: string[] }[],
) {
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: allowCredentials.map((c) => ({ id: c.credential_id, transports: c.transports })),
    userVerification: 'required',
    timeout: CHALLENGE_TTL_SECONDS * 1000,
  });
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const isB64 = (v: unknown): v is string => typeof v === 'string' && BASE64URL.test(v);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `public_key_credential` as clerk-js serialises it (utils/passkeys.ts): `{type, id, rawId,
 * authenticatorAttachment, response}` with base64url buffers. It carries no `clientExtensionResults`,
 * which @simplewebauthn/server expects: an empty one is added. Null when it is not such an object.
 */
export function parseRegistrationCredential(raw: string | undefined): RegistrationResponseJSON | null {
  const parsed = parseCredential(raw);
  if (!parsed) return null;
  const response = parsed.response as Record<string, unknown>;
  if (!isB64(response.attestationObject)) return null;
  const transports = Array.isArray(response.transports)
    ? response.transports.filter((t): t is string => typeof t === 'string').slice(0, 8)
    : [];
  return {
    ...parsed.base,
    response: {
      clientDataJSON: response.clientDataJSON as string,
      attestationObject: response.attestationObject,
      transports: transports as RegistrationResponseJSON['response']['transports'],
    },
  };
}

/** As parseRegistrationCredential, for an assertion (`navigator.credentials.get()`). */
export function parseAuthenticationCredential(raw: string | undefined): AuthenticationResponseJSON | null {
  const parsed = parseCredential(raw);
  if (!parsed) return null;
  const response = parsed.response as Record<string, unknown>;
  if (!isB64(response.authenticatorData) || !isB64(response.signature)) return null;
  if (response.userHandle !== undefined && response.userHandle !== null && !isB64(response.userHandle)) {
    return null;
  }
  return {
    ...parsed.base,
    response: {
      clientDataJSON: response.clientDataJSON as string,
      authenticatorData: response.authenticatorData,
      signature: response.signature,
      ...(typeof response.userHandle === 'string' ? { userHandle: response.userHandle } : {}),
    },
  };
}

function parseCredential(raw: string | undefined) {
  if (raw === undefined || raw.length > MAX_CREDENTIAL_CHARS) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(value) || value.type !== 'public-key') return null;
  if (!isB64(value.id) || !value.id || value.rawId !== value.id) return null;
  if (!isObject(value.response) || !isB64(value.response.clientDataJSON)) return null;
  const attachment = value.authenticatorAttachment;
  return {
    base: {
      id: value.id,
      rawId: value.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      ...(attachment === 'platform' || attachment === 'cross-platform'
        ? { authenticatorAttachment: attachment as 'platform' | 'cross-platform' }
        : {}),
    },
    response: value.response,
  };
}

/** The new credential, if the browser's answer passes every check; null otherwise. */
export async function verifyRegistration(
  rp: RelyingParty,
  response: RegistrationResponseJSON,
  storedChallengeHash: string,
) {
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challengeMatcher(storedChallengeHash),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserPresence: true,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    return result.verified ? result.registrationInfo : null;
  } catch {
    return null;
  }
}

/**
 * The authenticator's new counter, if the assertion passes every check against the stored credential
 * (the library refuses a counter that did not move past the stored one, unless both are zero: an
 * authenticator that keeps no counter); null otherwise.
 */
export async function verifyAuthentication(
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  storedChallengeHash: string,
  credential: { id: string; publicKey: Uint8Array; counter: number; transports: string[] },
): Promise<{ newCounter: number; backedUp: boolean } | null> {
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeMatcher(storedChallengeHash),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: credential.id,
        publicKey: new Uint8Array(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports as never,
      },
      requireUserVerification: true,
    });
    if (!result.verified || !result.authenticationInfo.userVerified) return null;
    return {
      newCounter: result.authenticationInfo.newCounter,
      backedUp: result.authenticationInfo.credentialBackedUp,
    };
  } catch {
    return null;
  }
}
