import type { Queryable } from '../db/database.ts';
import { lockoutStateIs, recordSignIn, type LockoutState, type SignInColumns } from '../store/users.ts';
import type { Owner } from '../users/load-users.ts';

/**
 * The account's lockout state moved between the read an attempt was decided on and the statement that
 * confirms it (a concurrent failure was counted, an operator locked it): the request runs again from the
 * start (fapi/plugin.ts) and decides afresh.
 */
export class AttemptRaced extends Error {
  constructor() {
    super("The account's lockout state changed while an attempt on it was decided; it is run again.");
    this.name = 'AttemptRaced';
  }
}

/** How many times a request runs again for that before it is answered `429 too_many_requests`. */
export const MAX_ATTEMPT_RACES = 5;

/**
 * The attempts on accounts (a password or code checked, a session opened) of one request's transaction.
 *
 * An attempt takes no lock on the account's row: sixteen sign-ins of one account would then each wait for
 * the whole transaction of the one before. It is decided on the lockout state as read, whenever that was
 * (`decidedOn`: the user row the request already has, or a read of its own), and
 * that state is confirmed by the statement that writes the outcome: a failure counted only while the
 * account is still in it (attempt-gate.ts), a sign-in recorded only so, as the transaction's last
 * statements (`settle`), and an attempt that writes neither checks it there. Concurrent guesses therefore
 * each see the failures counted before them, and a right guess never gets through a lock that a
 * concurrent wrong one set; the row is locked only from that statement to the commit.
 */
export class AccountAttempts {
  private readonly decided = new Map<string, LockoutState>();
  private readonly signIns = new Map<string, string>();
  private readonly recorded = new Map<string, SignInColumns>();

  constructor(private readonly attemptDelay: { freeAttempts: number; maxDelaySeconds: number }) {}

  /** An attempt on `userId` was decided on its lockout columns as `state` has them. */
  decidedOn(userId: string, state: LockoutState): void {
    this.decided.set(userId, state);
  }

  /** The state an attempt on `userId` was decided on, if one was. */
  stateOf(userId: string): LockoutState | undefined {
    return this.decided.get(userId);
  }

  /** The attempt's outcome was written with its state confirmed (a failure counted): nothing left to check. */
  confirmed(userId: string): void {
    this.decided.delete(userId);
  }

  /** A session of `userId` opened on `clientId`: the sign-in is recorded by `settle`. */
  signedIn(userId: string, clientId: string): void {
    this.signIns.set(userId, clientId);
  }

  /** The transaction's last writes to accounts; `AttemptRaced` when a state decided on has moved. */
  async settle(tx: Queryable, now: Date): Promise<void> {
    for (const [userId, clientId] of this.signIns) {
      const written = await recordSignIn(tx, userId, now, {
        clientId,
        attemptDelay: this.attemptDelay,
        lockout: this.decided.get(userId),
      });
      if (!written) throw new AttemptRaced();
      this.recorded.set(userId, written);
      this.decided.delete(userId);
    }
    for (const [userId, state] of this.decided) {
      if (!(await lockoutStateIs(tx, userId, state))) throw new AttemptRaced();
    }
  }

  /**
   * Users the handler loaded before `settle` recorded their sign-in (its answer's `owners`), as the
   * recording left them, so that the client's JSON can still reuse them instead of reading them again.
   */
  asSettled(owners: Map<string, Owner> | undefined): Map<string, Owner> | undefined {
    if (!owners || this.recorded.size === 0) return owners;
    const settled = new Map(owners);
    for (const [userId, written] of this.recorded) {
      const owner = owners.get(userId);
      if (owner) settled.set(userId, { ...owner, user: { ...owner.user, ...written } });
    }
    return settled;
  }
}
