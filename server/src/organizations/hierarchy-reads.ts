import type { Queryable } from '@app/identity';

// The plain reads of the vCISO hierarchy, apart from the store that changes it, so that what the change
// enqueues (the metadata projection) can read the hierarchy without importing its writer.

/** The organisation's parent, or null. */
export async function parentIdOf(db: Queryable, organizationId: string): Promise<string | null> {
  const [row] = await db.query<{ parent_id: string }>(
    'SELECT parent_id FROM vciso_links WHERE child_id = $1',
    [organizationId],
  );
  return row?.parent_id ?? null;
}

/** The organisation's children, in the order they were added. */
export async function childIdsOf(db: Queryable, organizationId: string): Promise<string[]> {
  const rows = await db.query<{ child_id: string }>(
    'SELECT child_id FROM vciso_links WHERE parent_id = $1 ORDER BY position',
    [organizationId],
  );
  return rows.map((r) => r.child_id);
}
