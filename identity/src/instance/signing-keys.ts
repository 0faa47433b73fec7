import { KeyObject } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import type { Database } from '../db/database.ts';
import { newId } from '../ids.ts';
import { insertFirstSigningKey, newestSigningKey } from '../store/signing-keys.ts';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The private key as node:crypto signs with it, made once rather than per token. */
  signer: KeyObject;
  /** Every session token's protected header, base64url-encoded once: `{"alg":"RS256","kid":…,"typ":"JWT"}`. */
  encodedHeader: string;
}

/**
 * Loads the instance's RS256 signing key, generating one on first start. RSA-2048 with e=65537 is what
 * @clerk/backend's networkless `jwtKey` path understands, so we stay with it.
 */
export async function loadSigningKey(db: Database): Promise<SigningKey> {
  const existing = await newestSigningKey(db);
  if (existing) return hydrate(existing.kid, existing.private_jwk, existing.public_jwk);

  const { privateKey, publicKey } = await generateKeyPair('RS256', {
    modulusLength: 2048,
    extractable: true,
  });
  const kid = newId('ins');
  await insertFirstSigningKey(db, {
    kid,
    private_jwk: await exportJWK(privateKey),
    public_jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  });
  return loadSigningKey(db);
}

async function hydrate(kid: string, privateJwk: JWK, publicJwk: JWK): Promise<SigningKey> {
  const privateKey = (await importJWK(privateJwk, 'RS256')) as CryptoKey;
  const encodedHeader = Buffer.from(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' })).toString('base64url');
  return { kid, privateKey, publicJwk, signer: KeyObject.from(privateKey), encodedHeader };
}

export function jwks(key: SigningKey) {
  const { kid, kty, n, e } = key.publicJwk;
  return { keys: [{ use: 'sig', kty, kid, alg: 'RS256', n, e }] };
}

const publicKeys = new WeakMap<SigningKey, Promise<CryptoKey>>();

/** The key's public half as jose verifies with it, imported once per key. */
export function publicKeyOf(key: SigningKey): Promise<CryptoKey> {
  let found = publicKeys.get(key);
  if (!found) publicKeys.set(key, (found = importJWK(key.publicJwk, 'RS256') as Promise<CryptoKey>));
  return found;
}
