import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';

const LOCKOUT = { maxFailedAttempts: 3, durationSeconds: 600 };

forEachBackend('account lockout', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { lockout: LOCKOUT } });
  });
  after(() => h.close());

  let api: ClerkClient | null = null;
  async function clerk(): Promise<ClerkClient> {
    api ??= await backendApiClient(h);
    return api;
  }

  async function newUser(): Promise<{ email: string; userId: string }> {
    const email = uniqueEmail('locked');
    const { userId } = await signUp(h, h.browser(), email);
    return { email, userId };
  }

  async function identify(browser: Browser, email: string): Promise<string> {
    const res = await browser.post('/client/sign_ins', { identifier: email });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.response.id;
  }

  const password = (browser: Browser, id: string, value: string) =>
    browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: 'password', password: value });

  function assertLocked(res: FapiResponse, seconds: number) {
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'user_locked');
    assert.equal(res.body.errors[0].meta.lockout_expires_in_seconds, seconds);
  }

  it('three wrong passwords lock the account: 403 user_locked even with the right password, until the lock runs out', async () => {
    const { email } = await newUser();
    const browser = h.browser();
    const id = await identify(browser, email);
    for (let i = 1; i <= 3; i++) {
      const res = await password(browser, id, `wrong ${i}`);
      assert.equal(res.status, 422, `attempt ${i}`);
      assert.equal(res.body.errors[0].code, 'form_password_incorrect');
    }
    assertLocked(await password(browser, id, PASSWORD), 600);
    assertLocked(await h.browser().post('/client/sign_ins', { identifier: email }), 600);
    assertLocked(
      await h
        .browser()
        .post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' }),
      600,
    );

    h.clock.advance(200);
    assertLocked(await password(browser, id, PASSWORD), 400);

    h.clock.advance(401);
    const ok = await password(browser, id, PASSWORD);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.response.status, 'complete');
  });

  it('wrong email codes count towards the lockout too', async () => {
    const { email } = await newUser();
    const browser = h.browser();
    const res = await browser.post('/client/sign_ins', { identifier: email, strategy: 'email_code' });
    assert.equal(res.status, 200);
    const id = res.body.response.id;
    const code = await h.latestCode(email);
    const bad = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 3; i++) {
      const attempt = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
        strategy: 'email_code',
        code: bad,
      });
      assert.equal(attempt.status, 422);
      assert.equal(attempt.body.errors[0].code, 'form_code_incorrect');
    }
    assertLocked(
      await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: 'email_code', code }),
      600,
    );
  });

  it('an expired lock starts a fresh count: one more wrong password does not lock again', async () => {
    const { email } = await newUser();
    const browser = h.browser();
    const id = await identify(browser, email);
    for (let i = 1; i <= 3; i++) await password(browser, id, 'wrong');
    h.clock.advance(601);
    const res = await password(browser, id, 'wrong again');
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].code, 'form_password_incorrect');
    assert.equal((await password(browser, id, PASSWORD)).status, 200);
  });

  it('a successful sign-in resets the failure count', async () => {
    const { email, userId } = await newUser();
    const first = h.browser();
    const id = await identify(first, email);
    await password(first, id, 'wrong');
    await password(first, id, 'wrong');
    assert.equal((await password(first, id, PASSWORD)).status, 200);
    const [row] = await h.db.query<{ failed_verification_attempts: number }>(
      'SELECT failed_verification_attempts FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(row!.failed_verification_attempts, 0);

    const second = h.browser();
    const id2 = await identify(second, email);
    await password(second, id2, 'wrong');
    await password(second, id2, 'wrong');
    assert.equal((await password(second, id2, PASSWORD)).status, 200);
  });

  it('an operator unlocks a locked user through the Backend API (users.unlockUser): the password works at once', async () => {
    const { email, userId } = await newUser();
    const browser = h.browser();
    const id = await identify(browser, email);
    for (let i = 1; i <= 3; i++) await password(browser, id, 'wrong');
    assertLocked(await password(browser, id, PASSWORD), 600);

    const unlocked = await (await clerk()).users.unlockUser(userId);
    assert.equal(unlocked.id, userId);
    assert.equal(unlocked.locked, false);
    const ok = await password(browser, id, PASSWORD);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.response.status, 'complete');
    // The failures were cleared too: two more wrong passwords do not lock again.
    const other = h.browser();
    const id2 = await identify(other, email);
    await password(other, id2, 'wrong');
    await password(other, id2, 'wrong');
    assert.equal((await password(other, id2, PASSWORD)).status, 200);
  });

  it('an operator locks a user through the Backend API (users.lockUser) for the lockout duration', async () => {
    const { email, userId } = await newUser();
    const locked = await (await clerk()).users.lockUser(userId);
    assert.equal(locked.locked, true);
    // @clerk/backend's User carries `locked` only; the raw Backend API user has the time left.
    assert.equal((await h.bapi(`/v1/users/${userId}`)).json().lockout_expires_in_seconds, 600);
    assertLocked(await h.browser().post('/client/sign_ins', { identifier: email }), 600);
    h.clock.advance(601);
    assert.equal((await h.browser().post('/client/sign_ins', { identifier: email })).status, 200);
  });

  it('locking or unlocking an unknown user is 404', async () => {
    const api = await clerk();
    await rejectsWith(api.users.lockUser('user_nobody'), 404, 'resource_not_found');
    await rejectsWith(api.users.unlockUser('user_nobody'), 404, 'resource_not_found');
  });

  it('the Backend API user reports the lock by the instance clock', async () => {
    const { email, userId } = await newUser();
    const browser = h.browser();
    const id = await identify(browser, email);
    for (let i = 1; i <= 3; i++) await password(browser, id, 'wrong');
    const locked = (await h.bapi(`/v1/users/${userId}`)).json();
    assert.equal(locked.locked, true);
    assert.equal(locked.lockout_expires_in_seconds, 600);
    h.clock.advance(601);
    const unlocked = (await h.bapi(`/v1/users/${userId}`)).json();
    assert.equal(unlocked.locked, false);
  });
});
