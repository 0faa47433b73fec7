import type { IdentityConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { LiveInstanceSettings } from '../instance/settings/live-settings.ts';
import { billingEnabled } from './billing-settings.ts';
import { gatewayFor } from './gateways/gateway-for.ts';
import type { PaymentGateway } from './gateways/payment-gateway.ts';
import { planCatalogue, type PlanCatalogue } from './plans.ts';

/** Billing as the live instance settings have it now (deps.billing). */
export interface BillingRuntime {
  /** Null when billing is off (no `billing` block, or `enabled: false`). */
  catalogue(): PlanCatalogue | null;
  /** The configured gateway (the offline one when billing has no settings). */
  gateway(): PaymentGateway;
}

/**
 * Follows `settings`: the catalogue and the gateway are rebuilt when the settings' version moves, so a
 * change made in another process applies here within the settings' check interval.
 */
export function createBillingRuntime(
  settings: LiveInstanceSettings,
  config: IdentityConfig,
  db: () => Database,
  clock: () => Date,
): BillingRuntime {
  let cached: { version: number; catalogue: PlanCatalogue | null; gateway: PaymentGateway | null } | null =
    null;
  const current = () => {
    if (cached?.version === settings.version) return cached;
    const billing = settings.settings.billing;
    cached = {
      version: settings.version,
      catalogue: billingEnabled(billing) ? planCatalogue(billing) : null,
      // Made on first use: reading the catalogue never needs the gateway's secrets.
      gateway: null,
    };
    return cached;
  };
  return {
    catalogue: () => current().catalogue,
    gateway: () => {
      const c = current();
      c.gateway ??= gatewayFor(settings.settings.billing, { db, clock, config });
      return c.gateway;
    },
  };
}
