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
