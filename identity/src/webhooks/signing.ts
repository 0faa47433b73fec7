import { createHmac, randomBytes } from 'node:crypto';

/**
 * Svix / Standard Webhooks signatures, as `@clerk/backend`'s `verifyWebhook` checks them (through the
 * `standardwebhooks` package): `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * base64 part of the `whsec_` secret. Written here on node:crypto rather than by importing
 * `standardwebhooks`, which is only in node_modules as @clerk/backend's dependency (not ours); the tests
 * verify every delivery with `verifyWebhook` itself, so the two cannot drift apart unnoticed.
 */
export function signWebhook(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${msgId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** A new signing secret, as Clerk's dashboard shows them: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Whether `secret` is a usable `whsec_` secret (base64 of at least 16 bytes). */
export function isWebhookSecret(secret: string): boolean {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) return false;
  return Buffer.from(secret.slice('whsec_'.length), 'base64').length >= 16;
}

/**
 * A `whsec_` secret derived from the instance's secret key and a purpose: the product server, which
 * embeds the provider and holds that key, signs and verifies its own endpoint's deliveries with it
 * without storing anything (docs/webhooks.md). Another purpose gives an unrelated secret.
 */
export function deriveWebhookSecret(instanceSecretKey: string, purpose: string): string {
  const bytes = createHmac('sha256', instanceSecretKey).update(`qoala webhooks: ${purpose}`).digest();
  return `whsec_${bytes.subarray(0, 24).toString('base64')}`;
}
