import type { Prepared } from './prepared-work.ts';

/**
 * Thrown by a handler that needs slow work (argon2) its route's `beforeTransaction` did not do, or did
 * for other inputs (the stored hash changed since it was read, a path it skips such as a known browser
 * during a lock). The plugin rolls the transaction back, releasing the connection (PGlite's only one),
 * does `work` with none held, adds its result to `ctx.prepared`, and runs the handler again in a new
 * transaction that reads everything afresh. Only database writes may precede the throw: they roll back;
 * mail, SMS or memory would not.
 */
export class WorkOutsideTransaction extends Error {
  constructor(readonly work: () => Promise<Prepared>) {
    super('This request needs work done outside its transaction; it is run again after it.');
    this.name = 'WorkOutsideTransaction';
  }
}

/**
 * How many times a request may ask: each retry follows a change that landed between its read and its
 * transaction (a password changed twice within a hash's time); past that it is answered
 * `429 too_many_requests` (Retry-After: 1) rather than hashing inside a transaction.
 */
export const MAX_WORK_OUTSIDE_TRANSACTION = 3;
