import type { Database, Queryable, Transaction } from '@app/identity';

/** One statement the identity provider sent, with the parameters it was sent with. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The identity provider's own database, with every statement it sends written down: the query plans
 * are those of the SQL the code really runs, not of a copy of it kept in the bench.
 */
export class RecordingDatabase implements Database {
  private log: Statement[] = [];

  constructor(readonly inner: Database) {}

  get kind() {
    return this.inner.kind;
  }

  /** The statements sent since the last call, and a fresh log. */
  take(): Statement[] {
    const taken = this.log;
    this.log = [];
    return taken;
  }

  private record(q: Queryable): Queryable {
    return {
      query: <T>(sql: string, params: unknown[] = []) => {
        this.log.push({ sql, params });
        return q.query<T>(sql, params);
      },
    };
  }

  query<T>(sql: string, params?: unknown[]) {
    return this.record(this.inner).query<T>(sql, params);
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.inner.transaction((tx) => fn({ ...this.record(tx), exec: (sql) => tx.exec(sql) }));
  }

  close() {
    return this.inner.close();
  }
}
