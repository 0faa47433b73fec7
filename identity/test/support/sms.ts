import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import type { Browser, Harness, Json } from './harness.ts';

export interface OutboxSms {
  to: string;
  text: string;
  created_at: string;
}

/** The development SMS outbox as the product's test tooling reads it: `GET /__dev/sms?to=`, newest first. */
export async function smsTo(h: Harness, to: string): Promise<OutboxSms[]> {
  const res = await h.app.inject({ method: 'GET', url: `/__dev/sms?to=${encodeURIComponent(to)}` });
  if (res.statusCode !== 200) throw new Error(`GET /__dev/sms answered ${res.statusCode}: ${res.body}`);
  return res.json() as OutboxSms[];
}

/** The 6-digit code of the newest SMS to `to`. */
export async function latestSmsCode(h: Harness, to: string): Promise<string> {
  const [sms] = await smsTo(h, to);
  const code = sms?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code texted to ${to}`);
  return code;
}

/** A valid mobile number nobody else in the run has: French mobiles, +33 6 followed by 8 digits. */
export function uniquePhone(): string {
  return `+336${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** A code that is not `code`. */
export const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

/** Adds a number from the profile and verifies it with the texted code; returns the PhoneNumberJSON. */
export async function addVerifiedPhone(h: Harness, browser: Browser, phone: string): Promise<Json> {
  const created = await browser.post('/me/phone_numbers/', { phone_number: phone });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.response.id;
  const prepared = await browser.post(`/me/phone_numbers/${id}/prepare_verification`, {
    strategy: 'phone_code',
  });
  assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
  const verified = await browser.post(`/me/phone_numbers/${id}/attempt_verification`, {
    code: await latestSmsCode(h, phone),
  });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return verified.body.response;
}

/** Reserves a verified number for two-step verification; returns the PhoneNumberJSON (with backup codes the first time). */
export async function reserveForSecondFactor(browser: Browser, phoneId: string): Promise<Json> {
  const res = await browser.patch(`/me/phone_numbers/${phoneId}`, { reserved_for_second_factor: 'true' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.response;
}
