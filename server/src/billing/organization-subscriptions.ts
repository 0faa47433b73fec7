import type { BackendApi } from '../api/backend-api.ts';
import { isBackendNotFound } from '../api/errors.ts';
import { enqueueProjection } from '../organizations/metadata-outbox.ts';
import type { ProductHierarchy } from '../organizations/product-hierarchy.ts';
import type { SubscriptionStatus } from '../organizations/default-metadata.ts';
import { subscriptionStatusFrom } from './subscription-status.ts';
import { recordSubscriptionStatus } from './subscription-store.ts';

export interface SubscriptionRefresh {
  organizationId: string;
  status: SubscriptionStatus;
  changed: boolean;
}

/**
 * The organisations' subscription flags (docs/billing.md): never set by hand, always derived by asking the
 * Backend API for the organisation's subscription — after a billing webhook, and in the reconciliation
 * (`repair-metadata`). Asking rather than reading the webhook's payload makes the order of deliveries,
 * repeats and replays irrelevant: whichever arrives, the flag becomes what the provider says now. It is the
 * same call against hosted Clerk, so the product needs no knowledge of the embedded provider's tables.
 */
export class OrganizationSubscriptions {
  constructor(
    private readonly hierarchy: ProductHierarchy,
    private readonly billing: () => BackendApi['billing'],
  ) {}

  /**
   * Asks the provider, stores the flag and, in the same transaction, queues the organisation's metadata
   * projection when it changed. An organisation without a subscription (404) is NO; any other failure is
   * thrown, and the stored flag is left as it was (the provider will send the webhook again, and the
   * reconciliation re-asks).
   */
  async refresh(organizationId: string): Promise<SubscriptionRefresh> {
    let subscription = null;
    try {
      subscription = await this.billing().getOrganizationBillingSubscription(organizationId);
    } catch (error) {
      if (!isBackendNotFound(error)) throw error;
    }
    const status = subscriptionStatusFrom(subscription);
    const changed = await this.hierarchy.db.transaction(async (tx) => {
      const changed = await recordSubscriptionStatus(tx, organizationId, status, subscription?.id ?? null);
      if (changed) await enqueueProjection(tx, [organizationId]);
      return changed;
    });
    if (changed) this.hierarchy.outbox.kick();
    return { organizationId, status, changed };
  }
}
