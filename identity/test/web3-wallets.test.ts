import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { toHex } from 'viem';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';
import { enrolTotp, totpCode } from './support/second-factors.ts';

/**
 * Web3 wallets as clerk-js 5.90.0 drives them (`Clerk.authenticateWithWeb3`, `SignIn/SignUp
 * .authenticateWithWeb3`, <UserProfile/>'s Web3 section): the wallet signs the server's nonce with
 * personal_sign (EIP-191), here a viem account standing in for MetaMask. Every signature by another key,
 * of another nonce, of a spent or expired nonce, and every malformed one is refused.
 */

const METAMASK = 'web3_metamask_signature';
const COINBASE = 'web3_coinbase_wallet_signature';

/** What clerk-js has the wallet do: personal_sign of `0x<hex of the nonce>`. */
const sign = (account: PrivateKeyAccount, nonce: string) =>
  account.signMessage({ message: { raw: toHex(nonce) } });

const newWallet = () => privateKeyToAccount(generatePrivateKey());

forEachBackend('Web3 wallets', (backend) => {
  let h: Harness;

  before(async () => {
    h = await Harness.start(backend);
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      web3: { enabled: true, providers: ['metamask', 'coinbase_wallet', 'okx_wallet'] },
    });
  });
  after(() => h.close());

  const ok = (res: FapiResponse) => {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.response as Json;
  };
  const refused = (res: FapiResponse, status: number, code: string) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.errors?.[0]?.code, code, JSON.stringify(res.body));
    return res.body.errors[0] as Json;
  };

  /** clerk-js's web3 sign-up, then /sign-up#/continue for the required email address. */
  async function signUpWithWallet(browser: Browser, wallet: PrivateKeyAccount, strategy = METAMASK) {
    const created = ok(await browser.post('/client/sign_ups', { web3_wallet: wallet.address }));
    const prepared = ok(
      await browser.post(`/client/sign_ups/${created.id}/prepare_verification`, { strategy }),
    );
    const message: string = prepared.verifications.web3_wallet.message;
    const attempted = ok(
      await browser.post(`/client/sign_ups/${created.id}/attempt_verification`, {
        strategy,
        signature: await sign(wallet, message),
      }),
    );
    assert.equal(attempted.status, 'missing_requirements');
    assert.equal(attempted.verifications.web3_wallet.status, 'verified');
    assert.deepEqual(attempted.missing_fields, ['email_address']);
    const email = uniqueEmail('web3');
    ok(await browser.patch(`/client/sign_ups/${created.id}`, { email_address: email }));
    ok(await browser.post(`/client/sign_ups/${created.id}/prepare_verification`, { strategy: 'email_code' }));
    const done = await browser.post(`/client/sign_ups/${created.id}/attempt_verification`, {
      strategy: 'email_code',
      code: await h.latestCode(email),
    });
    assert.equal(ok(done).status, 'complete');
    const session = done.body.client.sessions.find(
      (s: Json) => s.id === done.body.response.created_session_id,
    );
    return { email, user: session.user as Json };
  }

  /** Up to the nonce of a sign-in by wallet: create, then prepare_first_factor. */
  async function signInNonce(browser: Browser, identifier: string, strategy = METAMASK) {
    const created = ok(await browser.post('/client/sign_ins', { identifier }));
    const factor = created.supported_first_factors.find((f: Json) => f.strategy === strategy);
    assert.ok(factor, JSON.stringify(created.supported_first_factors));
    const prepared = ok(
      await browser.post(`/client/sign_ins/${created.id}/prepare_first_factor`, {
        strategy,
        web3_wallet_id: factor.web3_wallet_id,
      }),
    );
    assert.equal(prepared.first_factor_verification.status, 'unverified');
    return { id: created.id as string, message: prepared.first_factor_verification.message as string };
  }

  const attempt = (browser: Browser, id: string, signature: string, strategy = METAMASK) =>
    browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy, signature });

  it('the environment offers each configured wallet as a first factor', async () => {
    const env = (await h.browser().get('/environment')).body;
    const web3 = env.user_settings.attributes.web3_wallet;
    assert.equal(web3.enabled, true);
    assert.deepEqual(web3.first_factors, [METAMASK, COINBASE, 'web3_okx_wallet_signature']);
  });

  it('signs up with a wallet: no password, the required email address next, then a user with the wallet', async () => {
    const wallet = newWallet();
    const { user } = await signUpWithWallet(h.browser(), wallet);
    assert.equal(user.web3_wallets.length, 1);
    assert.equal(user.web3_wallets[0].web3_wallet, wallet.address, 'stored EIP-55 checksummed');
    assert.equal(user.web3_wallets[0].verification.status, 'verified');
    assert.equal(user.web3_wallets[0].verification.strategy, METAMASK);
    assert.equal(user.primary_web3_wallet_id, user.web3_wallets[0].id);
    assert.equal(user.password_enabled, false);
  });

  it('signs in with the wallet, its address in any case; an unknown address is form_identifier_not_found', async () => {
    const wallet = newWallet();
    const { user } = await signUpWithWallet(h.browser(), wallet);
    for (const identifier of [wallet.address.toLowerCase(), `0x${wallet.address.slice(2).toUpperCase()}`]) {
      const browser = h.browser();
      const { id, message } = await signInNonce(browser, identifier);
      const done = ok(await attempt(browser, id, await sign(wallet, message)));
      assert.equal(done.status, 'complete');
      const me = ok(await browser.get('/me'));
      assert.equal(me.id, user.id);
    }
    refused(
      await h.browser().post('/client/sign_ins', { identifier: newWallet().address }),
      422,
      'form_identifier_not_found',
    );
  });

  it('a sign-in by email address offers no wallet; an empty identifier is form_param_nil ("no web3 wallet found")', async () => {
    const wallet = newWallet();
    const { email } = await signUpWithWallet(h.browser(), wallet);
    const byEmail = ok(await h.browser().post('/client/sign_ins', { identifier: email }));
    assert.ok(!byEmail.supported_first_factors.some((f: Json) => f.strategy.startsWith('web3_')));
    const error = refused(
      await h.browser().post('/client/sign_ins', { identifier: '' }),
      422,
      'form_param_nil',
    );
    assert.equal(error.meta.param_name, 'identifier');
  });

  it('refuses a signature by another key, and the nonce it was sent for is spent', async () => {
    const wallet = newWallet();
    await signUpWithWallet(h.browser(), wallet);
    const browser = h.browser();
    const { id, message } = await signInNonce(browser, wallet.address);
    const error = refused(
      await attempt(browser, id, await sign(newWallet(), message)),
      422,
      'form_param_value_invalid',
    );
    // Not a field error: clerk-js's wallet button shows it on the card.
    assert.equal(error.meta?.param_name, undefined);
    refused(await attempt(browser, id, await sign(wallet, message)), 422, 'verification_failed');
    assert.equal(ok(await browser.get('/client')).sessions.length, 0);
    // A fresh nonce works.
    const again = ok(
      await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, { strategy: METAMASK }),
    );
    assert.notEqual(again.first_factor_verification.message, message);
    assert.equal(
      ok(await attempt(browser, id, await sign(wallet, again.first_factor_verification.message))).status,
      'complete',
    );
  });

  it("refuses a replayed signature, an earlier nonce of the same sign-in, and another sign-in's nonce", async () => {
    const wallet = newWallet();
    await signUpWithWallet(h.browser(), wallet);

    // Replay: the signature that completed one sign-in, sent to the next one.
    const first = h.browser();
    const one = await signInNonce(first, wallet.address);
    const used = await sign(wallet, one.message);
    ok(await attempt(first, one.id, used));
    const second = h.browser();
    const two = await signInNonce(second, wallet.address);
    refused(await attempt(second, two.id, used), 422, 'form_param_value_invalid');

    // An earlier nonce of the same sign-in, replaced by a second prepare.
    const third = h.browser();
    const old = await signInNonce(third, wallet.address);
    const fresh = ok(
      await third.post(`/client/sign_ins/${old.id}/prepare_first_factor`, { strategy: METAMASK }),
    );
    refused(await attempt(third, old.id, await sign(wallet, old.message)), 422, 'form_param_value_invalid');
    assert.ok(fresh.first_factor_verification.message);

    // Another browser's sign-in: its nonce, signed by the right wallet, does not open this one.
    const mine = h.browser();
    const theirs = h.browser();
    const a = await signInNonce(mine, wallet.address);
    const b = await signInNonce(theirs, wallet.address);
    refused(await attempt(mine, a.id, await sign(wallet, b.message)), 422, 'form_param_value_invalid');
    // Nor is another browser's sign-in reachable at all.
    refused(await attempt(mine, b.id, await sign(wallet, b.message)), 404, 'resource_not_found');
    assert.equal(ok(await theirs.get('/client')).sessions.length, 0);
  });

  it('refuses an attempt with no nonce prepared, and a nonce older than its lifetime', async () => {
    const wallet = newWallet();
    await signUpWithWallet(h.browser(), wallet);
    const browser = h.browser();
    const created = ok(await browser.post('/client/sign_ins', { identifier: wallet.address }));
    refused(await attempt(browser, created.id, await sign(wallet, 'anything')), 422, 'verification_missing');

    const { id, message } = await signInNonce(browser, wallet.address);
    h.clock.advance(11 * 60);
    refused(await attempt(browser, id, await sign(wallet, message)), 422, 'verification_expired');
    refused(await attempt(browser, id, await sign(wallet, message)), 422, 'verification_missing');
  });

  it("malformed and oversized signatures and addresses are 422 in Clerk's envelope, and change nothing", async () => {
    const wallet = newWallet();
    await signUpWithWallet(h.browser(), wallet);
    const browser = h.browser();
    const { id, message } = await signInNonce(browser, wallet.address);
    for (const signature of [
      '0x1234',
      'not-a-signature',
      `0x${'ab'.repeat(65)}00`,
      `0x${'f'.repeat(20_000)}`,
    ]) {
      const error = refused(await attempt(browser, id, signature), 422, 'form_param_format_invalid');
      assert.equal(error.meta.param_name, 'signature');
    }
    // A signature-shaped value that is no point on the curve: wrong, not a crash.
    refused(await attempt(browser, id, `0x${'00'.repeat(65)}`), 422, 'form_param_value_invalid');
    // The malformed ones spent nothing, but the wrong one did.
    refused(await attempt(browser, id, await sign(wallet, message)), 422, 'verification_failed');

    for (const web3_wallet of ['0x1234', `0x${'g'.repeat(40)}`, `0x${'a'.repeat(5000)}`, 'vitalik.eth']) {
      const error = refused(
        await h.browser().post('/client/sign_ups', { web3_wallet }),
        422,
        'form_param_format_invalid',
      );
      assert.equal(error.meta.param_name, 'web3_wallet');
    }
    const missing = refused(await attempt(browser, id, ''), 422, 'form_param_nil');
    assert.equal(missing.meta.param_name, 'signature');
  });

  it('a wallet an account owns cannot start another sign-up (form_identifier_exists), in any case', async () => {
    const wallet = newWallet();
    await signUpWithWallet(h.browser(), wallet);
    const error = refused(
      await h.browser().post('/client/sign_ups', { web3_wallet: wallet.address.toLowerCase() }),
      422,
      'form_identifier_exists',
    );
    assert.equal(error.meta.param_name, 'web3_wallet');
  });

  it("a sign-up's wallet is verified only by its own key", async () => {
    const wallet = newWallet();
    const browser = h.browser();
    const created = ok(await browser.post('/client/sign_ups', { web3_wallet: wallet.address }));
    const prepared = ok(
      await browser.post(`/client/sign_ups/${created.id}/prepare_verification`, { strategy: METAMASK }),
    );
    refused(
      await browser.post(`/client/sign_ups/${created.id}/attempt_verification`, {
        strategy: METAMASK,
        signature: await sign(newWallet(), prepared.verifications.web3_wallet.message),
      }),
      422,
      'form_param_value_invalid',
    );
    const after = ok(await browser.get(`/client/sign_ups/${created.id}`));
    assert.notEqual(after.verifications.web3_wallet.status, 'verified');
    assert.deepEqual(after.unverified_fields, ['web3_wallet']);
  });

  it('asks for the second factor after the wallet when the user has one', async () => {
    const wallet = newWallet();
    const browser = h.browser();
    await signUpWithWallet(browser, wallet);
    const { secret } = await enrolTotp(h, browser);
    ok(await browser.delete('/client/sessions'));

    const { id, message } = await signInNonce(browser, wallet.address);
    const first = ok(await attempt(browser, id, await sign(wallet, message)));
    assert.equal(first.status, 'needs_second_factor');
    assert.equal(first.created_session_id, null);
    assert.equal(ok(await browser.get('/client')).sessions.length, 0);
    // The first factor is not attempted again once passed.
    refused(await attempt(browser, id, await sign(wallet, message)), 422, 'sign_in_no_longer_actionable');
    // The next time step: the enrolment's code is spent.
    h.clock.advance(30);
    const second = ok(
      await browser.post(`/client/sign_ins/${id}/attempt_second_factor`, {
        strategy: 'totp',
        code: totpCode(secret, h.clock.now),
      }),
    );
    assert.equal(second.status, 'complete');
  });

  it('<UserProfile/>: adds a wallet by its signature, sets it primary, removes it; another key or owner is refused', async () => {
    const browser = h.browser();
    const { userId } = await signUp(h, browser, uniqueEmail('profile'));
    const wallet = newWallet();
    const created = ok(await browser.post('/me/web3_wallets', { web3_wallet: wallet.address.toLowerCase() }));
    assert.equal(created.web3_wallet, wallet.address);
    const prepared = ok(
      await browser.post(`/me/web3_wallets/${created.id}/prepare_verification`, { strategy: COINBASE }),
    );
    const message: string = prepared.verification.message;
    refused(
      await browser.post(`/me/web3_wallets/${created.id}/attempt_verification`, {
        signature: await sign(newWallet(), message),
      }),
      422,
      'form_param_value_invalid',
    );
    const again = ok(
      await browser.post(`/me/web3_wallets/${created.id}/prepare_verification`, { strategy: COINBASE }),
    );
    const verified = ok(
      await browser.post(`/me/web3_wallets/${created.id}/attempt_verification`, {
        signature: await sign(wallet, again.verification.message),
      }),
    );
    assert.equal(verified.verification.status, 'verified');
    assert.equal(verified.verification.strategy, COINBASE);
    const me = ok(await browser.get('/me'));
    assert.equal(me.id, userId);
    assert.equal(me.primary_web3_wallet_id, created.id);
    ok(await browser.patch('/me', { primary_web3_wallet_id: created.id }));

    // The wallet now signs this user in.
    const other = h.browser();
    const { id, message: nonce } = await signInNonce(other, wallet.address, COINBASE);
    assert.equal(ok(await attempt(other, id, await sign(wallet, nonce), COINBASE)).status, 'complete');

    // Another account cannot add it, nor see or remove it.
    const stranger = h.browser();
    await signUp(h, stranger, uniqueEmail('stranger'));
    refused(
      await stranger.post('/me/web3_wallets', { web3_wallet: wallet.address }),
      422,
      'form_identifier_exists',
    );
    refused(await stranger.delete(`/me/web3_wallets/${created.id}`), 404, 'resource_not_found');
    refused(
      await stranger.patch('/me', { primary_web3_wallet_id: created.id }),
      422,
      'form_param_value_invalid',
    );

    const removed = ok(await browser.delete(`/me/web3_wallets/${created.id}`));
    assert.deepEqual(removed, { object: 'web3_wallet', id: created.id, deleted: true });
    const after = ok(await browser.get('/me'));
    assert.deepEqual(after.web3_wallets, []);
    assert.equal(after.primary_web3_wallet_id, null);
    refused(
      await h.browser().post('/client/sign_ins', { identifier: wallet.address }),
      422,
      'form_identifier_not_found',
    );
  });

  it('a web3 user keeps a way to sign in: the wallet goes only while another identification remains', async () => {
    const wallet = newWallet();
    const browser = h.browser();
    const { user } = await signUpWithWallet(browser, wallet);
    // Only the wallet left: the email address removed behind the profile's back.
    await h.db.query('UPDATE users SET primary_email_address_id = NULL WHERE id = $1', [user.id]);
    await h.db.query('DELETE FROM email_addresses WHERE user_id = $1', [user.id]);
    refused(
      await browser.delete(`/me/web3_wallets/${user.web3_wallets[0].id}`),
      422,
      'identification_deletion_failed',
    );
  });

  it("Backend API: users.deleteUserWeb3Wallet removes the wallet; another user's is 404", async () => {
    const wallet = newWallet();
    const { user } = await signUpWithWallet(h.browser(), wallet);
    const walletId: string = user.web3_wallets[0].id;
    const other = (await signUp(h, h.browser(), uniqueEmail('other'))).userId;
    const del = (path: string) =>
      h.app.inject({
        method: 'DELETE',
        url: `/__clerk_backend${path}`,
        headers: { authorization: `Bearer ${h.identity.secretKey}` },
      });
    assert.equal((await del(`/v1/users/${other}/web3_wallets/${walletId}`)).statusCode, 404);
    const res = await del(`/v1/users/${user.id}/web3_wallets/${walletId}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { object: 'web3_wallet', id: walletId, deleted: true });
    const got = await h.bapi(`/v1/users/${user.id}`);
    assert.deepEqual(got.json().web3_wallets, []);
  });

  it('with web3 off, a wallet neither signs up, nor signs in, nor is offered', async () => {
    const wallet = newWallet();
    await signUpWithWallet(h.browser(), wallet);
    const { web3, ...rest } = h.identity.settings.settings;
    await h.identity.settings.set(rest);
    try {
      refused(
        await h.browser().post('/client/sign_ups', { web3_wallet: newWallet().address }),
        422,
        'form_param_value_invalid',
      );
      const env = (await h.browser().get('/environment')).body;
      assert.equal(env.user_settings.attributes.web3_wallet.enabled, false);
      const browser = h.browser();
      const created = ok(await browser.post('/client/sign_ins', { identifier: wallet.address }));
      assert.ok(!created.supported_first_factors.some((f: Json) => f.strategy.startsWith('web3_')));
      refused(
        await browser.post(`/client/sign_ins/${created.id}/prepare_first_factor`, { strategy: METAMASK }),
        422,
        'strategy_for_user_invalid',
      );
    } finally {
      await h.identity.settings.set({ ...h.identity.settings.settings, web3 });
    }
  });
});
