import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { sha256 } from '../src/crypto/secrets.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { BAPI, FAPI, Harness, PUBLIC_URL, uniqueEmail, type Browser, type Json } from './support/harness.ts';
import { enrolTotp, totpCode } from './support/second-factors.ts';

/** The ticket sign-in `<SignIn/>` sends for `?__clerk_ticket=`. */
const redeem = (browser: Browser, ticket: string) =>
  browser.post('/client/sign_ins', { strategy: 'ticket', ticket });

function assertError(res: { status: number; body: Json }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code, JSON.stringify(res.body));
}

forEachBackend('Backend API sign-in tokens', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let user: { id: string; email: string };

  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
    const email = uniqueEmail('sit');
    user = { id: (await signUp(h, h.browser(), email)).userId, email };
  });
  after(() => h.close());
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
    const other = await Harness.start(backend, {
      config: { secretKey: 'sk_live_otherinstancekey000000000000000000000' },
    });
    try {
      const res = await redeem(other.browser(), created.token);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(await other.count('sessions'), 0);
      const revoke = await other.app.inject({
        method: 'POST',
        url: `${BAPI}/v1/sign_in_tokens/${created.id}/revoke`,
        headers: { authorization: `Bearer ${other.identity.secretKey}` },
      });
      assert.equal(revoke.statusCode, 404);
    } finally {
      await other.close();
    }
    const [row] = await h.db.query<Json>('SELECT status FROM sign_in_tokens WHERE id = $1', [created.id]);
    assert.equal(row.status, 'pending');
  });
});
