import { constantTimeEqual, hashCode } from '../crypto/secrets.ts';
import { seal, sealingKey, unseal } from '../crypto/sealing.ts';
import { randomBase62 } from '../ids.ts';

/**
 * `ak_` is how @clerk/backend 2.10.1 tells an API key from a session token, an M2M or an OAuth token
 * (tokens/machine.ts); 48 base62 characters are 285 bits of randomness.
 */
export const API_KEY_SECRET_PREFIX = 'ak_';
const SECRET_LENGTH = 48;
/** What every secret of this provider looks like: anything else is no key of ours, known or not. */
export const API_KEY_SECRET_SHAPE = /^ak_[0-9A-Za-z]{48}$/;

export function newApiKeySecret(): string {
  return `${API_KEY_SECRET_PREFIX}${randomBase62(SECRET_LENGTH)}`;
}

/**
 * The lookup hash: HMAC-SHA256 under the instance's code pepper (kept for the instance's life, so keys
 * outlive a change of the secret key as far as verification goes). A copied table holds no usable secret.
 */
export function apiKeySecretHash(pepper: string, secret: string): string {
  return hashCode(pepper, 'api_key', secret);
}

/** Whether a stored hash is the secret's (after the lookup by hash: no early exit on the bytes). */
export function apiKeySecretMatches(pepper: string, secret: string, storedHash: string): boolean {
  return constantTimeEqual(apiKeySecretHash(pepper, secret), storedHash);
}

const keys = new Map<string, Buffer>();
function keyFor(instanceSecretKey: string): Buffer {
  let key = keys.get(instanceSecretKey);
  if (!key) keys.set(instanceSecretKey, (key = sealingKey(instanceSecretKey, 'api_key_secret')));
  return key;
}

/** Sealed under the instance secret key, bound to the key's id (a sealed value moved to another row fails). */
export function sealApiKeySecret(instanceSecretKey: string, keyId: string, secret: string): string {
  return seal(keyFor(instanceSecretKey), secret, keyId);
}

export function unsealApiKeySecret(instanceSecretKey: string, keyId: string, sealed: string): string {
  return unseal(keyFor(instanceSecretKey), sealed, keyId);
}
