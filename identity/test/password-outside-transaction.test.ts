import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { hashPassword, passwordHashLimiter } from '../src/crypto/passwords.ts';
import { forEachBackend } from './support/backends.ts';
import { beforeNextTransaction } from './support/transaction-hooks.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type FapiResponse } from './support/harness.ts';

// About hashing itself: argon2id at the production cost (the harness would lower it).
process.env.IDENTITY_TEST_PASSWORD_HASH_COST = 'production';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Argon2 runs with no transaction open (issue #13): a sign-in waiting for its hash holds no connection, so
 * on PGlite, whose one connection every request shares, the others go on meanwhile. The hash is the real
 * one through the real limiter; the limiter's one slot is kept busy by the test, so "during the hash" lasts
 * as long as the test needs, without any timing.
 */
forEachBackend('password checks outside the transaction', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, {
      config: { passwordHashing: { concurrency: 1, maxWaiting: 8, maxWaitMs: 60_000 } },
    });
  });
  after(() => h.close());

  /** Keeps the limiter's only slot until the returned function is called. */
  async function occupyHashing(): Promise<() => Promise<void>> {
    let release!: () => void;
    const busy = passwordHashLimiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    await settle();
    return async () => {
      release();
      await busy;
    };
  }

  /** Settles until `n` hashes wait for the slot (the request has reached its hash). */
  async function untilWaiting(n: number, pending: Promise<unknown>[]): Promise<void> {
    let answered = false;
    void Promise.race(pending).then(() => (answered = true));
    for (let turns = 0; passwordHashLimiter.waiting < n; turns++) {
      assert.ok(!answered, 'a request answered before reaching its hash');
      assert.ok(turns < 1_000_000, `${passwordHashLimiter.waiting} waiting`);
      await settle();
    }
  }

  /** Another browser's requests, each a transaction of its own, answered while the hash waits. */
  async function othersAnswered(): Promise<void> {
    const other = h.browser();
    const client = await other.get('/client');
    assert.equal(client.status, 200, JSON.stringify(client.body));
    const started = await other.post('/client/sign_ins', { identifier: uniqueEmail('nobody-yet') });
    assert.equal(started.status, 422, JSON.stringify(started.body));
    assert.equal(started.body.errors[0].code, 'form_identifier_not_found');
  }

  // Were the hash inside the transaction, the other requests would wait for it forever on PGlite (the slot
  // is released only after them): the timeout turns that hang into a failure; it measures nothing.
  const HANG = { timeout: 120_000 };

  it('a password sign-in waiting for argon2 blocks no other request', HANG, async () => {
    const email = uniqueEmail('outside');
    await signUp(h, h.browser(), email);
    const release = await occupyHashing();
    const signIn = h
      .browser()
      .post('/client/sign_ins', { strategy: 'password', identifier: email, password: PASSWORD });
    await untilWaiting(1, [signIn]);
    await othersAnswered();
    assert.equal(passwordHashLimiter.waiting, 1, 'the sign-in is still waiting for its hash');
    await release();
    const res = await signIn;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'complete');
  });

  it(
    'a check the handler asks for (a known browser during a delay) is made outside too, and blocks nothing',
    HANG,
    async () => {
      const email = uniqueEmail('known');
      const owner = h.browser();
      await signUp(h, owner, email);
      assert.equal((await owner.delete('/client/sessions')).status, 200);
      // Others' wrong guesses put the account in its progressive delay: the check before the transaction is
      // skipped, and only inside does the owner's browser turn out to be one that may go through.
      for (let i = 0; i < h.config.attemptDelay.freeAttempts; i++) {
        const res = await h.browser().post('/client/sign_ins', { identifier: email, password: `wrong ${i}` });
        assert.equal(res.status, 422, JSON.stringify(res.body));
      }
      const release = await occupyHashing();
      const signIn = owner.post('/client/sign_ins', {
        strategy: 'password',
        identifier: email,
        password: PASSWORD,
      });
      await untilWaiting(1, [signIn]);
      await othersAnswered();
      await release();
      const res = await signIn;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.status, 'complete');
    },
  );

  it('a stranger during the delay is refused without any hash', async () => {
    const email = uniqueEmail('delayed');
    await signUp(h, h.browser(), email);
    for (let i = 0; i < h.config.attemptDelay.freeAttempts; i++) {
      await h.browser().post('/client/sign_ins', { identifier: email, password: `wrong ${i}` });
    }
    const release = await occupyHashing();
    try {
      const res = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
      assert.equal(res.status, 429, JSON.stringify(res.body));
      assert.equal(passwordHashLimiter.waiting, 0, 'nothing was hashed');
    } finally {
      await release();
    }
  });

  it('parallel wrong guesses are each counted: past the free attempts the rest wait, uncounted', async () => {
    const email = uniqueEmail('parallel');
    const { userId } = await signUp(h, h.browser(), email);
    const free = h.config.attemptDelay.freeAttempts;
    const guesses = free + 3;
    // All of them hash before any is judged: the verdicts meet the account's row lock in the transaction.
    const answers: FapiResponse[] = await Promise.all(
      Array.from({ length: guesses }, (_, i) =>
        h
          .browser()
          .post('/client/sign_ins', { strategy: 'password', identifier: email, password: `wrong ${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(
      statuses,
      [...Array(free).fill(422), ...Array(guesses - free).fill(429)],
      JSON.stringify(statuses),
    );
    const [row] = await h.db.query<{ failed_verification_attempts: number }>(
      'SELECT failed_verification_attempts FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(row!.failed_verification_attempts, free);
  });

  it('the password changed between the check and the transaction: checked again outside, and a wrong one counted', async () => {
    const email = uniqueEmail('changed');
    const { userId } = await signUp(h, h.browser(), email);
    const replaced = await hashPassword('replaced password 3');
    const change = () =>
      h.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, replaced]).then(() => {});

    beforeNextTransaction(h.db, change);
    const old = await h
      .browser()
      .post('/client/sign_ins', { strategy: 'password', identifier: email, password: PASSWORD });
    assert.equal(old.status, 422, JSON.stringify(old.body));
    assert.equal(old.body.errors[0].code, 'form_password_incorrect');
    const [row] = await h.db.query<{ failed_verification_attempts: number }>(
      'SELECT failed_verification_attempts FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(row!.failed_verification_attempts, 1);

    const fresh = await h
      .browser()
      .post('/client/sign_ins', { strategy: 'password', identifier: email, password: 'replaced password 3' });
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal(fresh.body.response.status, 'complete');
  });
});
