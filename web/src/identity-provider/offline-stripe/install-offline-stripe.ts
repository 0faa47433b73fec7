import type { AppConfig } from '../../lib/app-config.ts';
import { createOfflineStripe } from './offline-stripe.ts';

/**
 * Before clerk-js can mount a payment form: the offline Stripe.js stand-in as `window.Stripe`, only when
 * the app config says billing is on with the embedded instance's offline gateway. With Stripe (or hosted
 * Clerk) nothing is installed and clerk-js loads Stripe.js itself.
 */
export function installOfflineStripe(config: AppConfig): void {
  if (config.identity !== 'embedded' || !config.billing?.enabled || config.billing.gateway !== 'offline')
    return;
  const target = window as unknown as { Stripe?: unknown };
  if (target.Stripe) return;
  target.Stripe = createOfflineStripe(config.proxyUrl ?? '/__clerk');
}
