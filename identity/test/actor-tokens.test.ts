import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { decodeJwt } from 'jose';
import { sha256 } from '../src/crypto/secrets.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signInWithPassword, signUp } from './support/flows.ts';
import { BAPI, FAPI, Harness, PUBLIC_URL, uniqueEmail, type Browser, type Json } from './support/harness.ts';

function assertError(res: { status: number; body: Json }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code, JSON.stringify(res.body));
}

/** The ticket sign-in `<SignIn/>` sends for `?__clerk_ticket=`. */
const redeem = (browser: Browser, ticket: string) =>
  browser.post('/client/sign_ins', { strategy: 'ticket', ticket });

/** The link's path and query, as a browser navigation to it would request them. */
function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

forEachBackend('actor tokens (impersonation)', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let operator: { id: string; email: string };
  let customer: { id: string; email: string };

  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
    const operatorEmail = uniqueEmail('operator');
    const customerEmail = uniqueEmail('customer');
    const op = await signUp(h, h.browser(), operatorEmail, { firstName: 'Olga', lastName: 'Operator' });
    const cu = await signUp(h, h.browser(), customerEmail, { firstName: 'Carl', lastName: 'Customer' });
    operator = { id: op.userId, email: operatorEmail };
    customer = { id: cu.userId, email: customerEmail };
  });
  after(() => h.close());
  // @clerk/backend checks token times against the real clock; each test starts there, in a fresh
  // rate-limit window.
  beforeEach(() => h.clock.set(new Date()));

  const create = (params: Partial<Parameters<ClerkClient['actorTokens']['create']>[0]> = {}) =>
    clerk.actorTokens.create({ userId: customer.id, actor: { sub: operator.id }, ...params });

  it('actorTokens.create answers Clerk’s ActorToken with the one-time token and its sign-in link', async () => {
    const created = await create();
    assert.match(created.id, /^act_/);
    assert.equal(created.status, 'pending');
    assert.equal(created.userId, customer.id);
    assert.deepEqual(created.actor, { sub: operator.id });
    assert.match(created.token!, /^[\w-]{43}$/);
    assert.equal(created.url, `${PUBLIC_URL}${FAPI}/v1/tickets/accept?ticket=${created.token}`);
    assert.equal(created.createdAt, h.clock.now.getTime());
    assert.equal(created.updatedAt, created.createdAt);

    const [row] = await h.db.query<Json>('SELECT * FROM actor_tokens WHERE id = $1', [created.id]);
    assert.equal(row.token_hash, sha256(created.token!), 'only the hash is stored');
    assert.ok(!JSON.stringify(row).includes(created.token!), 'the token itself is nowhere in the row');
    assert.equal(row.expires_at.getTime() - h.clock.now.getTime(), 3600 * 1000, 'an hour by default');
    assert.equal(row.session_max_duration_seconds, 1800, '30 minutes by default');
  });

  it('the actor payload is kept as given (it becomes the act claim); the durations are honoured', async () => {
    const created = await create({
      actor: { sub: operator.id, additionalProperties: { reason: 'ticket 42' } },
      expiresInSeconds: 600,
      sessionMaxDurationInSeconds: 300,
    });
    assert.deepEqual(created.actor, { sub: operator.id, additionalProperties: { reason: 'ticket 42' } });
    const [row] = await h.db.query<Json>(
      'SELECT expires_at, session_max_duration_seconds FROM actor_tokens WHERE id = $1',
      [created.id],
    );
    assert.equal(row.expires_at.getTime() - h.clock.now.getTime(), 600 * 1000);
    assert.equal(row.session_max_duration_seconds, 300);
  });

  it('bad input is refused with Clerk’s codes and creates nothing', async () => {
    const before = await h.count('actor_tokens');
    // Thunks: each call starts only when the previous one has been checked.
    const cases: [() => Promise<unknown>, number, string, string?][] = [
      [() => create({ userId: '' }), 422, 'form_param_nil', 'user_id'],
      [() => create({ actor: undefined }), 422, 'form_param_nil', 'actor'],
      [() => create({ actor: {} as { sub: string } }), 422, 'form_param_value_invalid', 'actor'],
      [() => create({ actor: { sub: '' } }), 422, 'form_param_value_invalid', 'actor'],
      [() => create({ userId: 'user_doesnotexist' }), 404, 'resource_not_found'],
      [() => create({ expiresInSeconds: 0 }), 422, 'form_param_value_invalid', 'expires_in_seconds'],
      [() => create({ expiresInSeconds: 1.5 }), 422, 'form_param_value_invalid', 'expires_in_seconds'],
      [
        () => create({ expiresInSeconds: 31 * 24 * 3600 }),
        422,
        'form_param_value_invalid',
        'expires_in_seconds',
      ],
      [
        () => create({ sessionMaxDurationInSeconds: 8 * 24 * 3600 }),
        422,
        'form_param_value_invalid',
        'session_max_duration_in_seconds',
      ],
    ];
    for (const [call, status, code, param] of cases) await rejectsWith(call(), status, code, param);
    const wrongType = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/actor_tokens`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ user_id: customer.id, actor: 'user_x', expires_in_seconds: '60' }),
    });
    assert.equal(wrongType.statusCode, 422);
    assert.equal(wrongType.json().errors[0].code, 'form_param_format_invalid');
    assert.equal(await h.count('actor_tokens'), before);
  });

  it('without the secret key: 401 clerk_key_invalid', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/actor_tokens`,
      headers: { authorization: 'Bearer sk_live_wrong', 'content-type': 'application/json' },
      payload: JSON.stringify({ user_id: customer.id, actor: { sub: operator.id } }),
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().errors[0].code, 'clerk_key_invalid');
  });

  it('redeeming signs in as the user, in a session carrying the actor that ends after its max duration', async () => {
    const [lastSignIn] = await h.db.query<Json>('SELECT last_sign_in_at FROM users WHERE id = $1', [
      customer.id,
    ]);
    const created = await create({ sessionMaxDurationInSeconds: 120 });
    const browser = h.browser();
    const res = await redeem(browser, created.token!);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const signIn = res.body.response;
    assert.equal(signIn.status, 'complete');
    assert.equal(signIn.identifier, customer.email);
    assert.equal(signIn.first_factor_verification.strategy, 'ticket');
    assert.equal(signIn.first_factor_verification.status, 'verified');

    // What clerk-js reads: the created session in the piggy-backed client, its actor, its user.
    const client = res.body.client;
    assert.equal(client.last_active_session_id, signIn.created_session_id);
    assert.equal(client.sessions.length, 1);
    const session = client.sessions[0];
    assert.equal(session.id, signIn.created_session_id);
    assert.equal(session.user.id, customer.id);
    assert.deepEqual(session.actor, { sub: operator.id });
    assert.equal(session.expire_at - h.clock.now.getTime(), 120 * 1000);
    assert.deepEqual(decodeJwt(session.last_active_token.jwt).act, { sub: operator.id });

    // Fresh tokens carry `act` too, and @clerk/backend reads it as the auth object's actor.
    const token = await browser.post(`/client/sessions/${session.id}/tokens`, { organization_id: '' });
    const claims = decodeJwt(token.body.jwt);
    assert.equal(claims.sub, customer.id);
    assert.deepEqual(claims.act, { sub: operator.id });
    const state = await clerk.authenticateRequest(
      new Request(`${PUBLIC_URL}/api/me`, { headers: { authorization: `Bearer ${token.body.jwt}` } }),
      { acceptsToken: 'session_token' },
    );
    assert.equal(state.isAuthenticated, true, state.message ?? '');
    assert.equal(state.toAuth().userId, customer.id);
    assert.deepEqual(state.toAuth().actor, { sub: operator.id });

    // Spent: accepted, linked to its session; someone acting for the user is not the user signing in.
    const [row] = await h.db.query<Json>('SELECT status, session_id FROM actor_tokens WHERE id = $1', [
      created.id,
    ]);
    assert.deepEqual(row, { status: 'accepted', session_id: session.id });
    const [after] = await h.db.query<Json>('SELECT last_sign_in_at FROM users WHERE id = $1', [customer.id]);
    assert.deepEqual(after.last_sign_in_at, lastSignIn.last_sign_in_at);
    await rejectsWith(clerk.actorTokens.revoke(created.id), 400, 'actor_token_not_pending');

    // The impersonation ends at session_max_duration_in_seconds.
    h.clock.advance(121);
    const later = await browser.get('/client');
    assert.deepEqual(later.body.response.sessions, []);
    assertError(
      await browser.post(`/client/sessions/${session.id}/tokens`, { organization_id: '' }),
      404,
      'resource_not_found',
    );
  });

  it('a token opens one session only: reuse is refused with ticket_invalid_code', async () => {
    const created = await create();
    assert.equal((await redeem(h.browser(), created.token!)).status, 200);
    const sessions = await h.count('sessions');
    const again = await redeem(h.browser(), created.token!);
    assertError(again, 422, 'ticket_invalid_code');
    assert.equal(again.body.errors[0].meta.param_name, undefined, 'shown on the card, not on a field');
    assert.equal(await h.count('sessions'), sessions);
  });

  it('two browsers redeeming at once: exactly one gets the session', async () => {
    const created = await create();
    const results = await Promise.all([
      redeem(h.browser(), created.token!),
      redeem(h.browser(), created.token!),
      redeem(h.browser(), created.token!),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 422, 422]);
    for (const r of results.filter((x) => x.status !== 200)) assertError(r, 422, 'ticket_invalid_code');
    const [row] = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions WHERE actor->>'sub' = $1 AND id = (
         SELECT session_id FROM actor_tokens WHERE id = $2)`,
      [operator.id, created.id],
    );
    assert.equal(row!.n, 1);
  });

  it('revoke: Clerk’s ActorToken with status revoked; the token is refused afterwards', async () => {
    const created = await create();
    const revoked = await clerk.actorTokens.revoke(created.id);
    assert.equal(revoked.id, created.id);
    assert.equal(revoked.status, 'revoked');
    assert.equal(revoked.userId, customer.id);
    assert.deepEqual(revoked.actor, { sub: operator.id });
    assert.equal(revoked.token, null, 'the token is not kept, so it cannot be shown again');
    assertError(await redeem(h.browser(), created.token!), 422, 'ticket_invalid_code');
    await rejectsWith(clerk.actorTokens.revoke(created.id), 400, 'actor_token_not_pending');
    await rejectsWith(clerk.actorTokens.revoke('act_doesnotexist'), 404, 'resource_not_found');
  });

  it('an expired token is refused with ticket_expired_code', async () => {
    const created = await create({ expiresInSeconds: 60 });
    h.clock.advance(60);
    assertError(await redeem(h.browser(), created.token!), 422, 'ticket_expired_code');
    const [row] = await h.db.query<Json>('SELECT status FROM actor_tokens WHERE id = $1', [created.id]);
    assert.equal(row.status, 'pending', 'Clerk has no expired status for actor tokens');
  });

  it('an unknown or malformed ticket is refused; a missing one names the field', async () => {
    assertError(await redeem(h.browser(), 'nonsense'), 422, 'ticket_invalid_code');
    assertError(await redeem(h.browser(), 'x'.repeat(5000)), 422, 'ticket_invalid_code');
    const missing = await h.browser().post('/client/sign_ins', { strategy: 'ticket' });
    assertError(missing, 422, 'form_param_nil');
  });

  it('the token signs in as its own user only, and not once that user is deleted or locked', async () => {
    const victim = await signUp(h, h.browser(), uniqueEmail('gone'));
    const forGone = await clerk.actorTokens.create({ userId: victim.userId, actor: { sub: operator.id } });
    await h.db.query('DELETE FROM users WHERE id = $1', [victim.userId]);
    assertError(await redeem(h.browser(), forGone.token!), 422, 'ticket_invalid_code');

    const locked = await signUp(h, h.browser(), uniqueEmail('locked'));
    const forLocked = await clerk.actorTokens.create({ userId: locked.userId, actor: { sub: operator.id } });
    await h.db.query(`UPDATE users SET locked_until = $2 WHERE id = $1`, [
      locked.userId,
      new Date(h.clock.now.getTime() + 600_000),
    ]);
    assertError(await redeem(h.browser(), forLocked.token!), 403, 'user_locked');

    // Identifiers sent along change nothing: the session is the token's user's.
    const created = await create();
    const res = await h.browser().post('/client/sign_ins', {
      strategy: 'ticket',
      ticket: created.token!,
      identifier: operator.email,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.client.sessions[0].user.id, customer.id);
  });

  it('single session: an operator already signed in on this browser is replaced by the impersonation', async () => {
    const browser = h.browser();
    const own = await signInWithPassword(browser, operator.email);
    const created = await create();
    const res = await redeem(browser, created.token!);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.client.sessions.map((s: Json) => [s.user.id, s.actor]),
      [[customer.id, { sub: operator.id }]],
    );
    const [old] = await h.db.query<Json>('SELECT status FROM sessions WHERE id = $1', [own.sessionId]);
    assert.equal(old.status, 'replaced');
  });

  it('the link lands on <SignIn/> with the ticket; it spends nothing, and signs a signed-in browser out first', async () => {
    const created = await create();
    const fresh = h.browser();
    const landing = await fresh.raw('GET', pathOf(created.url!));
    assert.equal(landing.status, 303);
    assert.equal(
      landing.headers.location,
      `${PUBLIC_URL}/sign-in?__clerk_ticket=${created.token}&__clerk_status=sign_in`,
    );
    assert.equal(landing.setCookies.size, 0, 'a browser without a client gets no cookie');

    // The operator's own browser: <SignIn/> would not render while signed in, so the link signs it out.
    const browser = h.browser();
    const own = await signInWithPassword(browser, operator.email);
    const signedOut = await browser.raw('GET', pathOf(created.url!));
    assert.equal(signedOut.status, 303);
    assert.equal(signedOut.headers.location, landing.headers.location);
    assert.equal(signedOut.setCookies.get('__client_uat')?.value, '0');
    const [old] = await h.db.query<Json>('SELECT status FROM sessions WHERE id = $1', [own.sessionId]);
    assert.equal(old.status, 'ended');
    const [row] = await h.db.query<Json>('SELECT status FROM actor_tokens WHERE id = $1', [created.id]);
    assert.equal(row.status, 'pending', 'following the link redeems nothing');

    // Then the sign-in page redeems it on that same browser.
    const res = await redeem(browser, created.token!);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.client.sessions[0].user.id, customer.id);
  });

  it('an unusable link keeps the browser signed in and lands with __clerk_status=expired', async () => {
    const created = await create();
    await clerk.actorTokens.revoke(created.id);
    const browser = h.browser();
    const own = await signInWithPassword(browser, operator.email);
    const landing = await browser.raw('GET', pathOf(created.url!));
    assert.equal(landing.status, 303);
    assert.equal(
      landing.headers.location,
      `${PUBLIC_URL}/sign-in?__clerk_ticket=${created.token}&__clerk_status=expired`,
    );
    assert.equal(landing.setCookies.size, 0);
    const [session] = await h.db.query<Json>('SELECT status FROM sessions WHERE id = $1', [own.sessionId]);
    assert.equal(session.status, 'active');
  });
});

forEachBackend('actor tokens on a multi-session instance', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let operator: { id: string; email: string };
  let customer: { id: string; email: string };

  before(async () => {
    h = await Harness.start(backend, { config: { multiSession: true } });
    clerk = await backendApiClient(h);
    const operatorEmail = uniqueEmail('ms-operator');
    const customerEmail = uniqueEmail('ms-customer');
    operator = { id: (await signUp(h, h.browser(), operatorEmail)).userId, email: operatorEmail };
    customer = { id: (await signUp(h, h.browser(), customerEmail)).userId, email: customerEmail };
  });
  after(() => h.close());

  it('the impersonation opens beside the operator’s own session; the link signs nobody out', async () => {
    const browser = h.browser();
    const own = await signInWithPassword(browser, operator.email);
    const token = await clerk.actorTokens.create({ userId: customer.id, actor: { sub: operator.id } });
    // <SignIn/> renders for a signed-in browser here, so the link has no reason to sign it out.
    const landing = await browser.raw('GET', pathOf(token.url!));
    assert.equal(landing.status, 303);
    assert.equal(landing.setCookies.size, 0);
    const res = await redeem(browser, token.token!);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const sessions = res.body.client.sessions.map((s: Json) => [s.user.id, s.actor]);
    assert.deepEqual(
      sessions.sort(),
      [
        [customer.id, { sub: operator.id }],
        [operator.id, null],
      ].sort(),
    );
    assert.equal(res.body.client.last_active_session_id, res.body.response.created_session_id);
    const [old] = await h.db.query<Json>('SELECT status FROM sessions WHERE id = $1', [own.sessionId]);
    assert.equal(old.status, 'active');
  });

  it('the user’s own session on this browser is replaced rather than switched to', async () => {
    const browser = h.browser();
    const own = await signInWithPassword(browser, customer.email);
    const token = await clerk.actorTokens.create({ userId: customer.id, actor: { sub: operator.id } });
    const res = await redeem(browser, token.token!);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.client.sessions.map((s: Json) => [s.user.id, s.actor]),
      [[customer.id, { sub: operator.id }]],
    );
    const [old] = await h.db.query<Json>('SELECT status FROM sessions WHERE id = $1', [own.sessionId]);
    assert.equal(old.status, 'replaced');
  });
});
