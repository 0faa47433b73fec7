import type { OrganizationSubscriptions } from '../billing/organization-subscriptions.ts';
import { allOrganizations } from './all-organizations.ts';
import { enqueueProjection } from './metadata-outbox.ts';
import { drifted, projectionOf } from './metadata-projection.ts';
import type { ProductHierarchy } from './product-hierarchy.ts';

export interface RepairReport {
  checked: number;
  /** Organisations whose metadata did not match the relational state. */
  drifted: string[];
  /** Organisations still queued (the Backend API kept failing); the servers' workers retry them. */
  pending: string[];
  /** Organisations whose subscription could not be read (their flag stays as last derived). */
  subscriptionsUnread: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Compares every organisation's projected metadata with the relational state and re-projects the ones
 * that differ — metadata links the relational state does not hold are cleared — through the outbox, so a
 * running server's worker and this repair never write the same organisation at once. With `subscriptions`,
 * each organisation's subscription flag is derived again from the provider first: the reconciliation for
 * billing webhooks that never arrived (docs/billing.md).
 */
export async function repairMetadata(
  hierarchy: ProductHierarchy,
  retries = 5,
  subscriptions?: OrganizationSubscriptions,
): Promise<RepairReport> {
  const report: RepairReport = { checked: 0, drifted: [], pending: [], subscriptionsUnread: [] };
  for await (const organization of allOrganizations(hierarchy.organizations())) {
    report.checked += 1;
    if (subscriptions) {
      try {
        await subscriptions.refresh(organization.id);
      } catch {
        report.subscriptionsUnread.push(organization.id);
      }
    }
    if (drifted(organization.publicMetadata, await projectionOf(hierarchy.db, organization.id))) {
      report.drifted.push(organization.id);
    }
  }
  // What was queued already (by adoption, or a change whose projection is still failing) goes too.
  const queued = (await hierarchy.outbox.pending()).map((row) => row.organizationId);
  if (report.drifted.length) await hierarchy.db.transaction((tx) => enqueueProjection(tx, report.drifted));
  let pending = [...new Set([...report.drifted, ...queued])];
  if (!pending.length) return report;
  for (let attempt = 0; ; attempt += 1) {
    await hierarchy.outbox.drainOnce(pending);
    const queued = new Set((await hierarchy.outbox.pending()).map((p) => p.organizationId));
    pending = pending.filter((id) => queued.has(id));
    if (!pending.length || attempt >= retries) break;
    await sleep(Math.min(1000 * 2 ** attempt, 10_000));
  }
  report.pending = pending;
  return report;
}
