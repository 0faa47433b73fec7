import type { Database, Transaction } from './database.ts';

const WRAPPED = Symbol('transactions with a before-commit step');

/**
 * `db` whose transactions run `beforeCommit` as their last statements when they wrote a table `watched`
 * names (a cheap test of each statement's text: most transactions, a token or a read, write none), and
 * `committed` once such a transaction has committed. What `beforeCommit` writes commits or rolls back with
 * the transaction. Used by webhooks (webhooks/emit.ts) to turn a transaction's changes into its events.
 * Wrapping an already wrapped database returns it unchanged.
 */
export function withBeforeCommit(
  db: Database,
  watched: RegExp,
  beforeCommit: (tx: Transaction) => Promise<unknown>,
  committed: () => void = () => {},
): Database {
  if ((db as unknown as Record<symbol, boolean>)[WRAPPED]) return db;
  const write = /^\s*(INSERT|UPDATE|DELETE|WITH)\b/i;
  const wrapped: Database & { [WRAPPED]: true } = {
    [WRAPPED]: true,
    get kind() {
      return db.kind;
    },
    query: (sql, params) => db.query(sql, params),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
      db
        .transaction(async (tx) => {
          let wrote = false;
          const result = await fn({
            query: (sql, params) => {
              if (!wrote && write.test(sql) && watched.test(sql)) wrote = true;
              return tx.query(sql, params);
            },
            exec: (sql) => {
              wrote = true;
              return tx.exec(sql);
            },
          });
          if (wrote) await beforeCommit(tx);
          return { result, wrote };
        })
        .then(({ result, wrote }) => {
          if (wrote) committed();
          return result;
        }),
    close: () => db.close(),
  };
  return wrapped;
}
