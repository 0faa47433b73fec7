import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type Json } from './support/harness.ts';

/**
 * Several accounts on one browser, each session starting on the choose-organization task. A pending
 * session is not signed in for clerk-js (`isSignedIn` false) nor for @clerk/backend: signing in again as
 * its user goes on to the password (Clerk's session-tasks-multi-session integration test), where an
 * active session still answers `identifier_already_signed_in`.
 */
forEachBackend('signing in again beside a pending session', (backend) => {
  let h: Harness;
  const ada = uniqueEmail('pending-ada');
  const bob = uniqueEmail('pending-bob');
  before(async () => {
    h = await Harness.start(backend, { config: { multiSession: true, forceOrganizationSelection: true } });
    for (const email of [ada, bob]) await signUp(h, h.browser(), email);
  });
  after(() => h.close());

  const sessionsOf = async (browser: Browser): Promise<Json[]> =>
    (await browser.get('/client')).body.response.sessions;

  it('an account whose session is pending gets its password step, and the new session replaces the pending one', async () => {
    const browser = h.browser();
    const first = await signInWithPassword(browser, ada);
    await signInWithPassword(browser, bob);
    assert.deepEqual(
      (await sessionsOf(browser)).map((s) => s.status),
      ['pending', 'pending'],
    );

    const again = await browser.post('/client/sign_ins', { identifier: ada });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.response.status, 'needs_first_factor');
    const done = await browser.post(`/client/sign_ins/${again.body.response.id}/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(done.body.response.status, 'complete', JSON.stringify(done.body));
    const fresh = done.body.response.created_session_id;
    assert.notEqual(fresh, first.sessionId);

    const sessions = await sessionsOf(browser);
    assert.deepEqual(sessions.map((s) => s.user.email_addresses[0].email_address).sort(), [ada, bob].sort());
    assert.ok(!sessions.some((s) => s.id === first.sessionId), 'the pending session is gone from the client');
    const [old] = await h.db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [
      first.sessionId,
    ]);
    assert.equal(old!.status, 'replaced');
    const token = await browser.post(`/client/sessions/${first.sessionId}/tokens`);
    assert.ok(token.status >= 400, 'the replaced session issues no token');
  });

  it('an account whose session is active still answers identifier_already_signed_in with it', async () => {
    const browser = h.browser();
    const first = await signInWithPassword(browser, ada);
    const org = await browser.post('/organizations', { name: 'Ada Ltd' });
    assert.equal(org.status, 200, JSON.stringify(org.body));
    const touched = await browser.post(`/client/sessions/${first.sessionId}/touch`, {
      active_organization_id: org.body.response.id,
    });
    assert.equal(touched.status, 200);
    await signInWithPassword(browser, bob);

    const again = await browser.post('/client/sign_ins', { identifier: ada });
    assert.equal(again.status, 422, JSON.stringify(again.body));
    assert.equal(again.body.errors[0].code, 'identifier_already_signed_in');
    assert.equal(again.body.errors[0].meta.session_id, first.sessionId);
  });

  it("another browser's pending session of the same account is left alone", async () => {
    const elsewhere = h.browser();
    const theirs = await signInWithPassword(elsewhere, bob);
    const here = h.browser();
    await signInWithPassword(here, bob);
    assert.deepEqual(
      (await sessionsOf(elsewhere)).map((s) => [s.id, s.status]),
      [[theirs.sessionId, 'pending']],
    );
  });
});
