import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { identityConfigFromEnv } from '../src/config.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type FapiResponse } from './support/harness.ts';

function assertLimited(res: FapiResponse, maxWait = 60) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'too_many_requests');
  const retryAfter = res.headers['retry-after'];
  assert.match(String(retryAfter), /^\d+$/);
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= maxWait, `retry-after ${retryAfter}`);
}

forEachBackend('rate limits', (backend) => {
  let h: Harness;
  let email: string;
  before(async () => {
    h = await Harness.start(backend, {
      config: {
        rateLimits: {
          signInPerIdentifierPerMinute: 3,
          signInPerIpPerMinute: 5,
          codeAttemptsPerIpPerMinute: 3,
        },
      },
    });
    email = uniqueEmail('limited');
    await signUp(h, h.browser(), email);
  });
  after(() => h.close());

  it('the 4th sign-in for one identifier within a minute is 429 with retry-after, shared by every instance', async () => {
    // Different browsers (IPs) and letter case: the limit follows the identifier.
    for (const identifier of [email, email.toUpperCase(), email]) {
      const res = await h.browser().post('/client/sign_ins', { identifier });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const signInsBefore = await h.count('sign_ins');
    const fourth = await h
      .browser()
      .post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' });
    assertLimited(fourth);
    assert.equal(fourth.headers['retry-after'], '60', 'the window opened at this very clock instant');
    // clerk-js shows long_message as it is (no localised text for this code).
    assert.equal(fourth.body.errors[0].long_message, 'Too many requests. Please try again in 60 seconds.');
    assert.equal(await h.count('sign_ins'), signInsBefore, 'a limited request does nothing');

    // A second server on the same database sees the same counter.
    const twin = await h.twin();
    try {
      assertLimited(await twin.browser().post('/client/sign_ins', { identifier: email }));
      h.clock.advance(45);
      const later = await twin.browser().post('/client/sign_ins', { identifier: email });
      assertLimited(later);
      assert.equal(later.headers['retry-after'], '15');
      h.clock.advance(16);
      assert.equal((await twin.browser().post('/client/sign_ins', { identifier: email })).status, 200);
    } finally {
      await twin.close();
    }
    assert.equal((await h.browser().post('/client/sign_ins', { identifier: email })).status, 200);
  });

  it('the 6th sign-in attempt from one IP within a minute is 429, whatever the identifiers', async () => {
    h.clock.advance(61);
    const browser = h.browser();
    for (let i = 0; i < 5; i++) {
      const res = await browser.post('/client/sign_ins', { identifier: uniqueEmail('nobody') });
      assert.equal(res.status, 422);
      assert.equal(res.body.errors[0].code, 'form_identifier_not_found');
    }
    assertLimited(await browser.post('/client/sign_ins', { identifier: uniqueEmail('nobody') }));
    assert.equal(
      (await h.browser().post('/client/sign_ins', { identifier: uniqueEmail('nobody') })).status,
      422,
      'other IPs are unaffected',
    );
  });

  it("the identifier's limit, filled by others, does not hold back a browser that signed in to the account before", async () => {
    h.clock.advance(61);
    const owner = h.browser();
    const address = uniqueEmail('owner');
    await signUp(h, owner, address);
    assert.equal((await owner.delete('/client/sessions')).status, 200);
    for (let i = 0; i < 3; i++) {
      assert.equal((await h.browser().post('/client/sign_ins', { identifier: address })).status, 200);
    }
    assertLimited(await h.browser().post('/client/sign_ins', { identifier: address }));
    const own = await owner.post('/client/sign_ins', {
      identifier: address,
      password: PASSWORD,
      strategy: 'password',
    });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.response.status, 'complete');
    assertLimited(await h.browser().post('/client/sign_ins', { identifier: address }));
  });

  it('code attempts per IP are limited', async () => {
    h.clock.advance(61);
    const browser = h.browser();
    const address = uniqueEmail();
    const created = await browser.post('/client/sign_ups', { email_address: address, password: PASSWORD });
    const id = created.body.response.id;
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
    const code = await h.latestCode(address);
    const bad = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) {
      const res = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'email_code',
        code: bad,
      });
      assert.equal(res.status, 422);
    }
    assertLimited(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, { strategy: 'email_code', code }),
    );
    const [row] = await h.db.query<{ attempts: number }>(
      `SELECT attempts FROM verification_codes WHERE subject LIKE $1 ORDER BY created_at DESC LIMIT 1`,
      [`sign_up:${id}:%`],
    );
    assert.equal(row!.attempts, 3, 'the limited attempt was not checked');
  });

  it('resending a sign-up code is limited to 5 a minute', async () => {
    h.clock.advance(61);
    const browser = h.browser();
    const address = uniqueEmail();
    const created = await browser.post('/client/sign_ups', { email_address: address, password: PASSWORD });
    const id = created.body.response.id;
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' }))
          .status,
        200,
      );
    }
    assertLimited(
      await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' }),
    );
    assert.equal((await h.mail(address)).length, 5);
  });
});

describe('rate limit and lockout settings', () => {
  it('come from IDENTITY_RATE_LIMIT_* and IDENTITY_LOCKOUT_*, with Clerk-like defaults', () => {
    const defaults = identityConfigFromEnv({});
    assert.deepEqual(defaults.rateLimits, {
      signInPerIpPerMinute: 60,
      signInPerIdentifierPerMinute: 20,
      codeAttemptsPerIpPerMinute: 30,
    });
    assert.deepEqual(defaults.lockout, { maxFailedAttempts: 100, durationSeconds: 3600 });
    assert.deepEqual(defaults.attemptDelay, { freeAttempts: 5, maxDelaySeconds: 600 });
    assert.deepEqual(defaults.passwordHashing, { concurrency: 2, maxWaiting: 16, maxWaitMs: 2000 });
    const small = identityConfigFromEnv({
      IDENTITY_RATE_LIMIT_SIGN_IN_PER_IP: '5',
      IDENTITY_RATE_LIMIT_SIGN_IN_PER_IDENTIFIER: '2',
      IDENTITY_RATE_LIMIT_CODE_ATTEMPTS_PER_IP: '3',
      IDENTITY_LOCKOUT_MAX_ATTEMPTS: '4',
      IDENTITY_LOCKOUT_DURATION_SECONDS: '90',
      IDENTITY_LOCKOUT_FREE_ATTEMPTS: '2',
      IDENTITY_LOCKOUT_MAX_DELAY_SECONDS: '30',
      IDENTITY_PASSWORD_HASH_CONCURRENCY: '3',
      IDENTITY_PASSWORD_HASH_QUEUE: '5',
    });
    assert.deepEqual(small.rateLimits, {
      signInPerIpPerMinute: 5,
      signInPerIdentifierPerMinute: 2,
      codeAttemptsPerIpPerMinute: 3,
    });
    assert.deepEqual(small.lockout, { maxFailedAttempts: 4, durationSeconds: 90 });
    assert.deepEqual(small.attemptDelay, { freeAttempts: 2, maxDelaySeconds: 30 });
    assert.deepEqual(small.passwordHashing, { concurrency: 3, maxWaiting: 5, maxWaitMs: 2000 });
    // Half the thread pool when only its size is given.
    assert.equal(identityConfigFromEnv({ UV_THREADPOOL_SIZE: '8' }).passwordHashing.concurrency, 4);
  });

  it('refuse to start on a value that is not a positive whole number', () => {
    for (const [name, value] of [
      ['IDENTITY_RATE_LIMIT_SIGN_IN_PER_IP', '0'],
      ['IDENTITY_RATE_LIMIT_SIGN_IN_PER_IDENTIFIER', 'ten'],
      ['IDENTITY_LOCKOUT_MAX_ATTEMPTS', '2.5'],
      ['IDENTITY_LOCKOUT_DURATION_SECONDS', '-1'],
      ['IDENTITY_LOCKOUT_FREE_ATTEMPTS', '0'],
      ['IDENTITY_LOCKOUT_MAX_DELAY_SECONDS', 'soon'],
      ['IDENTITY_PASSWORD_HASH_CONCURRENCY', '0'],
      ['IDENTITY_PASSWORD_HASH_QUEUE', '1.5'],
    ] as const) {
      assert.throws(() => identityConfigFromEnv({ [name]: value }), new RegExp(name));
    }
  });
});
