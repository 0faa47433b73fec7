import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption for the few secrets we must read back (TOTP seeds). The key is derived from
 * the instance secret key, which lives outside the database: a copy of the database alone reveals nothing.
 * Changing the secret key therefore makes what was sealed under the old one unreadable.
 */
export function sealingKey(instanceSecretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', instanceSecretKey, 'identity/sealing', purpose, 32));
}

const VERSION = 'v1';

/**
 * AES-256-GCM with a random nonce. `context` (e.g. the owning row's id) is authenticated with the
 * ciphertext, so a sealed value copied onto another row does not open there.
 */
export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Opens what `seal` produced; throws if it was altered, sealed for another context, or under another key. */
export function unseal(key: Buffer, sealed: string, context: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || body === undefined || !tag) throw new Error('unknown sealed format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
