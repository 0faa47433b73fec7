import type { AppConfig } from '../../lib/app-config.ts';
import { installProofOfWorkTurnstile } from './proof-of-work-turnstile.ts';

/** Where the embedded instance hands out proof-of-work challenges (identity's `GET /v1/captcha/challenge`). */
export function challengeUrlOf(config: Pick<AppConfig, 'proxyUrl'>): string {
  const base = (config.proxyUrl ?? '/__clerk').replace(/\/+$/, '');
  return `${base}/v1/captcha/challenge`;
}

/**
 * Before clerk-js loads: the proof-of-work widget, when the embedded instance's captcha is the proof of
 * work. Nothing otherwise: with Turnstile (embedded or hosted Clerk) clerk-js loads Cloudflare's script.
 */
export function installCaptcha(config: AppConfig): void {
  if (config.identity !== 'embedded' || config.captcha !== 'proof_of_work') return;
  installProofOfWorkTurnstile(challengeUrlOf(config));
}
