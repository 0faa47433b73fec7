import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail, type Browser } from './support/harness.ts';

/** `signUps.get` and `signUps.update` of @clerk/backend 2.10.1 (docs/backend-api.md). */

const OTHER_SECRET_KEY = 'sk_live_otherinstancekey000000000000000000000';

forEachBackend('Backend API sign-ups through @clerk/backend 2.10.1', (backend) => {
  let h: Harness;
  let other: Harness;
  let clerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    other = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    clerk = await backendApiClient(h);
  });
  after(async () => {
    await other.close();
    await h.close();
  });

  const start = async (browser: Browser, email: string) => {
    const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.response.id as string;
  };
  const finish = async (browser: Browser, id: string, email: string) => {
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
    const done = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'email_code',
      code: await h.latestCode(email),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    return done.body.response;
  };

  it('get answers Clerk’s SignUpAttempt of a sign-up under way', async () => {
    const email = uniqueEmail('sua');
    const id = await start(h.browser(), email);
    const attempt = await clerk.signUps.get(id);
    assert.equal(attempt.id, id);
    assert.equal(attempt.status, 'missing_requirements');
    assert.equal(attempt.emailAddress, email);
    assert.equal(attempt.passwordEnabled, true);
    assert.deepEqual(attempt.unverifiedFields, ['email_address']);
    assert.equal(attempt.externalId, null);
    assert.equal(attempt.customAction, false);
    const raw = await h.bapi(`/v1/sign_ups/${id}`);
    assert.equal(raw.json().object, 'sign_up_attempt');
    assert.equal(raw.json().password_enabled, true);
    await rejectsWith(clerk.signUps.get('sua_doesnotexist'), 404, 'resource_not_found');
  });

  it('update sets external_id and custom_action; the user made from it gets the external id', async () => {
    const email = uniqueEmail('sua-ext');
    const browser = h.browser();
    const id = await start(browser, email);
    const externalId = `ext-${Date.now()}`;
    const updated = await clerk.signUps.update({ signUpAttemptId: id, externalId, customAction: true });
    assert.equal(updated.externalId, externalId);
    assert.equal(updated.customAction, true);
    assert.equal((await clerk.signUps.get(id)).externalId, externalId);
    const done = await finish(browser, id, email);
    assert.equal(done.status, 'complete');
    const user = await clerk.users.getUser(done.created_user_id);
    assert.equal(user.externalId, externalId);
    // Completed: it changes no more.
    await rejectsWith(
      clerk.signUps.update({ signUpAttemptId: id, customAction: false }),
      422,
      'sign_up_no_longer_actionable',
    );
    // An external id a user already has is refused, and nothing changes.
    const next = await start(h.browser(), uniqueEmail('sua-taken'));
    await rejectsWith(
      clerk.signUps.update({ signUpAttemptId: next, externalId }),
      422,
      'form_param_value_invalid',
      'external_id',
    );
    assert.equal((await clerk.signUps.get(next)).externalId, null);
  });

  it('bad input and another instance’s sign-ups: refused, nothing changed', async () => {
    const id = await start(h.browser(), uniqueEmail('sua-bad'));
    const patch = (payload: unknown, key = h.identity.secretKey, app = h.app) =>
      app.inject({
        method: 'PATCH',
        url: `${BAPI}/v1/sign_ups/${id}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    for (const [payload, param] of [
      [{ external_id: 42 }, 'external_id'],
      [{ custom_action: 'yes' }, 'custom_action'],
      [{ external_id: '' }, 'external_id'],
      [{ external_id: 'x'.repeat(256) }, 'external_id'],
    ] as const) {
      const res = await patch(payload);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().errors[0].meta.param_name, param, res.body);
    }
    assert.equal((await patch({ custom_action: true }, OTHER_SECRET_KEY)).statusCode, 401);
    const foreign = await patch({ custom_action: true }, OTHER_SECRET_KEY, other.app);
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().errors[0].code, 'resource_not_found');
    const foreignGet = await other.bapi(`/v1/sign_ups/${id}`, OTHER_SECRET_KEY);
    assert.equal(foreignGet.statusCode, 404);
    const attempt = await clerk.signUps.get(id);
    assert.equal(attempt.customAction, false);
    assert.equal(attempt.externalId, null);
  });

  it('a completed sign-up still reads, with the user and session it made', async () => {
    const email = uniqueEmail('sua-done');
    const signedIn = await signUp(h, h.browser(), email);
    const [row] = await h.db.query<{ id: string }>('SELECT id FROM sign_ups WHERE created_user_id = $1', [
      signedIn.userId,
    ]);
    const attempt = await clerk.signUps.get(row!.id);
    assert.equal(attempt.status, 'complete');
    assert.equal(attempt.createdUserId, signedIn.userId);
    assert.ok(attempt.createdSessionId);
  });
});
