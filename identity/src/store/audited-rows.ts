import type { Queryable } from '../db/database.ts';
import { organizationCondition } from './organizations.ts';

/**
 * The rows a Backend API route may name as the object it changes, for its audit event's `summary.before`
 * (docs/audit-log.md): each a table, and the condition that finds the row from the path's parameters, in the
 * order the route declares them ($1, $2…).
 */
const AUDITED_ROWS = {
  user: { table: 'users', where: () => 'id = $1' },
  organization: {
    table: 'organizations',
    where: ([organization]: readonly string[]) => organizationCondition(organization ?? '', '$1'),
  },
  organization_membership: {
    table: 'organization_memberships',
    where: ([organization]: readonly string[]) =>
      `organization_id = (SELECT id FROM organizations WHERE ${organizationCondition(organization ?? '', '$1')})
       AND user_id = $2`,
  },
} as const satisfies Record<string, { table: string; where: (keys: readonly string[]) => string }>;

export type AuditedRowKind = keyof typeof AUDITED_ROWS;

/** The row a change names: its kind and the path's values that find it. */
export interface AuditedRow {
  kind: AuditedRowKind;
  keys: readonly string[];
}

const COLUMN = /^[a-z][a-z0-9_]*$/;

/**
 * The values of `columns` of `row`, which stays locked until the transaction ends (FOR UPDATE): a concurrent
 * change of the row waits for this transaction, and this one read the latest committed values, so what it
 * reads is exactly what its own change replaces. Null when no row matches.
 */
export async function lockedRowValues(
  tx: Queryable,
  row: AuditedRow,
  columns: readonly string[],
): Promise<Record<string, unknown> | null> {
  // The columns come from the route table, never from a request; checked all the same, as they are SQL.
  for (const column of columns) if (!COLUMN.test(column)) throw new Error(`not a column name: ${column}`);
  const { table, where } = AUDITED_ROWS[row.kind];
  const [values] = await tx.query<Record<string, unknown>>(
    `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM ${table} WHERE ${where(row.keys)} FOR UPDATE`,
    [...row.keys],
  );
  return values ?? null;
}
