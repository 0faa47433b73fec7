import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { passwordHashLimiter } from '../src/crypto/passwords.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type FapiResponse } from './support/harness.ts';

// About hashing itself: argon2id at the production cost (the harness would lower it).
process.env.IDENTITY_TEST_PASSWORD_HASH_COST = 'production';

const settle = () => new Promise((resolve) => setImmediate(resolve));

forEachBackend('password hashing capacity', (backend) => {
  let h: Harness;
  before(async () => {
    // One argon2 at a time and two waiting; the wait is long so that only counts decide (no timing).
    h = await Harness.start(backend, {
      config: { passwordHashing: { concurrency: 1, maxWaiting: 2, maxWaitMs: 60_000 } },
    });
  });
  after(() => h.close());

  it('password sign-ins beyond the hashing slots and the queue are 429 (Retry-After: 1, nothing written); the queued ones succeed', async () => {
    const emails = [uniqueEmail('flood'), uniqueEmail('flood'), uniqueEmail('flood')];
    for (const email of emails) {
      const owner = h.browser();
      await signUp(h, owner, email);
    }
    // The one slot is busy (as with a long hash) until the test lets it go.
    let release!: () => void;
    const busy = passwordHashLimiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    await settle();
    const clientsBefore = await h.count('clients');
    const signInsBefore = await h.count('sign_ins');

    // Five browsers at once, each within every rate limit: two wait their turn, three are refused.
    const answers: FapiResponse[] = [];
    const flood = Array.from({ length: 5 }, (_, i) =>
      h
        .browser()
        .post('/client/sign_ins', { identifier: emails[i % 3]!, password: PASSWORD, strategy: 'password' })
        .then((res) => {
          answers.push(res);
          return res;
        }),
    );
    for (let turns = 0; answers.length < 3 || passwordHashLimiter.waiting < 2; turns++) {
      assert.ok(turns < 1_000_000, `${answers.length} answers, ${passwordHashLimiter.waiting} waiting`);
      await settle();
    }
    assert.equal(answers.length, 3, 'the queued ones are still waiting');
    for (const res of answers) {
      assert.equal(res.status, 429, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, 'too_many_requests');
      assert.equal(res.headers['retry-after'], '1');
      assert.equal(res.setCookies.size, 0, 'no client for a refused request');
    }
    assert.equal(await h.count('clients'), clientsBefore);
    assert.equal(await h.count('sign_ins'), signInsBefore);

    release();
    await busy;
    const all = await Promise.all(flood);
    const done = all.filter((res) => res.status === 200);
    assert.equal(done.length, 2);
    for (const res of done) assert.equal(res.body.response.status, 'complete');
    assert.equal(passwordHashLimiter.running, 0);
  });
});
