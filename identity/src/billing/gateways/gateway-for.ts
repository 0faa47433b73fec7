import type { IdentityConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { BillingSettings } from '../billing-settings.ts';
import { createOfflineGateway } from './offline-gateway.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { createStripeGateway } from './stripe-gateway.ts';

export interface GatewayContext {
  db: () => Database;
  clock: () => Date;
  config: IdentityConfig;
}

/** The gateway the billing settings name; the offline one when billing has no settings. */
export function gatewayFor(settings: BillingSettings | undefined, ctx: GatewayContext): PaymentGateway {
  const gateway = settings?.gateway ?? { kind: 'offline' as const };
  switch (gateway.kind) {
    case 'offline':
      return createOfflineGateway(ctx);
    case 'stripe':
      // Its secret key from the environment variable the settings name (docs/billing.md § Stripe).
      return createStripeGateway(gateway);
  }
}
