import type { Queryable } from '../db/database.ts';
import type { Plan } from '../billing/billing-model.ts';

/** The default plan as the payer last had it, to give back when no catalogue is at hand. */
export async function selectLastDefaultSnapshot(tx: Queryable, payerId: string): Promise<Plan | null> {
  const [row] = await tx.query<{ plan_snapshot: Plan | string }>(
    `SELECT plan_snapshot FROM billing_subscription_items
      WHERE payer_id = $1 AND (plan_snapshot->>'isDefault')::boolean ORDER BY created_at DESC, id DESC LIMIT 1`,
    [payerId],
  );
  if (!row) return null;
  return typeof row.plan_snapshot === 'string' ? (JSON.parse(row.plan_snapshot) as Plan) : row.plan_snapshot;
}
