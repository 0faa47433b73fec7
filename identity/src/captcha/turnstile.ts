import { createHash } from 'node:crypto';
import { secretFromEnv } from '../instance/settings/schema.ts';
import type { CaptchaSettings } from './captcha-settings.ts';

/** Cloudflare caps a Turnstile token at 2048 characters. */
export const MAX_TURNSTILE_TOKEN_LENGTH = 2048;
const SITEVERIFY_TIMEOUT_MS = 5000;
/** How long Cloudflare accepts a token: ours is spent for as long. */
export const TURNSTILE_TOKEN_TTL_SECONDS = 300;

export type TurnstileVerdict = 'ok' | 'invalid' | 'unavailable';

type TurnstileSettings = NonNullable<CaptchaSettings['turnstile']>;

/**
 * Verifies a Turnstile token with Cloudflare's siteverify (server side, with the widget's secret key), as
 * Cloudflare requires: a token is valid once, for 300 s. Asked again with the same token (a request that
 * rolled back and is sent again, e.g. after `requires_captcha`) Cloudflare answers the same thanks to the
 * idempotency key; single use is then ours (the caller spends the token, TURNSTILE_TOKEN_TTL_SECONDS). `invalid` when Cloudflare says so, or
 * when the page it was solved on is not one of `allowedHostnames`; `unavailable`
 * when it cannot be asked (network, timeout, a missing secret variable), which is not the browser's fault.
 */
export async function verifyTurnstileToken(
  settings: TurnstileSettings,
  token: string,
  widgetType: 'smart' | 'invisible',
  remoteIp: string,
  allowedHostnames: ReadonlySet<string>,
  fetchImpl: typeof fetch = fetch,
): Promise<TurnstileVerdict> {
  if (!token || token.length > MAX_TURNSTILE_TOKEN_LENGTH) return 'invalid';
  const ref =
    widgetType === 'invisible' && settings.invisibleSecretKey
      ? settings.invisibleSecretKey
      : settings.secretKey;
  let secret: string;
  try {
    secret = secretFromEnv(ref);
  } catch {
    return 'unavailable';
  }
  let answer: unknown;
  try {
    const res = await fetchImpl(settings.siteverifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        secret,
        response: token,
        remoteip: remoteIp,
        idempotency_key: idempotencyKey(token),
      }).toString(),
      signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
    });
    if (!res.ok) return 'unavailable';
    answer = await res.json();
  } catch {
    return 'unavailable';
  }
  if (typeof answer !== 'object' || answer === null) return 'unavailable';
  const {
    success,
    hostname,
    'error-codes': codes,
  } = answer as { success?: unknown; hostname?: unknown; 'error-codes'?: unknown };
  // Cloudflare names the site the widget was solved on: a token solved on another site with our site key
  // (a key shared or allowed too widely) is not one of our pages' (Cloudflare asks the server to check it).
  if (success === true)
    return typeof hostname === 'string' && allowedHostnames.has(hostname) ? 'ok' : 'invalid';
  // Cloudflare's own trouble (its "internal-error") is not a bot.
  if (Array.isArray(codes) && codes.includes('internal-error')) return 'unavailable';
  return 'invalid';
}

/** Cloudflare's idempotency key (a UUID) for one token: the same for the same token, and nothing else. */
function idempotencyKey(token: string): string {
  const hex = createHash('sha256').update(`turnstile:${token}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
