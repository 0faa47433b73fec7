import { createHmac } from 'node:crypto';
import assert from 'node:assert/strict';
import type { User } from './embedded-server.ts';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Bytes(secret: string): Buffer {
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error('not base32');
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** RFC 6238's code (SHA-1, 6 digits, 30 s), as an authenticator app shows it now. */
export function totpNow(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, '0');
}

/** Adds an authenticator app to the user's account through the Frontend API, as <UserProfile/> does. */
export async function enrolTotp(user: User): Promise<string> {
  const created = await user.browser.call('POST', '/me/totp');
  assert.equal(created.status, 200, JSON.stringify(created.body?.errors));
  const secret: string = created.body.response.secret;
  const verified = await user.browser.call('POST', '/me/totp/attempt_verification', {
    code: totpNow(secret),
  });
  assert.equal(verified.status, 200, JSON.stringify(verified.body?.errors));
  return secret;
}
