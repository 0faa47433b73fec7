import { constantTimeEqual, hashCode } from '../crypto/secrets.ts';
import { randomBase62 } from '../ids.ts';

/** A client id: 16 base62 characters, as hosted Clerk's look; public, so only unique, not secret. */
export function newClientId(): string {
  return randomBase62(16);
}

/** A client secret: 40 base62 characters (238 bits), shown once and kept only as its hash. */
export function newClientSecret(): string {
  return randomBase62(40);
}

/** HMAC-SHA256 under the instance's code pepper: a copied table holds no usable secret. */
export function clientSecretHash(pepper: string, secret: string): string {
  return hashCode(pepper, 'oauth_client_secret', secret);
}

/** Whether `secret` is the one whose hash is stored, in constant time. */
export function clientSecretMatches(pepper: string, secret: string, storedHash: string): boolean {
  return constantTimeEqual(clientSecretHash(pepper, secret), storedHash);
}

/**
 * An RFC 7592 registration access token: 43 base62 characters (256 bits), answered to the application that
 * registered itself and kept only as its hash.
 */
export function newRegistrationToken(): string {
  return randomBase62(43);
}

/** HMAC-SHA256 under the instance's code pepper, in a subject of its own. */
export function registrationTokenHash(pepper: string, token: string): string {
  return hashCode(pepper, 'oauth_registration_token', token);
}
