/**
 * What the purge deletes in one table: a condition on the table's rows (`$1` is now) that says a row is
 * of no further use. Each capability declares the rules of the tables it owns (its `*-capability.ts`).
 */
export interface RetentionRule {
  table: string;
  /** SQL condition on the table's rows; `$1` is the current time. */
  expired: string;
}

/** A day, as SQL: most rules keep a row a day past its own expiry. */
export const DAY = "interval '1 day'";
