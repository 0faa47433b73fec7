import type { Database } from '@app/identity';
import type { BackendApi } from '../api/backend-api.ts';
import { allOrganizations } from './all-organizations.ts';
import { attachLocked, lockHierarchy } from './hierarchy-store.ts';
import { childrenOf, parentOf } from './hierarchy-rules.ts';
import { enqueueProjection } from './metadata-outbox.ts';

const ADOPTED_KEY = 'hierarchy_adopted_at';

export interface AdoptionReport {
  /** False when the hierarchy had been adopted before (nothing read, nothing changed). */
  adopted: boolean;
  links: number;
  /** Links found in metadata that the rules refuse (a cycle, too deep): left out, and logged. */
  refused: { parentId: string; childId: string; code: string }[];
}

export async function hierarchyAdopted(db: Database): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM product_state WHERE key = $1', [ADOPTED_KEY]);
  return rows.length > 0;
}

/**
 * Adopts a hierarchy that lives only in organisation public metadata (a deployment from before the
 * product database): once per database, when nothing has been adopted yet. The child's
 * `parentOrganizationId` decides, as it did then (a parent's list naming a child that does not name it was
 * a half-written link); children keep the order of their parent's list. Each link goes through the same
 * rules as the console, and every organisation involved is queued for projection, so metadata ends up
 * matching what was adopted. Organisations are read before the lock is taken; the links are then written
 * in one transaction with the mark that adoption is done, so a process dying midway leaves nothing, and
 * if another process adopted meanwhile this one changes nothing.
 */
export async function adoptMetadataHierarchy(
  db: Database,
  organizations: BackendApi['organizations'],
): Promise<AdoptionReport> {
  if (await hierarchyAdopted(db)) return { adopted: false, links: 0, refused: [] };
  const parents = new Map<string, string>();
  const listedBy = new Map<string, string[]>();
  for await (const organization of allOrganizations(organizations)) {
    const parentId = parentOf(organization.publicMetadata);
    if (parentId && parentId !== organization.id) parents.set(organization.id, parentId);
    const listed = childrenOf(organization.publicMetadata);
    if (listed.length) listedBy.set(organization.id, listed);
  }
  const rank = (parentId: string, childId: string) => {
    const index = listedBy.get(parentId)?.indexOf(childId) ?? -1;
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  const links = [...parents].sort(
    ([childA, parentA], [childB, parentB]) =>
      parentA.localeCompare(parentB) || rank(parentA, childA) - rank(parentB, childB),
  );

  return db.transaction(async (tx) => {
    await lockHierarchy(tx);
    const done = await tx.query('SELECT 1 FROM product_state WHERE key = $1', [ADOPTED_KEY]);
    if (done.length) return { adopted: false, links: 0, refused: [] };
    const report: AdoptionReport = { adopted: true, links: 0, refused: [] };
    for (const [childId, parentId] of links) {
      const change = await attachLocked(tx, parentId, childId);
      if (change.refusal) report.refused.push({ parentId, childId, code: change.refusal.code });
      else if (change.changed) report.links += 1;
    }
    // Parents whose lists named children that are not linked now have their metadata corrected too.
    await enqueueProjection(tx, [...listedBy.keys(), ...report.refused.map((r) => r.childId)]);
    await tx.query('INSERT INTO product_state (key, value) VALUES ($1, $2)', [
      ADOPTED_KEY,
      new Date().toISOString(),
    ]);
    return report;
  });
}
