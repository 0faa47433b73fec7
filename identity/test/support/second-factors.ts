import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Harness } from './harness.ts';

const STEP_MS = 30_000;

/** The code an authenticator app shows for `secret` at `at`, `steps` periods of 30 s later (or earlier). */
export function totpCode(secret: string, at: Date, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: at.getTime() + steps * STEP_MS });
}

/** A six-digit code that is none of the codes accepted around `at`. */
export function wrongTotpCode(secret: string, at: Date): string {
  const accepted = new Set([-1, 0, 1].map((s) => totpCode(secret, at, s)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!accepted.has(candidate)) return candidate;
  }
}

export interface Enrolled {
  totpId: string;
  secret: string;
  backupCodes: string[];
}

/** Adds an authenticator app as <UserProfile/> does: POST /me/totp, then a code from it. */
export async function enrolTotp(h: Harness, browser: Browser): Promise<Enrolled> {
  const created = await browser.post('/me/totp');
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const secret: string = created.body.response.secret;
  const verified = await browser.post('/me/totp/attempt_verification', {
    code: totpCode(secret, h.clock.now),
  });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  assert.equal(verified.body.response.verified, true);
  return { totpId: created.body.response.id, secret, backupCodes: verified.body.response.backup_codes };
}

/** Identifier then password, stopping where the second factor is asked for. */
export async function passwordUntilSecondFactor(browser: Browser, email: string, password: string) {
  const created = await browser.post('/client/sign_ins', { identifier: email });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const attempted = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
    strategy: 'password',
    password,
  });
  assert.equal(attempted.status, 200, JSON.stringify(attempted.body));
  assert.equal(attempted.body.response.status, 'needs_second_factor');
  return attempted;
}
