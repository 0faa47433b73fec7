import type { Queryable } from '../db/database.ts';

export interface RateLimitRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counter kept in the database so every instance and every restart shares it.
 * Returns the seconds to wait when the rule is exceeded, 0 otherwise.
 */
export async function hit(db: Queryable, rule: RateLimitRule, now: Date): Promise<number> {
  const [row] = await db.query<{ count: number; window_start: Date }>(
    `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN rate_limits.window_start <= $2::timestamptz - make_interval(secs => $3) THEN 1 ELSE rate_limits.count + 1 END,
       window_start = CASE WHEN rate_limits.window_start <= $2::timestamptz - make_interval(secs => $3) THEN $2 ELSE rate_limits.window_start END
     RETURNING count, window_start`,
    [rule.key, now, rule.windowSeconds],
  );
  if (!row || row.count <= rule.limit) return 0;
  return Math.max(
    1,
    Math.ceil((row.window_start.getTime() + rule.windowSeconds * 1000 - now.getTime()) / 1000),
  );
}

/** Whether the rule's window is already full, without counting this look. */
export async function reached(db: Queryable, rule: RateLimitRule, now: Date): Promise<boolean> {
  const [row] = await db.query<{ count: number }>(
    `SELECT count FROM rate_limits
     WHERE key = $1 AND window_start > $2::timestamptz - make_interval(secs => $3)`,
    [rule.key, now, rule.windowSeconds],
  );
  return row !== undefined && row.count >= rule.limit;
}
