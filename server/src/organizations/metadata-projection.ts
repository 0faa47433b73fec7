import type { Queryable } from '@app/identity';
import { storedSubscriptionStatus } from '../billing/subscription-store.ts';
import type { SubscriptionStatus } from './default-metadata.ts';
import { childIdsOf, parentIdOf } from './hierarchy-reads.ts';

/**
 * The fields of an organisation's public metadata (spec §3) that are projections of the product's own
 * database: the hierarchy, and the subscription flag derived from billing (docs/billing.md).
 */
export interface MetadataProjection {
  parentOrganizationId: string | null;
  vcisoChildOrganizations: string[];
  hasActiveSubscription: SubscriptionStatus;
}

export async function projectionOf(db: Queryable, organizationId: string): Promise<MetadataProjection> {
  return {
    parentOrganizationId: await parentIdOf(db, organizationId),
    vcisoChildOrganizations: await childIdsOf(db, organizationId),
    hasActiveSubscription: await storedSubscriptionStatus(db, organizationId),
  };
}

/**
 * Whether stored metadata shows something other than the projection, so it must be written again. A
 * missing field reads as none (a merge drops a null value; a missing flag reads as NO); a value of the
 * wrong type is drift.
 */
export function drifted(metadata: Record<string, unknown> | null, projection: MetadataProjection): boolean {
  const parent = metadata?.parentOrganizationId ?? null;
  const children = metadata?.vcisoChildOrganizations;
  const expected = projection.vcisoChildOrganizations;
  const childrenMatch =
    children === undefined
      ? expected.length === 0
      : Array.isArray(children) &&
        children.length === expected.length &&
        children.every((id, i) => id === expected[i]);
  const subscription = metadata?.hasActiveSubscription ?? 'NO';
  return (
    parent !== projection.parentOrganizationId ||
    !childrenMatch ||
    subscription !== projection.hasActiveSubscription
  );
}
