import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Keyed hash for short one-time codes: a leaked table alone does not reveal them. */
export function hashCode(pepper: string, subject: string, code: string): string {
  return createHmac('sha256', pepper).update(`${subject}\n${code}`).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  // Compare digests so differing lengths take the same path.
  const da = createHash('sha256').update(ab).digest();
  const db = createHash('sha256').update(bb).digest();
  return timingSafeEqual(da, db) && ab.length === bb.length;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}
