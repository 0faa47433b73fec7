import type { Database, Queryable } from '@app/identity';
import { parentIdOf, childIdsOf } from './hierarchy-reads.ts';
import { enqueueProjection } from './metadata-outbox.ts';
import { detachRefusal, linkRefusal, MAX_ANCESTOR_DEPTH, type HierarchyRefusal } from './hierarchy-rules.ts';

/**
 * The vCISO hierarchy in the product database (`vciso_links`, one row per child). Every change runs in one
 * transaction that first takes the hierarchy lock, reads what the rules need, writes the link and queues
 * the metadata projection of both organisations (metadata-outbox.ts), so the projection is never lost
 * once the change is committed.
 *
 * Why one lock for every change rather than a row lock per organisation: a cycle check reads the whole
 * chain above the new parent, so two changes on different organisations can still close a cycle together
 * (A under B while B's ancestor goes under A), and a row that does not exist yet cannot be locked. It is a
 * transaction-scoped advisory lock, so it holds across every server process on one PostgreSQL server and
 * is released by the commit or rollback, even when a process dies. Hierarchy changes are rare clicks in a
 * console; serialising them costs nothing noticeable.
 */

/** `pg_advisory_xact_lock(HIERARCHY_LOCK_CLASS, hashtext(current_schema()))`: one lock per product schema. */
const HIERARCHY_LOCK_CLASS = 7261534;

export type HierarchyChange = { refusal: HierarchyRefusal } | { refusal: null; changed: boolean };

export async function lockHierarchy(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [HIERARCHY_LOCK_CLASS]);
}

/** The organisation's ancestors, nearest first, read at most one level past the limit. */
async function ancestorsOf(
  db: Queryable,
  organizationId: string,
): Promise<{ ids: string[]; complete: boolean }> {
  const rows = await db.query<{ id: string }>(
    `WITH RECURSIVE up(id, depth) AS (
       SELECT parent_id, 1 FROM vciso_links WHERE child_id = $1
       UNION ALL
       SELECT l.parent_id, up.depth + 1 FROM vciso_links l JOIN up ON l.child_id = up.id WHERE up.depth <= $2
     )
     SELECT id FROM up ORDER BY depth`,
    [organizationId, MAX_ANCESTOR_DEPTH],
  );
  const ids = rows.map((r) => r.id);
  return { ids: ids.slice(0, MAX_ANCESTOR_DEPTH), complete: ids.length <= MAX_ANCESTOR_DEPTH };
}

/** The levels below the organisation (0 without children), read at most one level past the limit. */
async function heightOf(db: Queryable, organizationId: string): Promise<number> {
  const [row] = await db.query<{ height: number }>(
    `WITH RECURSIVE down(id, depth) AS (
       SELECT child_id, 1 FROM vciso_links WHERE parent_id = $1
       UNION ALL
       SELECT l.child_id, down.depth + 1 FROM vciso_links l JOIN down ON l.parent_id = down.id WHERE down.depth <= $2
     )
     SELECT coalesce(max(depth), 0)::int AS height FROM down`,
    [organizationId, MAX_ANCESTOR_DEPTH],
  );
  return row?.height ?? 0;
}

/**
 * Links `childId` under `parentId` if the rules allow it, in one transaction under the hierarchy lock.
 * Linking a child to the parent it already has changes nothing (a replayed request).
 */
export async function attachChild(db: Database, parentId: string, childId: string): Promise<HierarchyChange> {
  return db.transaction(async (tx) => {
    await lockHierarchy(tx);
    return attachLocked(tx, parentId, childId);
  });
}

/** attachChild's work, inside a transaction that holds the hierarchy lock. */
export async function attachLocked(
  tx: Queryable,
  parentId: string,
  childId: string,
): Promise<HierarchyChange> {
  const childParentId = await parentIdOf(tx, childId);
  const refusal = linkRefusal({
    parentId,
    childId,
    parentAncestors: await ancestorsOf(tx, parentId),
    childParentId,
    childHeight: await heightOf(tx, childId),
  });
  if (refusal) return { refusal };
  if (childParentId === parentId) return { refusal: null, changed: false };
  await tx.query('INSERT INTO vciso_links (child_id, parent_id) VALUES ($1, $2)', [childId, parentId]);
  await enqueueProjection(tx, [parentId, childId]);
  return { refusal: null, changed: true };
}

/** Removes the link between `parentId` and `childId`, in one transaction under the hierarchy lock. */
export async function detachChild(db: Database, parentId: string, childId: string): Promise<HierarchyChange> {
  return db.transaction(async (tx) => {
    await lockHierarchy(tx);
    const refusal = detachRefusal({ parentId, childParentId: await parentIdOf(tx, childId) });
    if (refusal) return { refusal };
    await tx.query('DELETE FROM vciso_links WHERE child_id = $1 AND parent_id = $2', [childId, parentId]);
    await enqueueProjection(tx, [parentId, childId]);
    return { refusal: null, changed: true };
  });
}

/** Whether a new organisation could go under `parentId` now (checked again when it is linked). */
export async function newChildRefusal(db: Queryable, parentId: string): Promise<HierarchyRefusal | null> {
  return linkRefusal({
    parentId,
    // A new organisation has no id yet, no parent and nothing below it.
    childId: '',
    parentAncestors: await ancestorsOf(db, parentId),
    childParentId: null,
    childHeight: 0,
  });
}

/**
 * Forgets an organisation the identity provider deleted (its `organization.deleted` webhook): its link to
 * its parent, its children's links to it (they become top-level) and its queued projection, under the
 * hierarchy lock. The organisations left behind get their projection queued, so their metadata stops
 * naming it. Answers those organisations; a second call finds nothing and changes nothing.
 */
export async function forgetOrganization(db: Database, organizationId: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    await lockHierarchy(tx);
    const parentId = await parentIdOf(tx, organizationId);
    const childIds = await childIdsOf(tx, organizationId);
    await tx.query('DELETE FROM vciso_links WHERE child_id = $1 OR parent_id = $1', [organizationId]);
    await tx.query('DELETE FROM metadata_outbox WHERE organization_id = $1', [organizationId]);
    const affected = [...(parentId ? [parentId] : []), ...childIds];
    if (affected.length) await enqueueProjection(tx, affected);
    return affected;
  });
}
