import { createPrivateKey, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { seal, sealingKey, unseal } from '../crypto/sealing.ts';
import { errors } from '../errors.ts';
import type { SigningKey } from '../instance/signing-keys.ts';

/**
 * A JWT template's signature: the instance's RS256 key (its `kid` in the header, verifiable with the
 * JWKS), or the template's own key and algorithm (`custom_signing_key`). The algorithms offered are the
 * HMAC, RSA PKCS#1 v1.5 and ECDSA families jose signs with; an own key is checked against its algorithm
 * when it is saved, so a token is never refused later for a key that could not sign.
 */
export const SIGNING_ALGORITHMS = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export const INSTANCE_ALGORITHM: SigningAlgorithm = 'RS256';

/** An HMAC secret shorter than its hash's output is refused (RFC 7518 §3.2). */
const HMAC_MIN_BYTES: Record<string, number> = { HS256: 32, HS384: 48, HS512: 64 };
const EC_CURVE: Record<string, string> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };
const RSA_MIN_BITS = 2048;
/** A PEM private key of RSA-8192 is about 6.3 KB; nothing longer is a key. */
export const SIGNING_KEY_MAX_LENGTH = 8192;

export function isSigningAlgorithm(value: string): value is SigningAlgorithm {
  return (SIGNING_ALGORITHMS as readonly string[]).includes(value);
}

/** The key `signing_key` holds for `algorithm`, or Clerk's 422 naming `signing_key`. */
export function signingKeyOf(algorithm: SigningAlgorithm, text: string): KeyObject {
  const refuse = (why: string) => errors.paramValueInvalid('signing_key', why);
  if (text.length > SIGNING_KEY_MAX_LENGTH)
    throw errors.paramMaxLength('signing_key', SIGNING_KEY_MAX_LENGTH);
  if (algorithm.startsWith('HS')) {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length < HMAC_MIN_BYTES[algorithm]!) {
      throw refuse(`An ${algorithm} signing key must be at least ${HMAC_MIN_BYTES[algorithm]} bytes long.`);
    }
    return createSecretKey(bytes);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw refuse(
      `The signing key must be a PEM-encoded ${algorithm.startsWith('RS') ? 'RSA' : 'EC'} private key.`,
    );
  }
  if (algorithm.startsWith('RS')) {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (key.asymmetricKeyType !== 'rsa' || bits < RSA_MIN_BITS) {
      throw refuse(
        `An ${algorithm} signing key must be an RSA private key of at least ${RSA_MIN_BITS} bits.`,
      );
    }
  } else if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== EC_CURVE[algorithm]) {
    throw refuse(`An ${algorithm} signing key must be an EC private key on curve ${EC_CURVE[algorithm]}.`);
  }
  return key;
}

const sealingKeys = new Map<string, Buffer>();
function sealingKeyFor(instanceSecretKey: string): Buffer {
  let key = sealingKeys.get(instanceSecretKey);
  if (!key)
    sealingKeys.set(instanceSecretKey, (key = sealingKey(instanceSecretKey, 'jwt_template_signing_key')));
  return key;
}

/** Sealed under the instance secret key, bound to the template (a sealed key moved to another row fails). */
export function sealSigningKey(instanceSecretKey: string, templateId: string, key: string): string {
  return seal(sealingKeyFor(instanceSecretKey), key, templateId);
}

export function unsealSigningKey(instanceSecretKey: string, templateId: string, sealed: string): string {
  return unseal(sealingKeyFor(instanceSecretKey), sealed, templateId);
}

/** Clerk's `jti`: 20 hex characters, unique per token. */
export function newJti(): string {
  return randomBytes(10).toString('hex');
}

/** Signs `claims` with the instance's key, or with the template's own key and algorithm. */
export function signTemplateToken(
  claims: Record<string, unknown>,
  signer: { instance: SigningKey } | { algorithm: SigningAlgorithm; key: KeyObject },
): Promise<string> {
  const jwt = new SignJWT(claims);
  if ('instance' in signer) {
    return jwt
      .setProtectedHeader({ alg: INSTANCE_ALGORITHM, kid: signer.instance.kid, typ: 'JWT' })
      .sign(signer.instance.privateKey);
  }
  return jwt.setProtectedHeader({ alg: signer.algorithm, typ: 'JWT' }).sign(signer.key);
}
