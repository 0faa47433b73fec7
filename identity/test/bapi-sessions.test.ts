import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp, type SignedIn } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail, type Browser } from './support/harness.ts';

const OTHER_SECRET_KEY = 'sk_live_othersessionskey0000000000000000000000';

forEachBackend('Backend API sessions and clients', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let alice: SignedIn & { browser: Browser };
  let bob: SignedIn & { browser: Browser };
  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
    const person = async (name: string) => {
      const browser = h.browser({
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' },
      });
      h.clock.advance(1);
      return { ...(await signUp(h, browser, uniqueEmail(name))), browser };
    };
    alice = await person('alice');
    bob = await person('bob');
  });
  after(() => h.close());

  const raw = (method: 'GET' | 'POST', path: string, payload?: unknown) =>
    h.app.inject({
      method,
      url: `${BAPI}${path}`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });

  it('getSessionList pages newest first with the total, and filters by user, client and status', async () => {
    const all = await clerk.sessions.getSessionList({ limit: 1 });
    assert.equal(all.totalCount, 2);
    assert.deepEqual(
      all.data.map((s) => s.id),
      [bob.sessionId],
    );
    const next = await clerk.sessions.getSessionList({ limit: 1, offset: 1 });
    assert.deepEqual(
      next.data.map((s) => s.id),
      [alice.sessionId],
    );
    const mine = await clerk.sessions.getSessionList({ userId: alice.userId });
    assert.deepEqual(
      mine.data.map((s) => [s.id, s.userId, s.clientId, s.status]),
      [[alice.sessionId, alice.userId, alice.client.id, 'active']],
    );
    const byClient = await clerk.sessions.getSessionList({ clientId: bob.client.id, status: 'active' });
    assert.deepEqual(
      byClient.data.map((s) => s.id),
      [bob.sessionId],
    );
    assert.equal((await clerk.sessions.getSessionList({ status: 'revoked' })).totalCount, 0);
    // Without `paginated` (older callers), Clerk's bare array.
    const bare = await raw('GET', `/v1/sessions?user_id=${bob.userId}`);
    assert.equal(bare.statusCode, 200);
    assert.deepEqual(
      bare.json().map((s: { id: string }) => s.id),
      [bob.sessionId],
    );
  });

  it('getSession answers the session with its latest activity', async () => {
    const session = await clerk.sessions.getSession(alice.sessionId);
    assert.equal(session.id, alice.sessionId);
    assert.equal(session.userId, alice.userId);
    assert.equal(session.status, 'active');
    assert.ok(session.expireAt > Date.now());
    assert.equal(session.latestActivity?.browserName, 'Firefox');
    assert.equal(session.latestActivity?.ipAddress, alice.browser.ip);
  });

  it('getToken mints a session token for the session, with a chosen lifetime; a template is 404', async () => {
    const token = await clerk.sessions.getToken(alice.sessionId);
    const claims = decodeJwt(token.jwt);
    assert.equal(claims.sid, alice.sessionId);
    assert.equal(claims.sub, alice.userId);
    assert.equal(claims.azp, undefined);
    assert.equal(claims.exp! - claims.iat!, 60);
    const long = decodeJwt((await clerk.sessions.getToken(alice.sessionId, undefined, 3600)).jwt);
    assert.equal(long.exp! - long.iat!, 3600);
    await rejectsWith(
      clerk.sessions.getToken(alice.sessionId, undefined, 10),
      422,
      'form_param_value_invalid',
      'expires_in_seconds',
    );
    await rejectsWith(clerk.sessions.getToken(alice.sessionId, 'hasura'), 404, 'resource_not_found');
    await rejectsWith(clerk.sessions.getToken('sess_2doesnotexist0000000000'), 404, 'resource_not_found');
  });

  it('verifySession accepts the session’s own token only; refreshSession sends the SDK to the handshake', async () => {
    const { jwt } = await clerk.sessions.getToken(alice.sessionId);
    assert.equal((await clerk.sessions.verifySession(alice.sessionId, jwt)).id, alice.sessionId);
    await rejectsWith(clerk.sessions.verifySession(bob.sessionId, jwt), 401, 'authentication_invalid');
    const forged = `${jwt.slice(0, -4)}AAAA`;
    await rejectsWith(clerk.sessions.verifySession(alice.sessionId, forged), 401, 'authentication_invalid');
    await rejectsWith(
      clerk.sessions.refreshSession(alice.sessionId, {
        expired_token: jwt,
        refresh_token: 'anything',
        request_origin: 'http://localhost:3000',
        format: 'token',
      }),
      401,
      'authentication_invalid',
    );
  });

  it('createSession opens a session for the user, listed and able to mint tokens', async () => {
    h.clock.advance(1);
    const session = await clerk.sessions.createSession({ userId: bob.userId });
    assert.equal(session.userId, bob.userId);
    assert.equal(session.status, 'active');
    assert.notEqual(session.clientId, bob.client.id);
    const listed = await clerk.sessions.getSessionList({ userId: bob.userId });
    assert.deepEqual(
      listed.data.map((s) => s.id),
      [session.id, bob.sessionId],
    );
    assert.equal(decodeJwt((await clerk.sessions.getToken(session.id)).jwt).sub, bob.userId);
    await rejectsWith(
      clerk.sessions.createSession({ userId: 'user_2doesnotexist000000000' }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.sessions.revokeSession(session.id).then(() => clerk.sessions.getToken(session.id)),
      404,
      'resource_not_found',
    );
  });

  it('revokeSession signs the browser out: its Frontend API tokens are refused, once revoked stays revoked', async () => {
    const before = await alice.browser.post(`/client/sessions/${alice.sessionId}/tokens`);
    assert.equal(before.status, 200);
    const revoked = await clerk.sessions.revokeSession(alice.sessionId);
    assert.equal(revoked.status, 'revoked');
    const after = await alice.browser.post(`/client/sessions/${alice.sessionId}/tokens`);
    assert.equal(after.status, 404);
    await rejectsWith(clerk.sessions.getToken(alice.sessionId), 404, 'resource_not_found');
    const events = () =>
      h.count('webhook_events', "type = 'session.revoked' AND payload->'data'->>'id' = $1", [
        alice.sessionId,
      ]);
    assert.equal(await events(), 1);
    // Revoking twice changes nothing and sends no second event.
    const again = await clerk.sessions.revokeSession(alice.sessionId);
    assert.equal(again.status, 'revoked');
    assert.equal(again.updatedAt, revoked.updatedAt);
    assert.equal(await events(), 1);
    assert.equal(
      (await clerk.sessions.getSessionList({ status: 'revoked', userId: alice.userId })).totalCount,
      1,
    );
    // Bob's session is untouched.
    assert.equal((await clerk.sessions.getSession(bob.sessionId)).status, 'active');
  });

  it('an expired session is listed as expired and gets no token', async () => {
    const carol = await signUp(h, h.browser(), uniqueEmail('carol'));
    h.clock.advance(h.config.sessionLifetimeSeconds + 1);
    try {
      assert.equal((await clerk.sessions.getSession(carol.sessionId)).status, 'expired');
      assert.equal(
        (await clerk.sessions.getSessionList({ userId: carol.userId, status: 'expired' })).totalCount,
        1,
      );
      await rejectsWith(clerk.sessions.getToken(carol.sessionId), 404, 'resource_not_found');
    } finally {
      h.clock.advance(-(h.config.sessionLifetimeSeconds + 1));
    }
  });

  it('clients: getClientList, getClient and verifyClient with the browser’s credential', async () => {
    const list = await clerk.clients.getClientList({ limit: 500 });
    assert.ok(list.totalCount >= 2);
    assert.ok(list.data.some((c) => c.id === bob.client.id));
    const client = await clerk.clients.getClient(bob.client.id);
    assert.deepEqual(client.sessionIds, [bob.sessionId]);
    assert.equal(client.sessions[0]!.userId, bob.userId);
    assert.equal(client.lastActiveSessionId, bob.sessionId);
    const credential = bob.browser.jar.get('__client');
    assert.ok(credential, 'the browser holds its client credential');
    assert.equal((await clerk.clients.verifyClient(credential)).id, bob.client.id);
    await rejectsWith(clerk.clients.verifyClient('not-a-credential'), 404, 'resource_not_found');
    await rejectsWith(clerk.clients.getClient('client_2doesnotexist00000000'), 404, 'resource_not_found');
  });

  it('abuse: malformed and oversized input is refused and changes nothing', async () => {
    const sessions = await h.count('sessions');
    for (const [method, path, body] of [
      ['GET', '/v1/sessions?status=bogus'],
      ['GET', '/v1/sessions?limit=501'],
      ['GET', '/v1/sessions?paginated=maybe'],
      ['GET', `/v1/sessions/${'x'.repeat(5000)}`],
      ['POST', '/v1/sessions/%00/revoke'],
      ['POST', `/v1/sessions/${bob.sessionId}/tokens`, { expires_in_seconds: '60' }],
      ['POST', `/v1/sessions/${bob.sessionId}/tokens`, { expires_in_seconds: 1e12 }],
      ['POST', '/v1/sessions', { user_id: ['user_x'] }],
      ['POST', '/v1/sessions', {}],
      ['POST', '/v1/clients/verify', { token: 'x'.repeat(2_000_000) }],
      ['POST', '/v1/clients/verify', {}],
    ] as const) {
      const res = await raw(method, path, body);
      assert.ok(
        res.statusCode >= 400 && res.statusCode < 500,
        `${method} ${path}: ${res.statusCode} ${res.body}`,
      );
      assert.ok(res.json().errors[0].code, `${method} ${path} answers Clerk's envelope`);
    }
    assert.equal(await h.count('sessions'), sessions);
  });

  it("another instance's session and client ids are 404 there, its key is refused here, and a production instance creates no session", async () => {
    // A production instance, which also shows that createSession is for development instances only.
    const other = await Harness.start(backend, {
      config: { secretKey: OTHER_SECRET_KEY, mode: 'production', smtpUrl: 'smtp://127.0.0.1:9' },
    });
    try {
      const otherClerk = await backendApiClient(other);
      await rejectsWith(otherClerk.sessions.getSession(bob.sessionId), 404, 'resource_not_found');
      await rejectsWith(otherClerk.sessions.revokeSession(bob.sessionId), 404, 'resource_not_found');
      await rejectsWith(otherClerk.sessions.getToken(bob.sessionId), 404, 'resource_not_found');
      await rejectsWith(otherClerk.clients.getClient(bob.client.id), 404, 'resource_not_found');
      await rejectsWith(
        otherClerk.clients.verifyClient(bob.browser.jar.get('__client')!),
        404,
        'resource_not_found',
      );
      assert.equal((await otherClerk.sessions.getSessionList({ userId: bob.userId })).totalCount, 0);
      await rejectsWith(otherClerk.sessions.createSession({ userId: bob.userId }), 403, 'not_allowed_access');
      assert.equal(await other.count('sessions'), 0);
      const refused = await h.app.inject({
        method: 'POST',
        url: `${BAPI}/v1/sessions/${bob.sessionId}/revoke`,
        headers: { authorization: `Bearer ${OTHER_SECRET_KEY}` },
      });
      assert.equal(refused.statusCode, 401);
      assert.equal((await clerk.sessions.getSession(bob.sessionId)).status, 'active');
    } finally {
      await other.close();
    }
  });
});
