import type { Database, Transaction } from '../../src/db/database.ts';

/**
 * Runs `change` once, right before `db`'s next transaction starts (after a route's beforeTransaction):
 * what another request could change between a route's check outside the transaction and the transaction.
 */
export function beforeNextTransaction(db: Database, change: () => Promise<void>): void {
  const target = db as { transaction: Database['transaction'] };
  const original = db.transaction.bind(db);
  target.transaction = async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    target.transaction = original;
    await change();
    return original(fn);
  };
}
