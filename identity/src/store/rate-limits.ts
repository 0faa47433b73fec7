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
  const [row] = await db.query<HitRow>(hitStatement('$1', '$2', '$3'), [rule.key, now, rule.windowSeconds]);
  return waitAfterHit(row, rule, now);
}

/** The counter row a hit leaves: its count and window. */
export interface HitRow {
  count: number;
  window_start: Date;
}

/**
 * hit()'s statement, with its key, time and window length as the parameters named (so that another
 * statement can carry it as a CTE: a sign-in counts its address's attempt with its first read).
 */
export function hitStatement(key: string, now: string, windowSeconds: string): string {
  const over = `rate_limits.window_start <= ${now}::timestamptz - make_interval(secs => ${windowSeconds})`;
  return `INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${now}, 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN ${over} THEN 1 ELSE rate_limits.count + 1 END,
       window_start = CASE WHEN ${over} THEN ${now} ELSE rate_limits.window_start END
     RETURNING count, window_start`;
}

/** The seconds to wait after a hit that left `row` (0: within the limit). */
export function waitAfterHit(row: HitRow | undefined, rule: RateLimitRule, now: Date): number {
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
  if (!rules.length) return new Map();
  const [row] = await db.query<{ windows: LimitWindow[] }>(
    `SELECT ${limitWindowsColumn('$1', '$2', '$3')} AS windows`,
    limitWindowsParams(rules, now),
  );
  return waitsOfWindows(row!.windows, rules, now);
}

/** A counter's current window, as limitWindowsColumn reads it (JSON: the time is a string). */
export interface LimitWindow {
  key: string;
  count: number;
  window_start: string;
}

/**
 * The current windows of some rules' counters as one JSON column, for a statement that reads something
 * else too (a sign-in reads its account with the limits it meets): `keys`, `now` and `windows` name the
 * parameters limitWindowsParams gives, in that order.
 */
export function limitWindowsColumn(keys: string, now: string, windows: string): string {
  return `COALESCE((SELECT json_agg(json_build_object('key', r.key, 'count', r.count,
                                                      'window_start', r.window_start))
                    FROM unnest(${keys}::text[], ${windows}::double precision[]) AS v(key, window_seconds)
                    JOIN rate_limits r ON r.key = v.key
                    WHERE r.window_start > ${now}::timestamptz - make_interval(secs => v.window_seconds)),
                   '[]'::json)`;
}

export function limitWindowsParams(rules: RateLimitRule[], now: Date): unknown[] {
  return [rules.map((r) => r.key), now, rules.map((r) => r.windowSeconds)];
}

/** Each rule's key with the seconds to wait (0: not full) given its counter's window. */
export function waitsOfWindows(
  windows: LimitWindow[],
  rules: RateLimitRule[],
  now: Date,
): Map<string, number> {
  const waits = new Map(rules.map((r) => [r.key, 0]));
  for (const window of windows) {
    const rule = rules.find((r) => r.key === window.key);
    if (!rule || window.count < rule.limit) continue;
    const reset = new Date(window.window_start).getTime() + rule.windowSeconds * 1000;
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
