import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { assertError } from './support/organizations.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

forEachBackend('the account in <UserProfile/>: PATCH /me, remove_password, DELETE /me', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  async function member() {
    const email = uniqueEmail('acct');
    const browser = h.browser();
    return { email, browser, ...(await signUp(h, browser, email)) };
  }

  it('PATCH /me changes only the names it is sent; names are at most 256 characters', async () => {
    const { browser } = await member();
    const first = await browser.patch('/me', { first_name: 'Ada', last_name: 'Lovelace' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.response.first_name, 'Ada');
    const last = await browser.patch('/me', { last_name: 'Byron' });
    assert.equal(last.body.response.first_name, 'Ada', 'untouched');
    assert.equal(last.body.response.last_name, 'Byron');
    assert.equal((await browser.patch('/me', { first_name: 'é'.repeat(256) })).status, 200);
    assertError(
      await browser.patch('/me', { first_name: 'é'.repeat(257) }),
      422,
      'form_param_max_length_exceeded',
      'first_name',
    );
  });

  it('PATCH /me replaces unsafe_metadata with the JSON object sent', async () => {
    const { browser } = await member();
    await browser.patch('/me', { unsafe_metadata: '{"theme":"dark","n":1}' });
    const res = await browser.patch('/me', { unsafe_metadata: '{"theme":"light"}' });
    assert.deepEqual(res.body.response.unsafe_metadata, { theme: 'light' });
    assertError(
      await browser.patch('/me', { unsafe_metadata: '[1]' }),
      422,
      'form_param_format_invalid',
      'unsafe_metadata',
    );
  });

  it('primary_email_address_id must name a verified address of this user', async () => {
    const { browser } = await member();
    const other = await member();
    const otherEmailId = other.client.sessions[0].user.primary_email_address_id;
    assertError(
      await browser.patch('/me', { primary_email_address_id: otherEmailId }),
      422,
      'form_param_value_invalid',
      'primary_email_address_id',
    );
    const added = await browser.post('/me/email_addresses', { email_address: uniqueEmail('second') });
    assertError(
      await browser.patch('/me', { primary_email_address_id: added.body.response.id }),
      422,
      'form_param_value_invalid',
      'primary_email_address_id',
    );
  });

  it('remove_password needs the current password; afterwards the email code still signs in', async () => {
    const { browser, email, userId } = await member();
    assertError(await browser.post('/me/remove_password', {}), 422, 'form_param_nil', 'current_password');
    assertError(
      await browser.post('/me/remove_password', { current_password: 'not it' }),
      422,
      'form_password_incorrect',
      'current_password',
    );
    const [counted] = await h.db.query<{ n: number }>(
      'SELECT failed_verification_attempts AS n FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(counted!.n, 1, 'a wrong password counts towards the lockout');

    const removed = await browser.post('/me/remove_password', { current_password: PASSWORD });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.response.password_enabled, false);
    assertError(
      await browser.post('/me/remove_password', { current_password: PASSWORD }),
      422,
      'form_param_value_invalid',
    );

    const other = h.browser();
    const signIn = await other.post('/client/sign_ins', { identifier: email });
    const strategies = signIn.body.response.supported_first_factors.map(
      (f: { strategy: string }) => f.strategy,
    );
    assert.ok(!strategies.includes('password'));
    assert.ok(strategies.includes('email_code'));
    const id = signIn.body.response.id;
    await other.post(`/client/sign_ins/${id}/prepare_first_factor`, { strategy: 'email_code' });
    const done = await other.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'email_code',
      code: await h.latestCode(email),
    });
    assert.equal(done.body.response.status, 'complete', JSON.stringify(done.body));
  });

  it('DELETE /me removes the user, their sessions and addresses, and signs this browser out', async () => {
    const { browser, userId, email } = await member();
    const res = await browser.delete('/me');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.response, { object: 'user', id: userId, deleted: true });
    assert.deepEqual(res.body.client.sessions, []);
    assert.equal(await h.count('users', 'id = $1', [userId]), 0);
    assert.equal(await h.count('email_addresses', 'lower(email_address) = lower($1)', [email]), 0);
  });

  it('another browser of a deleted user is signed out too', async () => {
    const { browser, email } = await member();
    const other = h.browser();
    const { sessionId } = await signInWithPassword(other, email);
    assert.equal((await browser.delete('/me')).status, 200);
    assertError(
      await other.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' }),
      404,
      'resource_not_found',
    );
  });
});

forEachBackend('an instance without self-service deletion', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { deleteSelfEnabled: false } });
  });
  after(() => h.close());

  describe('delete_self_enabled off', () => {
    it('the environment and the user say so, and DELETE /me is 403 not_allowed_access', async () => {
      const browser = h.browser();
      const { userId, client } = await signUp(h, browser, uniqueEmail('keep'));
      assert.equal((await browser.get('/environment')).body.user_settings.actions.delete_self, false);
      assert.equal(client.sessions[0].user.delete_self_enabled, false);
      assertError(await browser.delete('/me'), 403, 'not_allowed_access');
      assert.equal(await h.count('users', 'id = $1', [userId]), 1);
    });
  });
});
