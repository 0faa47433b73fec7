import type { Queryable } from '../db/database.ts';
import type { RetentionRule } from '../retention/retention-rule.ts';

/**
 * Deletes up to `limit` rows the rule calls expired and returns how many went. The rows are locked with
 * `FOR UPDATE SKIP LOCKED`, so two purges running at once share the work instead of waiting on each other.
 */
export async function deleteExpiredBatch(
  db: Queryable,
  rule: RetentionRule,
  now: Date,
  limit: number,
): Promise<number> {
  const rows = await db.query(
    `DELETE FROM ${rule.table} WHERE ctid IN (
           SELECT ctid FROM ${rule.table} WHERE ${rule.expired} LIMIT ${limit} FOR UPDATE SKIP LOCKED
         ) RETURNING 1`,
    [now],
  );
  return rows.length;
}
