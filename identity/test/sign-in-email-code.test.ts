import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';

const wrong = (code: string) => code.replace(/^./, (d) => String((Number(d) + 1) % 10));

forEachBackend('sign-in with an emailed code', (backend) => {
  let h: Harness;
  let email: string;
  let emailId: string;
  before(async () => {
    h = await Harness.start(backend);
    email = uniqueEmail('grace');
    const result = await signUp(h, h.browser(), email);
    emailId = result.client.sessions[0].user.email_addresses[0].id;
  });
  after(() => h.close());
  // Each test in a fresh rate-limit window: they reuse one identifier and the clock stands still.
  beforeEach(() => h.clock.advance(61));

  function assertError(res: FapiResponse, status: number, code: string, param?: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, code);
    if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
  }

  /** Identifier, then prepare_first_factor; returns the sign-in id and the mailed code. */
  async function prepared(
    browser: Browser,
    address = email,
    addressId = emailId,
  ): Promise<{ id: string; code: string; res: FapiResponse }> {
    const created = await browser.post('/client/sign_ins', { identifier: address });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.response.id;
    const mailsBefore = (await h.mail(address)).length;
    const res = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'email_code',
      email_address_id: addressId,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await h.mail(address)).length, mailsBefore + 1, 'one mail was sent');
    return { id, code: await h.latestCode(address), res };
  }

  const attempt = (browser: Browser, id: string, code: string) =>
    browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: 'email_code', code });

  it('prepare_first_factor mails a code; attempting it completes the sign-in', async () => {
    const browser = h.browser();
    const { id, code, res } = await prepared(browser);
    assert.equal(res.body.response.status, 'needs_first_factor');
    assert.deepEqual(res.body.response.first_factor_verification, {
      object: 'verification',
      status: 'unverified',
      strategy: 'email_code',
      attempts: 0,
      expire_at: h.clock.now.getTime() + 600_000,
    });
    assert.deepEqual(res.body.client.sign_in, res.body.response);
    const [mail] = await h.mail(email);
    assert.equal(mail!.to, email);
    assert.match(code, /^\d{6}$/);

    const done = await attempt(browser, id, code);
    assert.equal(done.status, 200);
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.response.first_factor_verification.status, 'verified');
    assert.equal(done.body.response.first_factor_verification.strategy, 'email_code');
    assert.equal(done.body.client.sessions.length, 1);
    assert.equal(done.body.client.sessions[0].id, done.body.response.created_session_id);
    assert.equal(done.body.client.sessions[0].status, 'active');
    assert.ok(Number(done.setCookies.get('__client_uat')?.value) >= 1);
  });

  it('strategy=email_code on create sends the code at once', async () => {
    const browser = h.browser();
    const before = (await h.mail(email)).length;
    const res = await browser.post('/client/sign_ins', { identifier: email, strategy: 'email_code' });
    assert.equal(res.status, 200);
    assert.equal(res.body.response.first_factor_verification.strategy, 'email_code');
    assert.equal((await h.mail(email)).length, before + 1);
    const done = await attempt(browser, res.body.response.id, await h.latestCode(email));
    assert.equal(done.status, 200);
    assert.equal(done.body.response.status, 'complete');
  });

  it('a wrong code is 422 form_code_incorrect (param code) and counted', async () => {
    const browser = h.browser();
    const { id, code } = await prepared(browser);
    const res = await attempt(browser, id, wrong(code));
    assertError(res, 422, 'form_code_incorrect', 'code');
    assert.equal(res.body.client.sign_in.first_factor_verification.attempts, 1);
    assert.equal(res.body.client.sign_in.status, 'needs_first_factor');
    assert.deepEqual(res.body.client.sessions, []);
    assert.equal((await attempt(browser, id, code)).status, 200);
  });

  it('a code attempted after 10 minutes is 422 verification_expired', async () => {
    const browser = h.browser();
    const { id, code } = await prepared(browser);
    h.clock.advance(10 * 60 + 1);
    const res = await attempt(browser, id, code);
    assertError(res, 422, 'verification_expired');
    assert.equal(res.body.client.sign_in.first_factor_verification.status, 'expired');
    assert.deepEqual(res.body.client.sessions, []);
  });

  it('five wrong codes → verification_failed; the right code is refused afterwards', async () => {
    const browser = h.browser();
    const { id, code } = await prepared(browser);
    for (let i = 1; i <= 4; i++)
      assertError(await attempt(browser, id, wrong(code)), 422, 'form_code_incorrect', 'code');
    const fifth = await attempt(browser, id, wrong(code));
    assertError(fifth, 422, 'verification_failed');
    assert.equal(fifth.body.client.sign_in.first_factor_verification.status, 'failed');
    assertError(await attempt(browser, id, code), 422, 'verification_failed');
  });

  it('attempting before preparing is 422 verification_missing; a missing code 422 form_param_nil', async () => {
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: email });
    const id = created.body.response.id;
    assertError(await attempt(browser, id, '123456'), 422, 'verification_missing');
    assertError(
      await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: 'email_code' }),
      422,
      'form_param_nil',
      'code',
    );
  });

  it("preparing with another account's email_address_id is 422 and mails nobody", async () => {
    const other = uniqueEmail('other');
    const otherResult = await signUp(h, h.browser(), other);
    const otherEmailId = otherResult.client.sessions[0].user.email_addresses[0].id;
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: email });
    const mailsBefore = { mine: (await h.mail(email)).length, theirs: (await h.mail(other)).length };
    const res = await browser.post(`/client/sign_ins/${created.body.response.id}/prepare_first_factor`, {
      strategy: 'email_code',
      email_address_id: otherEmailId,
    });
    assertError(res, 422, 'form_param_value_invalid', 'email_address_id');
    assert.equal((await h.mail(email)).length, mailsBefore.mine);
    assert.equal((await h.mail(other)).length, mailsBefore.theirs);
  });

  it('a code issued for one sign-in does not work for another', async () => {
    const browser = h.browser();
    const first = await prepared(browser);
    const second = await prepared(h.browser());
    if (first.code !== second.code)
      assertError(await attempt(browser, first.id, second.code), 422, 'form_code_incorrect', 'code');
  });

  it('test mode: a +clerk_test user signs in with 424242 and gets no mail', async () => {
    const address = `y-${Date.now()}+clerk_test@example.com`;
    const up = h.browser();
    const created = await up.post('/client/sign_ups', {
      email_address: address,
      password: 'correct horse battery',
    });
    const sid = created.body.response.id;
    await up.post(`/client/sign_ups/${sid}/prepare_verification`, { strategy: 'email_code' });
    const done = await up.post(`/client/sign_ups/${sid}/attempt_verification`, {
      strategy: 'email_code',
      code: '424242',
    });
    assert.equal(done.status, 200);
    const addressId = done.body.client.sessions[0].user.email_addresses[0].id;

    const browser = h.browser();
    const signIn = await browser.post('/client/sign_ins', { identifier: address });
    const id = signIn.body.response.id;
    const prep = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'email_code',
      email_address_id: addressId,
    });
    assert.equal(prep.status, 200);
    assert.deepEqual(await h.mail(address), []);
    const res = await attempt(browser, id, '424242');
    assert.equal(res.status, 200);
    assert.equal(res.body.response.status, 'complete');
  });
});
