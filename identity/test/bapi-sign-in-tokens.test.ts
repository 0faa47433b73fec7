import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { sha256 } from '../src/crypto/secrets.ts';
import type { ClerkError } from '../src/errors.ts';
import { createTestingToken, waivesBotProtection } from '../src/testing-tokens/testing-tokens.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { BAPI, FAPI, Harness, PUBLIC_URL, uniqueEmail, type Browser, type Json } from './support/harness.ts';
import { enrolTotp, totpCode } from './support/second-factors.ts';

/** The ticket sign-in `<SignIn/>` sends for `?__clerk_ticket=`. */
const redeem = (browser: Browser, ticket: string) =>
  browser.post('/client/sign_ins', { strategy: 'ticket', ticket });

function assertError(res: { status: number; body: Json }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code, JSON.stringify(res.body));
}

forEachBackend('Backend API sign-in tokens and testing tokens', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let user: { id: string; email: string };
  /** Another instance (its own key and database), for the tokens of one presented to the other. */
  let other: Harness;

  before(async () => {
    h = await Harness.start(backend);
    other = await Harness.start(backend, {
      config: { secretKey: 'sk_live_otherinstancekey000000000000000000000' },
    });
    clerk = await backendApiClient(h);
    const email = uniqueEmail('sit');
    user = { id: (await signUp(h, h.browser(), email)).userId, email };
  });
  after(async () => {
    await other.close();
    await h.close();
  });
  // A fresh rate-limit window and a new TOTP step for each test.
  beforeEach(() => h.clock.advance(61));

  // The SDK types `expiresInSeconds` as required; Clerk (and this provider) default it to 30 days.
  const create = (params: { userId?: string; expiresInSeconds?: number } = {}) =>
    clerk.signInTokens.createSignInToken({ userId: user.id, ...params } as {
      userId: string;
      expiresInSeconds: number;
    });

  it('createSignInToken answers Clerk’s SignInToken with the one-time token and its link; only the hash is kept', async () => {
    const created = await create();
    assert.match(created.id, /^sit_/);
    assert.equal(created.userId, user.id);
    assert.equal(created.status, 'pending');
    assert.match(created.token, /^[\w-]{43}$/);
    assert.equal(created.url, `${PUBLIC_URL}${FAPI}/v1/tickets/accept?ticket=${created.token}`);
    assert.equal(created.createdAt, h.clock.now.getTime());
    const [row] = await h.db.query<Json>('SELECT * FROM sign_in_tokens WHERE id = $1', [created.id]);
    assert.equal(row.token_hash, sha256(created.token));
    assert.ok(!JSON.stringify(row).includes(created.token), 'the token itself is nowhere in the row');
    assert.equal(
      row.expires_at.getTime() - h.clock.now.getTime(),
      30 * 24 * 3600 * 1000,
      '30 days by default',
    );
  });

  it('bad input is refused with Clerk’s codes and creates nothing', async () => {
    const before = await h.count('sign_in_tokens');
    const cases: [() => Promise<unknown>, number, string, string?][] = [
      [() => create({ userId: '' }), 422, 'form_param_nil', 'user_id'],
      [() => create({ userId: 'user_doesnotexist' }), 404, 'resource_not_found'],
      [() => create({ expiresInSeconds: 0 }), 422, 'form_param_value_invalid', 'expires_in_seconds'],
      [() => create({ expiresInSeconds: 2.5 }), 422, 'form_param_value_invalid', 'expires_in_seconds'],
      [
        () => create({ expiresInSeconds: 31 * 24 * 3600 }),
        422,
        'form_param_value_invalid',
        'expires_in_seconds',
      ],
    ];
    for (const [call, status, code, param] of cases) await rejectsWith(call(), status, code, param);
    const wrongKey = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/sign_in_tokens`,
      headers: { authorization: 'Bearer sk_live_wrong', 'content-type': 'application/json' },
      payload: JSON.stringify({ user_id: user.id }),
    });
    assert.equal(wrongKey.statusCode, 401);
    assert.equal(await h.count('sign_in_tokens'), before);
  });

  it('the ticket signs the user in once, and its link lands on <SignIn/> with it', async () => {
    const created = await create();
    const landing = await h.browser().get('/tickets/accept', { ticket: created.token });
    assert.equal(landing.status, 303);
    const location = new URL(landing.headers.location as string);
    assert.equal(location.searchParams.get('__clerk_ticket'), created.token);
    assert.equal(location.searchParams.get('__clerk_status'), 'sign_in');

    const browser = h.browser();
    const res = await redeem(browser, created.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const signIn = res.body.response;
    assert.equal(signIn.status, 'complete');
    assert.equal(signIn.identifier, user.email);
    assert.equal(signIn.first_factor_verification.strategy, 'ticket');
    assert.equal(res.body.client.sessions[0].user.id, user.id);
    assert.equal(res.body.client.sessions[0].actor, null, 'the user themself, not an impersonation');
    const [row] = await h.db.query<Json>('SELECT status FROM sign_in_tokens WHERE id = $1', [created.id]);
    assert.equal(row.status, 'accepted');

    // Replayed, in another browser or the same one: refused, and no session is opened.
    const sessions = await h.count('sessions', 'user_id = $1', [user.id]);
    assertError(await redeem(h.browser(), created.token), 422, 'ticket_invalid_code');
    assert.equal(await h.count('sessions', 'user_id = $1', [user.id]), sessions);
    await rejectsWith(clerk.signInTokens.revokeSignInToken(created.id), 400, 'sign_in_token_not_pending');
  });

  it('a revoked token is refused; an expired one too; an unknown one opens nothing', async () => {
    const revoked = await create();
    const answer = await clerk.signInTokens.revokeSignInToken(revoked.id);
    assert.equal(answer.status, 'revoked');
    assert.equal(answer.token, '', 'the token is not known after its creation');
    assertError(await redeem(h.browser(), revoked.token), 422, 'ticket_invalid_code');
    await rejectsWith(clerk.signInTokens.revokeSignInToken(revoked.id), 400, 'sign_in_token_not_pending');
    await rejectsWith(clerk.signInTokens.revokeSignInToken('sit_doesnotexist'), 404, 'resource_not_found');

    const expiring = await create({ expiresInSeconds: 60 });
    h.clock.advance(60);
    const landing = await h.browser().get('/tickets/accept', { ticket: expiring.token });
    assert.equal(new URL(landing.headers.location as string).searchParams.get('__clerk_status'), 'expired');
    assertError(await redeem(h.browser(), expiring.token), 422, 'ticket_expired_code');
    const [row] = await h.db.query<Json>('SELECT status FROM sign_in_tokens WHERE id = $1', [expiring.id]);
    assert.equal(row.status, 'pending', 'a refused redemption changes nothing');

    const forged = await redeem(h.browser(), 'x'.repeat(43));
    assert.equal(forged.status, 422, JSON.stringify(forged.body));
  });

  it('a user with a second factor still has to give it', async () => {
    const email = uniqueEmail('sit-mfa');
    const browser = h.browser();
    const { userId } = await signUp(h, browser, email);
    const { secret } = await enrolTotp(h, browser);
    h.clock.advance(61);
    const created = await clerk.signInTokens.createSignInToken({ userId, expiresInSeconds: 600 });
    const sessions = await h.count('sessions', 'user_id = $1', [userId]);
    const other = h.browser();
    const res = await redeem(other, created.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'needs_second_factor');
    assert.equal(res.body.response.created_session_id, null);
    assert.equal(await h.count('sessions', 'user_id = $1', [userId]), sessions);
    // The ticket is spent at once: it cannot start another sign-in that waits for the code.
    assertError(await redeem(h.browser(), created.token), 422, 'ticket_invalid_code');
    const done = await other.post(`/client/sign_ins/${res.body.response.id}/attempt_second_factor`, {
      strategy: 'totp',
      code: totpCode(secret, h.clock.now),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
  });

  it('another instance knows nothing of this instance’s tokens', async () => {
    const created = await create({ expiresInSeconds: 600 });
    const res = await redeem(other.browser(), created.token);
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(await other.count('sessions'), 0);
    const revoke = await other.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/sign_in_tokens/${created.id}/revoke`,
      headers: { authorization: `Bearer ${other.identity.secretKey}` },
    });
    assert.equal(revoke.statusCode, 404);
    const [row] = await h.db.query<Json>('SELECT status FROM sign_in_tokens WHERE id = $1', [created.id]);
    assert.equal(row.status, 'pending');
  });
  describe('testingTokens', () => {
    async function useProofOfWork(harness: Harness) {
      await harness.identity.settings.set({
        ...harness.identity.settings.settings,
        captcha: { provider: 'proof_of_work', proofOfWork: { maxNumber: 2000 } },
      });
    }
    /** A sign-up as an automated browser sends it: no captcha token, the testing token in the query. */
    const signUpWith = (harness: Harness, token: string | undefined) =>
      harness
        .browser()
        .post(
          '/client/sign_ups',
          { email_address: uniqueEmail('tt'), password: PASSWORD },
          token === undefined ? {} : { __clerk_testing_token: token },
        );

    before(async () => {
      await useProofOfWork(h);
      await useProofOfWork(other);
    });

    it('createTestingToken answers { token, expires_at } (seconds); only the hash is kept', async () => {
      const created = await clerk.testingTokens.createTestingToken();
      assert.match(created.token, /^[\w-]{43}$/);
      // @clerk/backend 2.10.1 has no deserializer for `testing_token`: the SDK hands on the JSON as it is.
      const raw = created as unknown as { object: string; expires_at: number };
      assert.equal(raw.object, 'testing_token');
      assert.equal(raw.expires_at, Math.floor(h.clock.now.getTime() / 1000) + 3600);
      const rows = await h.db.query<Json>('SELECT * FROM testing_tokens WHERE token_hash = $1', [
        sha256(created.token),
      ]);
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(created.token));
    });

    it('a live token of this instance waives the captcha for its request; nothing else does', async () => {
      const { token } = await clerk.testingTokens.createTestingToken();
      assertError(await signUpWith(h, undefined), 400, 'captcha_missing_token');
      const waived = await signUpWith(h, token);
      assert.equal(waived.status, 200, JSON.stringify(waived.body));
      assert.equal(waived.body.response.status, 'missing_requirements');
      // Reusable while it lives, as Clerk's (a test suite sends it on every request).
      assert.equal((await signUpWith(h, token)).status, 200);
      for (const bad of ['', 'x'.repeat(43), `${token}x`, 'y'.repeat(5000)]) {
        assertError(await signUpWith(h, bad), 400, 'captcha_missing_token');
      }
      // Another instance's token waives nothing here, and this one's nothing there.
      const foreign = await other.app.inject({
        method: 'POST',
        url: `${BAPI}/v1/testing_tokens`,
        headers: { authorization: `Bearer ${other.identity.secretKey}` },
      });
      assert.equal(foreign.statusCode, 200, foreign.body);
      assertError(await signUpWith(h, foreign.json().token), 400, 'captcha_missing_token');
      assertError(await signUpWith(other, token), 400, 'captcha_missing_token');
      // Expired.
      h.clock.advance(3600);
      assertError(await signUpWith(h, token), 400, 'captcha_missing_token');
    });

    it('a production instance makes none and honours none', async () => {
      const { token } = await clerk.testingTokens.createTestingToken();
      const production = { mode: 'production' as const };
      await assert.rejects(
        h.db.transaction((tx) => createTestingToken(tx, production, h.clock.now)),
        (err: ClerkError) => err.status === 403 && err.code === 'feature_not_enabled',
      );
      assert.equal(await waivesBotProtection(h.db, production, token, h.clock.now), false);
      assert.equal(await waivesBotProtection(h.db, h.identity.deps.config, token, h.clock.now), true);
    });
  });
});
