import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { forEachBackend, type Store } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Clock, FRONTEND_API_HOST, Harness, uniqueEmail, type Browser } from './support/harness.ts';

forEachBackend('persistence across a restart', (backend) => {
  const clock = new Clock();
  let store: Store;
  let first: Harness | undefined;
  let second: Harness | undefined;

  // State carried over the restart.
  let email: string;
  let userId: string;
  let sessionId: string;
  let kid: string;
  let tokenBefore: string;
  let jar: Map<string, string>;
  let pending: { email: string; signUpId: string; code: string; jar: Map<string, string> };

  const jwksOf = async (h: Harness) => (await h.bapi('/v1/jwks')).json() as JSONWebKeySet;
  const adopt = (h: Harness, cookies: Map<string, string>): Browser => {
    const browser = h.browser();
    for (const [k, v] of cookies) browser.jar.set(k, v);
    return browser;
  };

  before(async () => {
    store = await backend.createStore({ persistent: true });
    first = await Harness.start(backend, { store, clock });
    email = uniqueEmail('durable');
    const browser = first.browser();
    ({ userId, sessionId } = await signUp(first, browser, email));
    const token = await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' });
    tokenBefore = token.body.jwt;
    kid = (await jwksOf(first)).keys[0]!.kid!;
    jar = new Map(browser.jar);

    // A sign-up whose code was mailed before the restart and is entered after it.
    const other = first.browser();
    const otherEmail = uniqueEmail('pending');
    const created = await other.post('/client/sign_ups', { email_address: otherEmail, password: PASSWORD });
    await other.post(`/client/sign_ups/${created.body.response.id}/prepare_verification`, {
      strategy: 'email_code',
    });
    pending = {
      email: otherEmail,
      signUpId: created.body.response.id,
      code: await first.latestCode(otherEmail),
      jar: new Map(other.jar),
    };

    await first.close();
    clock.advance(20);
    second = await Harness.start(backend, { store, clock });
  });

  after(async () => {
    await first?.close();
    await second?.close();
    await store?.dispose();
  });

  it('keeps the signing key: same kid in the JWKS', async () => {
    const jwks = await jwksOf(second!);
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0]!.kid, kid);
    assert.equal(decodeProtectedHeader(tokenBefore).kid, kid);
  });

  it('the client cookie still identifies the client and its session', async () => {
    const browser = adopt(second!, jar);
    const res = await browser.get('/client');
    assert.equal(res.status, 200);
    assert.equal(res.body.response.last_active_session_id, sessionId);
    assert.equal(res.body.response.sessions.length, 1);
    assert.equal(res.body.response.sessions[0].id, sessionId);
    assert.equal(res.body.response.sessions[0].user.id, userId);
    assert.equal(res.body.response.sessions[0].user.email_addresses[0].email_address, email);
    const token = await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' });
    assert.equal(token.status, 200);
  });

  it('a token minted before the restart verifies against the new JWKS', async () => {
    const keys = createLocalJWKSet(await jwksOf(second!));
    const { payload } = await jwtVerify(tokenBefore, keys, {
      issuer: `https://${FRONTEND_API_HOST}`,
      currentDate: clock.now,
    });
    assert.equal(payload.sub, userId);
    assert.equal(payload.sid, sessionId);
  });

  it('a code mailed before the restart is accepted after it', async () => {
    const browser = adopt(second!, pending.jar);
    const res = await browser.post(`/client/sign_ups/${pending.signUpId}/attempt_verification`, {
      strategy: 'email_code',
      code: pending.code,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'complete');
  });

  it('the user can sign in again with the same password', async () => {
    const { sessionId: fresh } = await signInWithPassword(second!.browser(), email);
    assert.notEqual(fresh, sessionId);
  });
});
