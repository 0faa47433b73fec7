import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type FapiResponse } from './support/harness.ts';

// About hashing itself: argon2id at the production cost (the harness would lower it).
process.env.IDENTITY_TEST_PASSWORD_HASH_COST = 'production';

/**
 * Sends a sign-in until it is judged. A `429 too_many_requests` is no verdict: the password-hashing queue
 * was full, or the attempt raced others more times than the server retries, both before anything was
 * written, and a client tries again after `Retry-After`. How many come back so depends on the machine's
 * speed and load, never on what the attempt was: every attempt is sent again until it is judged, at the
 * same time as the others still waiting, so what is asserted on the verdicts holds on any machine.
 */
async function judged(send: () => Promise<FapiResponse>): Promise<FapiResponse> {
  for (let tries = 1; ; tries++) {
    const res = await send();
    if (res.status !== 429 || res.body.errors?.[0]?.code !== 'too_many_requests' || tries === 50) return res;
    const retryAfter = Number(res.headers['retry-after'] ?? 1);
    // Sooner than asked (the queue empties in milliseconds), with jitter so the retries do not march in step.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(retryAfter, 1) * (100 + Math.random() * 400)),
    );
  }
}

/**
 * One account signing in from several browsers at the same instant (a user's phone and laptop, or a
 * load test): every sign-in completes. Each transaction inserts a row that references the account (its
 * sign-in) before locking the account's row for the attempt; with `FOR UPDATE` that lock waited for the
 * other's reference and the two deadlocked (a 500 after PostgreSQL's deadlock timeout).
 */
forEachBackend('concurrent sign-ins of one account', (backend) => {
  let h: Harness;
  let email: string;
  before(async () => {
    h = await Harness.start(backend);
    email = uniqueEmail('concurrent');
    await signUp(h, h.browser(), email);
  });
  after(() => h.close());

  const signIn = (browser = h.browser()) =>
    judged(() =>
      browser.post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' }),
    );

  it('new browsers, all at once: each one signed in', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => signIn()));
    assert.deepEqual(
      answers.map((res) => [res.status, res.body.response?.status]),
      Array.from({ length: 8 }, () => [200, 'complete']),
    );
  });

  it('browsers the account knows (no per-identifier count), all at once: each one signed in', async () => {
    const browsers = Array.from({ length: 6 }, () => h.browser());
    for (const browser of browsers) {
      assert.equal((await signIn(browser)).status, 200);
      assert.equal((await browser.delete('/client/sessions')).status, 200);
    }
    const answers = await Promise.all(browsers.map((browser) => signIn(browser)));
    assert.deepEqual(
      answers.map((res) => [res.status, res.body.response?.status]),
      browsers.map(() => [200, 'complete']),
    );
  });
});

/**
 * Guesses at one account all at once, past its lockout: each attempt is decided on the lockout state as it
 * read it, without locking the account's row, and that state is confirmed by the statement that counts
 * its failure (abuse/account-attempts.ts). Concurrent guesses must still each see the failures counted
 * before them: exactly the limit's worth are answered "incorrect", every other one `user_locked`, nobody
 * signs in, and the account ends locked.
 *
 * Run with the default password-hashing capacity, and again with one hash at a time and one waiting, where
 * most of a burst is sent back with 429 on any machine: the verdicts must be the same either way, however
 * the attempts are staggered by the machine's speed (`judged` sends each again until it is judged).
 */
const CAPACITIES = [
  { name: 'default hashing capacity', passwordHashing: undefined },
  { name: 'one hash at a time', passwordHashing: { concurrency: 1, maxWaiting: 1, maxWaitMs: 2000 } },
];

for (const capacity of CAPACITIES) {
  forEachBackend(`concurrent guesses against the lockout, ${capacity.name}`, (backend) => {
    const maxFailedAttempts = 3;
    let h: Harness;
    before(async () => {
      h = await Harness.start(backend, {
        config: {
          lockout: { maxFailedAttempts, durationSeconds: 600 },
          // No progressive delay before the lock: every guess is either counted or refused by the lock.
          attemptDelay: { freeAttempts: 100, maxDelaySeconds: 1 },
          ...(capacity.passwordHashing ? { passwordHashing: capacity.passwordHashing } : {}),
        },
      });
    });
    after(() => h.close());

    const attempt = (email: string, password: string) =>
      judged(() =>
        h.browser().post('/client/sign_ins', { identifier: email, password, strategy: 'password' }),
      );
    const locked = async (userId: string) => {
      const [row] = await h.db.query<{ locked_until: Date | null; failed_verification_attempts: number }>(
        'SELECT locked_until, failed_verification_attempts FROM users WHERE id = $1',
        [userId],
      );
      return row!;
    };

    it('twelve wrong passwords at once: three counted, nine user_locked, nobody signed in, the account locked', async () => {
      const email = uniqueEmail('guessed');
      const { userId } = await signUp(h, h.browser(), email);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(email, `wrong ${i}`)));
      const codes = answers.map((res) => `${res.status} ${res.body.errors?.[0]?.code}`).sort();
      assert.deepEqual(codes, [
        ...Array.from({ length: 12 - maxFailedAttempts }, () => '403 user_locked'),
        ...Array.from({ length: maxFailedAttempts }, () => '422 form_password_incorrect'),
      ]);
      const account = await locked(userId);
      assert.ok(account.locked_until && account.locked_until > h.clock.now, 'the account is locked');
      assert.equal(account.failed_verification_attempts, maxFailedAttempts);
      assert.equal(await h.count('sessions', 'user_id = $1', [userId]), 1, 'only the sign-up’s session');
      const right = await attempt(email, PASSWORD);
      assert.equal(right.status, 403);
      assert.equal(right.body.errors[0].code, 'user_locked');
    });

    it('a right password sent with a flood of wrong ones: it completes only while the account is not locked', async () => {
      const email = uniqueEmail('raced');
      const { userId } = await signUp(h, h.browser(), email);
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => attempt(email, `wrong ${i}`)),
        attempt(email, PASSWORD),
        ...Array.from({ length: 4 }, (_, i) => attempt(email, `wrong ${i + 4}`)),
      ]);
      const right = answers[4]!;
      const wrong = [...answers.slice(0, 4), ...answers.slice(5)];
      const incorrect = wrong.filter(
        (res) => res.body.errors?.[0]?.code === 'form_password_incorrect',
      ).length;
      assert.ok(
        wrong.every((res) => ['form_password_incorrect', 'user_locked'].includes(res.body.errors?.[0]?.code)),
        JSON.stringify(wrong.map((res) => res.body)),
      );
      const sessions = await h.count('sessions', 'user_id = $1', [userId]);
      if (right.status === 200) {
        // The sign-in started the count over: at most the limit before it and the limit after it.
        assert.equal(right.body.response.status, 'complete');
        assert.ok(incorrect <= 2 * maxFailedAttempts, `${incorrect} answered incorrect`);
        assert.equal(sessions, 2, 'the sign-up’s session and the right password’s');
      } else {
        // Refused: only because the wrong ones had locked the account first.
        assert.equal(right.body.errors[0].code, 'user_locked', JSON.stringify(right.body));
        assert.equal(incorrect, maxFailedAttempts);
        assert.equal(sessions, 1, 'nobody signed in');
        assert.ok((await locked(userId)).locked_until, 'the account is locked');
      }
    });
  });
}
