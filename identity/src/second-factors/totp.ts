import { timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sealingKey } from '../crypto/sealing.ts';

/** The key TOTP secrets are sealed with, bound to the row they belong to. */
export const totpSealingKey = (instanceSecretKey: string) => sealingKey(instanceSecretKey, 'totp-secret');

/** What every authenticator app understands, and what hosted Clerk issues: SHA-1, 6 digits, 30 s. */
const PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Steps accepted either side of now, for clocks that drift and people who type slowly. */
const WINDOW = 1;

/** A new 160-bit secret (RFC 4226's recommended length), base32 as apps expect it typed. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** `otpauth://totp/<issuer>:<label>?secret=…&issuer=…` — what the QR code encodes. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return new TOTP({ ...PARAMS, issuer, label, secret: Secret.fromBase32(secret) }).toString();
}

/**
 * The time step `code` belongs to when it is valid within one step of `now` and newer than
 * `lastUsedStep`; otherwise null. Every candidate is compared, in constant time, whatever matched
 * first, and the oldest unused matching step wins so that a later code stays usable.
 */
export function acceptedStep(
  secret: string,
  code: string,
  now: Date,
  lastUsedStep: number | null,
): number | null {
  const candidate = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(candidate)) return null;
  const totp = new TOTP({ ...PARAMS, secret: Secret.fromBase32(secret) });
  const current = totp.counter({ timestamp: now.getTime() });
  let accepted: number | null = null;
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    const expected = totp.generate({ timestamp: step * PARAMS.period * 1000 });
    const matches = timingSafeEqual(Buffer.from(expected), Buffer.from(candidate));
    if (matches && accepted === null && (lastUsedStep === null || step > lastUsedStep)) accepted = step;
  }
  return accepted;
}
