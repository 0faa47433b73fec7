import type { Queryable } from '@app/identity';
import type { SubscriptionStatus } from '../organizations/default-metadata.ts';

/** The stored flag of `organizationId`; NO when the provider has never been asked about it. */
export async function storedSubscriptionStatus(
  db: Queryable,
  organizationId: string,
): Promise<SubscriptionStatus> {
  const [row] = await db.query<{ status: SubscriptionStatus }>(
    'SELECT status FROM organization_subscriptions WHERE organization_id = $1',
    [organizationId],
  );
  return row?.status ?? 'NO';
}

/** Records the provider's latest answer; true when the flag changed (or was never stored). */
export async function recordSubscriptionStatus(
  tx: Queryable,
  organizationId: string,
  status: SubscriptionStatus,
  subscriptionId: string | null,
): Promise<boolean> {
  const [before] = await tx.query<{ status: string }>(
    'SELECT status FROM organization_subscriptions WHERE organization_id = $1 FOR UPDATE',
    [organizationId],
  );
  await tx.query(
    `INSERT INTO organization_subscriptions (organization_id, status, subscription_id, checked_at)
       VALUES ($1, $2, $3, now())
     ON CONFLICT (organization_id) DO UPDATE
       SET status = EXCLUDED.status, subscription_id = EXCLUDED.subscription_id, checked_at = now()`,
    [organizationId, status, subscriptionId],
  );
  return before?.status !== status;
}

/** Forgets a deleted organisation's flag. */
export async function forgetSubscription(tx: Queryable, organizationId: string): Promise<void> {
  await tx.query('DELETE FROM organization_subscriptions WHERE organization_id = $1', [organizationId]);
}
