import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import type { Database } from '../db/database.ts';
import { newId } from '../ids.ts';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/**
 * Loads the instance's RS256 signing key, generating one on first start. RSA-2048 with e=65537 is what
 * @clerk/backend's networkless `jwtKey` path understands, so we stay with it.
 */
export async function loadSigningKey(db: Database): Promise<SigningKey> {
  const existing = await db.query<{ kid: string; private_jwk: JWK; public_jwk: JWK }>(
    'SELECT kid, private_jwk, public_jwk FROM signing_keys ORDER BY created_at DESC LIMIT 1',
  );
  if (existing[0]) return hydrate(existing[0].kid, existing[0].private_jwk, existing[0].public_jwk);

  const { privateKey, publicKey } = await generateKeyPair('RS256', {
    modulusLength: 2048,
    extractable: true,
  });
  const kid = newId('ins');
  const privateJwk = await exportJWK(privateKey);
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  // Two processes starting together on one server: the first insert wins, the other reads it back.
  await db.query(
    `INSERT INTO signing_keys (kid, private_jwk, public_jwk)
     SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM signing_keys)`,
    [kid, JSON.stringify(privateJwk), JSON.stringify(publicJwk)],
  );
  return loadSigningKey(db);
}

async function hydrate(kid: string, privateJwk: JWK, publicJwk: JWK): Promise<SigningKey> {
  const privateKey = (await importJWK(privateJwk, 'RS256')) as CryptoKey;
  return { kid, privateKey, publicJwk };
}

export function jwks(key: SigningKey) {
  const { kid, kty, n, e } = key.publicJwk;
  return { keys: [{ use: 'sig', kty, kid, alg: 'RS256', n, e }] };
}
