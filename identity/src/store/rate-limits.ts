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

/**
 * The seconds to wait when the rule's window is already full (0 when not), without counting this look:
 * the check of a limit whose count is added at commit (`hitAll`).
 */
export async function waitIfReached(db: Queryable, rule: RateLimitRule, now: Date): Promise<number> {
  return (await waitsIfReached(db, [rule], now)).get(rule.key) ?? 0;
}

/** waitIfReached of several rules in one statement: each rule's key with its seconds to wait. */
export async function waitsIfReached(
  db: Queryable,
  rules: RateLimitRule[],
  now: Date,
): Promise<Map<string, number>> {
  const waits = new Map(rules.map((r) => [r.key, 0]));
  if (!rules.length) return waits;
  const rows = await db.query<{ key: string; count: number; window_start: Date }>(
    `SELECT r.key, r.count, r.window_start
     FROM unnest($1::text[], $3::double precision[]) AS v(key, window_seconds)
     JOIN rate_limits r ON r.key = v.key
     WHERE r.window_start > $2::timestamptz - make_interval(secs => v.window_seconds)`,
    [rules.map((r) => r.key), now, rules.map((r) => r.windowSeconds)],
  );
  for (const row of rows) {
    const rule = rules.find((r) => r.key === row.key)!;
    if (row.count < rule.limit) continue;
    const reset = row.window_start.getTime() + rule.windowSeconds * 1000;
    waits.set(rule.key, Math.max(1, Math.ceil((reset - now.getTime()) / 1000)));
  }
  return waits;
}

/**
 * Counts one hit of each rule in one statement, in key order (two transactions counting the same keys
 * lock their rows in the same order). Made last in a request's transaction: a counter's row stays locked
 * until the commit, and counted any earlier it would make every request of that key (every new browser of
 * an office's address) wait for the whole of the ones before it.
 */
export async function hitAll(db: Queryable, rules: RateLimitRule[], now: Date): Promise<void> {
  if (!rules.length) return;
  const byKey = new Map(rules.map((r) => [r.key, r]));
  const sorted = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // The same window test as hit(), with each key's own window length.
  const windowOver = `r.window_start <= $2::timestamptz
    - make_interval(secs => (SELECT v.window_seconds FROM v WHERE v.key = EXCLUDED.key))`;
  await db.query(
    `WITH v AS (SELECT * FROM unnest($1::text[], $3::double precision[]) AS v(key, window_seconds))
     INSERT INTO rate_limits AS r (key, window_start, count)
     SELECT v.key, $2, 1 FROM v ORDER BY v.key
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN ${windowOver} THEN 1 ELSE r.count + 1 END,
       window_start = CASE WHEN ${windowOver} THEN $2 ELSE r.window_start END`,
    [sorted.map((r) => r.key), now, sorted.map((r) => r.windowSeconds)],
  );
}
