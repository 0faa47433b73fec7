import { DatabaseUnavailableError, type Database } from '@app/identity';

type Queryable = Pick<Database, 'query'>;

type Rule = { matches: (sql: string, params: unknown[]) => boolean; error: () => Error; remaining: number };

/**
 * Makes the embedded provider's database fail on chosen queries, so the real Backend API answers as
 * it does in an outage (503 for an unreachable database, 500 for any other failure) and the product
 * API meets the errors @clerk/backend really throws.
 */
export class DatabaseFaults {
  private rule: Rule | null = null;

  /** The next `times` queries that `matches` fail with `error` (by default: the database is away). */
  failNext(
    matches: (sql: string, params: unknown[]) => boolean,
    {
      error = () => new DatabaseUnavailableError('injected outage'),
      times = 1,
    }: { error?: () => Error; times?: number } = {},
  ): void {
    this.rule = { matches, error, remaining: times };
  }

  clear(): void {
    this.rule = null;
  }

  readonly wrap = (db: Database): Database => {
    const check = (sql: string, params: unknown[] = []) => {
      const rule = this.rule;
      if (!rule || !rule.matches(sql, params)) return;
      if (--rule.remaining <= 0) this.rule = null;
      throw rule.error();
    };
    const guarded = (q: Queryable): Queryable => ({
      async query<T>(sql: string, params?: unknown[]) {
        check(sql, params);
        return q.query<T>(sql, params);
      },
    });
    return {
      kind: db.kind,
      query: guarded(db).query,
      transaction: (fn) =>
        db.transaction((tx) =>
          fn({
            ...guarded(tx),
            async exec(sql: string) {
              check(sql);
              return tx.exec(sql);
            },
          }),
        ),
      close: () => db.close(),
    };
  };
}
