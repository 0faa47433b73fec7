import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { assertError } from './support/organizations.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';

forEachBackend('email addresses in <UserProfile/>', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  async function member() {
    const email = uniqueEmail('owner');
    const browser = h.browser();
    const signedIn = await signUp(h, browser, email);
    return {
      email,
      browser,
      primaryId: signedIn.client.sessions[0].user.primary_email_address_id,
      ...signedIn,
    };
  }

  /** Add (clerk-js posts to `/me/email_addresses/` with a trailing slash), prepare and verify. */
  async function addVerified(browser: Browser, email: string): Promise<Json> {
    const created = await browser.post('/me/email_addresses/', { email_address: email });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.response.id;
    await browser.post(`/me/email_addresses/${id}/prepare_verification`, { strategy: 'email_code' });
    const verified = await browser.post(`/me/email_addresses/${id}/attempt_verification`, {
      code: await h.latestCode(email),
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    return verified.body.response;
  }

  it('a verified address becomes primary when the user has none, and never replaces one', async () => {
    const { browser, primaryId, ...signedIn } = await member();
    const userId = signedIn.client.sessions[0].user.id;
    // An account with no primary address (made by phone, a wallet or SSO elsewhere): billing asks for one.
    await h.db.query('UPDATE users SET primary_email_address_id = NULL WHERE id = $1', [userId]);
    const first = await addVerified(browser, uniqueEmail('payer'));
    const [row] = await h.db.query<{ primary_email_address_id: string | null }>(
      'SELECT primary_email_address_id FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(row!.primary_email_address_id, first.id);
    await addVerified(browser, uniqueEmail('another'));
    const [after] = await h.db.query<{ primary_email_address_id: string | null }>(
      'SELECT primary_email_address_id FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(after!.primary_email_address_id, first.id);
    assert.notEqual(first.id, primaryId);
  });

  it('a new address starts unverified, in the response and on the user', async () => {
    const { browser } = await member();
    const email = uniqueEmail('Second');
    const res = await browser.post('/me/email_addresses/', { email_address: email });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.object, 'email_address');
    assert.match(res.body.response.id, /^idn_/);
    assert.equal(res.body.response.email_address, email.toLowerCase());
    assert.equal(res.body.response.verification, null);
    const user = res.body.client.sessions[0].user;
    assert.equal(user.email_addresses.length, 2);
    assertError(
      await browser.post('/me/email_addresses', { email_address: 'nope' }),
      422,
      'form_param_format_invalid',
      'email_address',
    );
    assertError(await browser.post('/me/email_addresses', {}), 422, 'form_param_nil', 'email_address');
  });

  it('an address on this account or verified by another is form_identifier_exists', async () => {
    const { browser, email } = await member();
    const other = await member();
    assertError(
      await browser.post('/me/email_addresses', { email_address: email.toUpperCase() }),
      422,
      'form_identifier_exists',
      'email_address',
    );
    assertError(
      await browser.post('/me/email_addresses', { email_address: other.email }),
      422,
      'form_identifier_exists',
      'email_address',
    );
    const pending = uniqueEmail('pending');
    assert.equal((await browser.post('/me/email_addresses', { email_address: pending })).status, 200);
    assertError(
      await browser.post('/me/email_addresses', { email_address: pending }),
      422,
      'form_identifier_exists',
      'email_address',
    );
  });

  it('the emailed code verifies the address: codes are single use, expire, and wrong ones count', async () => {
    const { browser } = await member();
    const email = uniqueEmail('verify');
    const created = await browser.post('/me/email_addresses', { email_address: email });
    const id = created.body.response.id;
    assertError(
      await browser.post(`/me/email_addresses/${id}/attempt_verification`, { code: '123456' }),
      422,
      'verification_missing',
    );
    assertError(
      await browser.post(`/me/email_addresses/${id}/prepare_verification`, { strategy: 'email_link' }),
      422,
      'form_param_value_invalid',
      'strategy',
    );

    const prepared = await browser.post(`/me/email_addresses/${id}/prepare_verification`, {
      strategy: 'email_code',
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    assert.equal(prepared.body.response.verification.status, 'unverified');
    assert.equal(prepared.body.response.verification.strategy, 'email_code');
    const [mail] = await h.mail(email);
    // The browser sends no Accept-Language: the code speaks the product's default, French.
    assert.match(mail!.subject, /code de vérification/);
    const code = await h.latestCode(email);
    const [stored] = await h.db.query<{ code_hash: string }>(
      `SELECT code_hash FROM verification_codes WHERE subject LIKE $1`,
      [`email_address:${id}:%`],
    );
    assert.notEqual(stored!.code_hash, code, 'only a keyed hash is stored');

    const wrong = code === '000000' ? '111111' : '000000';
    const failed = await browser.post(`/me/email_addresses/${id}/attempt_verification`, { code: wrong });
    assertError(failed, 422, 'form_code_incorrect', 'code');
    assert.equal(failed.body.client.sessions[0].user.email_addresses[1].verification.attempts, 1);

    h.clock.advance(h.config.codeTtlSeconds + 1);
    assertError(
      await browser.post(`/me/email_addresses/${id}/attempt_verification`, { code }),
      422,
      'verification_expired',
    );

    await browser.post(`/me/email_addresses/${id}/prepare_verification`, { strategy: 'email_code' });
    const fresh = await h.latestCode(email);
    const verified = await browser.post(`/me/email_addresses/${id}/attempt_verification`, { code: fresh });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.response.verification.status, 'verified');
    const again = await browser.get(`/me/email_addresses/${id}`);
    assert.equal(again.body.response.verification.status, 'verified');
  });

  it('five wrong codes fail the verification', async () => {
    const { browser } = await member();
    const email = uniqueEmail('fail');
    const id = (await browser.post('/me/email_addresses', { email_address: email })).body.response.id;
    await browser.post(`/me/email_addresses/${id}/prepare_verification`, { strategy: 'email_code' });
    const code = await h.latestCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    let last: FapiResponse | undefined;
    for (let i = 0; i < h.config.maxCodeAttempts; i++) {
      last = await browser.post(`/me/email_addresses/${id}/attempt_verification`, { code: wrong });
    }
    assertError(last!, 422, 'verification_failed');
    assertError(
      await browser.post(`/me/email_addresses/${id}/attempt_verification`, { code }),
      422,
      'verification_failed',
    );
  });

  it('an unverified copy on another account blocks nobody, and goes once the address is verified', async () => {
    const squatter = await member();
    const victim = uniqueEmail('victim');
    const squatted = await squatter.browser.post('/me/email_addresses', { email_address: victim });
    assert.equal(squatted.status, 200);
    // The owner can still sign up with it…
    const owner = h.browser();
    const { userId } = await signUp(h, owner, victim);
    // …which drops the unverified copy, and nobody else can verify it any more.
    assert.equal(await h.count('email_addresses', 'lower(email_address) = lower($1)', [victim]), 1);
    assertError(
      await squatter.browser.post(`/me/email_addresses/${squatted.body.response.id}/prepare_verification`, {
        strategy: 'email_code',
      }),
      404,
      'resource_not_found',
    );
    assert.equal(
      (
        await h.db.query<{ user_id: string }>(
          'SELECT user_id FROM email_addresses WHERE lower(email_address) = lower($1)',
          [victim],
        )
      )[0]!.user_id,
      userId,
    );
  });

  it('when two accounts wait on one address, the first to verify it keeps it', async () => {
    const a = await member();
    const b = await member();
    const shared = uniqueEmail('shared');
    const idA = (await a.browser.post('/me/email_addresses', { email_address: shared })).body.response.id;
    const idB = (await b.browser.post('/me/email_addresses', { email_address: shared })).body.response.id;
    await b.browser.post(`/me/email_addresses/${idB}/prepare_verification`, { strategy: 'email_code' });
    const codeB = await h.latestCode(shared);
    await addVerifiedExisting(a.browser, idA, shared);
    assertError(
      await b.browser.post(`/me/email_addresses/${idB}/attempt_verification`, { code: codeB }),
      404,
      'resource_not_found',
    );
  });

  async function addVerifiedExisting(browser: Browser, id: string, email: string) {
    await browser.post(`/me/email_addresses/${id}/prepare_verification`, { strategy: 'email_code' });
    const res = await browser.post(`/me/email_addresses/${id}/attempt_verification`, {
      code: await h.latestCode(email),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  it('a verified address becomes primary, signs in, and the old one can then be removed', async () => {
    const { browser, email: old, primaryId } = await member();
    const second = uniqueEmail('new-primary');
    const added = await addVerified(browser, second);
    const primary = await browser.patch('/me', { primary_email_address_id: added.id });
    assert.equal(primary.status, 200, JSON.stringify(primary.body));
    assert.equal(primary.body.response.primary_email_address_id, added.id);
    assert.equal(primary.body.client.sessions[0].public_user_data.identifier, second);

    const removed = await browser.delete(`/me/email_addresses/${primaryId}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.response, { object: 'email_address', id: primaryId, deleted: true });
    assert.deepEqual(
      removed.body.client.sessions[0].user.email_addresses.map((e: Json) => e.email_address),
      [second],
    );
    await signInWithPassword(h.browser(), second, PASSWORD);
    assertError(
      await h.browser().post('/client/sign_ins', { identifier: old }),
      422,
      'form_identifier_not_found',
    );
  });

  it('the last verified address cannot be removed; removing the primary promotes another', async () => {
    const { browser, primaryId } = await member();
    assertError(
      await browser.delete(`/me/email_addresses/${primaryId}`),
      422,
      'identification_deletion_failed',
    );

    const pending = await browser.post('/me/email_addresses', { email_address: uniqueEmail('pending') });
    assertError(
      await browser.delete(`/me/email_addresses/${primaryId}`),
      422,
      'identification_deletion_failed',
    );
    assert.equal((await browser.delete(`/me/email_addresses/${pending.body.response.id}`)).status, 200);

    const second = await addVerified(browser, uniqueEmail('backup'));
    const removed = await browser.delete(`/me/email_addresses/${primaryId}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.client.sessions[0].user.primary_email_address_id, second.id);
  });

  it('another user’s address is not found, whatever the call', async () => {
    const { browser } = await member();
    const other = await member();
    for (const res of [
      await browser.get(`/me/email_addresses/${other.primaryId}`),
      await browser.post(`/me/email_addresses/${other.primaryId}/prepare_verification`, {
        strategy: 'email_code',
      }),
      await browser.post(`/me/email_addresses/${other.primaryId}/attempt_verification`, { code: '123456' }),
      await browser.delete(`/me/email_addresses/${other.primaryId}`),
    ]) {
      assertError(res, 404, 'resource_not_found');
    }
    assert.equal(await h.count('email_addresses', 'id = $1', [other.primaryId]), 1);
  });

  it('a +clerk_test address verifies with 424242 in development mode and receives no mail', async () => {
    const { browser } = await member();
    const email = uniqueEmail('x').replace('@', '+clerk_test@');
    const id = (await browser.post('/me/email_addresses', { email_address: email })).body.response.id;
    await browser.post(`/me/email_addresses/${id}/prepare_verification`, { strategy: 'email_code' });
    assert.deepEqual(await h.mail(email), []);
    const res = await browser.post(`/me/email_addresses/${id}/attempt_verification`, { code: '424242' });
    assert.equal(res.body.response.verification.status, 'verified');
  });
});
