import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

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
    browser.post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' });

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
 * before them: exactly the limit's worth are answered "incorrect", every other one `user_locked`.
 */
forEachBackend('concurrent guesses against the lockout', (backend) => {
  const maxFailedAttempts = 3;
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, {
      config: {
        lockout: { maxFailedAttempts, durationSeconds: 600 },
        // No progressive delay before the lock: every guess is either counted or refused by the lock.
        attemptDelay: { freeAttempts: 100, maxDelaySeconds: 1 },
      },
    });
  });
  after(() => h.close());

  it('twelve wrong passwords at once: three counted, nine user_locked, the account locked', async () => {
    const email = uniqueEmail('guessed');
    await signUp(h, h.browser(), email);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        h
          .browser()
          .post('/client/sign_ins', { identifier: email, password: `wrong ${i}`, strategy: 'password' }),
      ),
    );
    const codes = answers.map((res) => `${res.status} ${res.body.errors?.[0]?.code}`).sort();
    assert.deepEqual(codes, [
      ...Array.from({ length: 12 - maxFailedAttempts }, () => '403 user_locked'),
      ...Array.from({ length: maxFailedAttempts }, () => '422 form_password_incorrect'),
    ]);
    const right = await h
      .browser()
      .post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' });
    assert.equal(right.status, 403);
    assert.equal(right.body.errors[0].code, 'user_locked');
  });

  it('a right password sent with a flood of wrong ones: it completes only while the account is not locked', async () => {
    const email = uniqueEmail('raced');
    await signUp(h, h.browser(), email);
    const attempt = (password: string) =>
      h.browser().post('/client/sign_ins', { identifier: email, password, strategy: 'password' });
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => attempt(`wrong ${i}`)),
      attempt(PASSWORD),
      ...Array.from({ length: 4 }, (_, i) => attempt(`wrong ${i + 4}`)),
    ]);
    const right = answers[4]!;
    const wrong = [...answers.slice(0, 4), ...answers.slice(5)];
    const incorrect = wrong.filter((res) => res.body.errors?.[0]?.code === 'form_password_incorrect').length;
    assert.ok(
      wrong.every((res) => ['form_password_incorrect', 'user_locked'].includes(res.body.errors?.[0]?.code)),
      JSON.stringify(wrong.map((res) => res.body)),
    );
    if (right.status === 200) {
      // The sign-in started the count over: at most the limit before it and the limit after it.
      assert.equal(right.body.response.status, 'complete');
      assert.ok(incorrect <= 2 * maxFailedAttempts, `${incorrect} answered incorrect`);
    } else {
      // Refused: only because the wrong ones had locked the account first.
      assert.equal(right.body.errors[0].code, 'user_locked', JSON.stringify(right.body));
      assert.equal(incorrect, maxFailedAttempts);
    }
  });
});
