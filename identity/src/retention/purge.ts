import type { Queryable } from '../db/database.ts';
import { deleteExpiredBatch } from '../store/retention.ts';
import { RETENTION_RULES, type RetentionRule } from './rules.ts';

/** Rows deleted per statement: each batch is its own short transaction, so no table is locked for long. */
export const PURGE_BATCH_SIZE = 500;
/** Batches per table and run: a backlog is worked off over several runs instead of in one long one. */
export const PURGE_MAX_BATCHES = 200;

/**
 * Deletes what the retention rules call expired, in batches. Safe on several instances at once: a batch
 * locks the rows it deletes with `FOR UPDATE SKIP LOCKED`, so two runs share the work instead of
 * waiting on or failing over each other. Returns the rows deleted per table.
 */
export async function purgeExpired(
  db: Queryable,
  now: Date,
  rules: readonly RetentionRule[] = RETENTION_RULES,
): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const rule of rules) {
    let count = 0;
    for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
      const deletedNow = await deleteExpiredBatch(db, rule, now, PURGE_BATCH_SIZE);
      count += deletedNow;
      if (deletedNow < PURGE_BATCH_SIZE) break;
    }
    deleted[rule.table] = count;
  }
  return deleted;
}
