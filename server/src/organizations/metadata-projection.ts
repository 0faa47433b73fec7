import type { Queryable } from '@app/identity';
import { childIdsOf, parentIdOf } from './hierarchy-store.ts';

/** The hierarchy fields of an organisation's public metadata (spec §3), as the relational state says. */
export interface HierarchyProjection {
  parentOrganizationId: string | null;
  vcisoChildOrganizations: string[];
}

export async function projectionOf(db: Queryable, organizationId: string): Promise<HierarchyProjection> {
  return {
    parentOrganizationId: await parentIdOf(db, organizationId),
    vcisoChildOrganizations: await childIdsOf(db, organizationId),
  };
}

/**
 * Whether stored metadata shows something other than the projection, so it must be written again. A
 * missing field reads as none (a merge drops a null value); a value of the wrong type is drift.
 */
export function drifted(metadata: Record<string, unknown> | null, projection: HierarchyProjection): boolean {
  const parent = metadata?.parentOrganizationId ?? null;
  const children = metadata?.vcisoChildOrganizations;
  const expected = projection.vcisoChildOrganizations;
  const childrenMatch =
    children === undefined
      ? expected.length === 0
      : Array.isArray(children) &&
        children.length === expected.length &&
        children.every((id, i) => id === expected[i]);
  return parent !== projection.parentOrganizationId || !childrenMatch;
}
