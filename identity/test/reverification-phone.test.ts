import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Json } from './support/harness.ts';
import {
  addVerifiedPhone,
  latestSmsCode,
  reserveForSecondFactor,
  uniquePhone,
  wrongCode,
} from './support/sms.ts';

const ELEVEN_MINUTES = 11 * 60;

forEachBackend('re-verification with SMS codes', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  async function withPhone(reserved: boolean) {
    const browser = h.browser();
    const { sessionId } = await signUp(h, browser, uniqueEmail('reverify-sms'));
    const phone = uniquePhone();
    const added = await addVerifiedPhone(h, browser, phone);
    if (reserved) await reserveForSecondFactor(browser, added.id);
    h.clock.advance(ELEVEN_MINUTES);
    const verify = (step: string, form: Record<string, string> = {}) =>
      browser.post(`/client/sessions/${sessionId}/verify${step}`, form);
    return { browser, phone, phoneId: added.id as string, verify };
  }

  it('a sign-in phone number is a first factor: a texted code re-verifies', async () => {
    const { browser, phone, phoneId, verify } = await withPhone(false);
    assert.equal((await browser.delete('/me')).body.errors[0].code, 'session_reverification_required');
    const started = (await verify('', { level: 'first_factor' })).body.response;
    const factor = started.supported_first_factors.find((f: Json) => f.strategy === 'phone_code');
    assert.equal(factor.phone_number_id, phoneId);
    const prepared = await verify('/prepare_first_factor', {
      strategy: 'phone_code',
      phone_number_id: phoneId,
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const code = await latestSmsCode(h, phone);
    const bad = await verify('/attempt_first_factor', { strategy: 'phone_code', code: wrongCode(code) });
    assert.equal(bad.body.errors[0].code, 'form_code_incorrect');
    const done = await verify('/attempt_first_factor', { strategy: 'phone_code', code });
    assert.equal(done.body.response.status, 'complete');
    assert.equal((await browser.delete('/me')).status, 200);
  });

  it('a number reserved for two-step verification is the second factor asked: prepare_second_factor texts it', async () => {
    const { browser, phone, phoneId, verify } = await withPhone(true);
    const started = (await verify('', { level: 'second_factor' })).body.response;
    assert.equal(started.status, 'needs_second_factor');
    assert.ok(started.supported_second_factors.some((f: Json) => f.strategy === 'phone_code'));
    const prepared = await verify('/prepare_second_factor', {
      strategy: 'phone_code',
      phone_number_id: phoneId,
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    assert.equal(prepared.body.response.second_factor_verification.strategy, 'phone_code');
    const done = await verify('/attempt_second_factor', {
      strategy: 'phone_code',
      code: await latestSmsCode(h, phone),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.response.session.factor_verification_age[1], 0);
    assert.equal((await browser.delete('/me')).status, 200);
  });
});
