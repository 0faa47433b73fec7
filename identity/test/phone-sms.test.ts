import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { smsSettingsFromEnv } from '../src/sms/settings.ts';
import { SmsUnavailableError } from '../src/sms/sms-sender.ts';
import { twilioSmsSender } from '../src/sms/twilio.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';
import { latestSmsCode, smsTo, uniquePhone } from './support/sms.ts';
import { TwilioStandIn } from './support/twilio.ts';

const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'twilio-auth-token-never-logged';
const FROM = '+15005550006';

function assertError(res: FapiResponse, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code);
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

/** A sign-up carrying `phone`, its email address already verified; returns its id. */
async function signUpWithPhone(h: Harness, browser: Browser, phone: string): Promise<string> {
  const email = uniqueEmail('sms');
  const created = await browser.post('/client/sign_ups', {
    email_address: email,
    password: PASSWORD,
    phone_number: phone,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.response.id;
  await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
  await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
    strategy: 'email_code',
    code: await h.latestCode(email),
  });
  return id;
}

describe('SMS settings', () => {
  it('Twilio needs its three variables together, and a sender that is a number or a Messaging Service', () => {
    assert.deepEqual(smsSettingsFromEnv({}), { twilio: null });
    assert.throws(() => smsSettingsFromEnv({ TWILIO_ACCOUNT_SID: ACCOUNT_SID }), /must be set together/);
    assert.throws(
      () =>
        smsSettingsFromEnv({
          TWILIO_ACCOUNT_SID: ACCOUNT_SID,
          TWILIO_AUTH_TOKEN: AUTH_TOKEN,
          TWILIO_FROM: 'Qoala',
        }),
      /TWILIO_FROM/,
    );
    const ok = smsSettingsFromEnv({
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_FROM: FROM,
    });
    assert.deepEqual(ok.twilio, {
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      from: FROM,
      apiUrl: 'https://api.twilio.com',
    });
  });

  it('a failing Twilio call says what failed without the message text (the code) or the token', async () => {
    const sender = twilioSmsSender(
      { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, apiUrl: 'http://127.0.0.1:9' },
      async () =>
        new Response(JSON.stringify({ code: 20003, message: `Authenticate ${AUTH_TOKEN}` }), { status: 401 }),
    );
    const err = await sender
      .send({ query: async () => [] }, { to: '+33612345678', text: '987654 is your code' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.ok(err instanceof SmsUnavailableError);
    assert.equal(err.message, 'Twilio answered 401 (error 20003)');
    assert.equal(err.recipientRejected, false);
    assert.ok(!err.message.includes('987654') && !err.message.includes(AUTH_TOKEN));
    const unreachable = twilioSmsSender(
      { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, apiUrl: 'http://127.0.0.1:9' },
      async () => {
        throw new TypeError('fetch failed');
      },
    );
    await assert.rejects(
      unreachable.send({ query: async () => [] }, { to: '+33612345678', text: 'x' }),
      /could not be reached/,
    );
  });
});

forEachBackend('SMS delivery', (backend) => {
  describe('development outbox (/__dev/sms)', () => {
    let h: Harness;
    before(async () => {
      h = await Harness.start(backend);
    });
    after(() => h.close());

    it('JSON newest first with to, text and created_at; ?to= finds a number however it is written', async () => {
      const phone = uniquePhone();
      const browser = h.browser();
      const id = await signUpWithPhone(h, browser, phone);
      await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
      h.clock.advance(61);
      await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
      const messages = await smsTo(h, phone);
      assert.equal(messages.length, 2);
      assert.deepEqual(Object.keys(messages[0]!).sort(), ['created_at', 'text', 'to']);
      assert.ok(messages[0]!.created_at >= messages[1]!.created_at, 'newest first');
      assert.equal(messages[0]!.text.match(/\d{6}/)![0], await latestSmsCode(h, phone));
      // A "+" unencoded in a query string arrives as a space; spaces and dashes are formatting.
      const loose = await h.app.inject({ method: 'GET', url: `/__dev/sms?to=${phone}` });
      assert.equal(loose.json().length, 2);
      const dashed = await h.app.inject({
        method: 'GET',
        url: `/__dev/sms?to=${encodeURIComponent(`${phone.slice(0, 3)} ${phone.slice(3, 6)}-${phone.slice(6)}`)}`,
      });
      assert.equal(dashed.json().length, 2);
      const all = await h.app.inject({ method: 'GET', url: '/__dev/sms' });
      assert.ok(all.json().length >= 2);
      // Mail stays in its own channel.
      assert.equal((await h.mail(phone)).length, 0);
    });

    it('an HTML view for people, reached from a browser', async () => {
      const redirect = await h.app.inject({
        method: 'GET',
        url: '/__dev/sms',
        headers: { accept: 'text/html' },
      });
      assert.equal(redirect.statusCode, 302);
      assert.equal(redirect.headers.location, '/__dev/sms.html');
      const page = await h.app.inject({ method: 'GET', url: '/__dev/sms.html' });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body, /Development outbox: sms/);
      // No Accept-Language on the request that sent it: the SMS speaks the product's default, French.
      assert.match(page.body, /est votre code de vérification Qoala/);
    });
  });

  describe('Twilio in development mode', () => {
    let twilio: TwilioStandIn;
    let h: Harness;
    before(async () => {
      twilio = await TwilioStandIn.start();
      h = await Harness.start(backend, {
        config: {
          sms: { twilio: { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, apiUrl: twilio.url } },
        },
      });
    });
    after(async () => {
      await h.close();
      await twilio.close();
    });

    it('sends through the Messages API (Basic auth, To/From/Body) and keeps nothing in an outbox', async () => {
      const phone = uniquePhone();
      const browser = h.browser({ headers: { 'accept-language': 'en-US,en;q=0.9' } });
      const id = await signUpWithPhone(h, browser, phone);
      const res = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
        strategy: 'phone_code',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [sent] = twilio.to(phone);
      assert.equal(sent!.method, 'POST');
      assert.equal(sent!.path, `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
      assert.equal(
        sent!.authorization,
        `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`,
      );
      assert.equal(sent!.form.get('From'), FROM);
      assert.match(sent!.form.get('Body')!, /^\d{6} is your Qoala verification code/);
      assert.equal(await h.count('outbox', "channel = 'sms'"), 0);
      assert.equal((await h.app.inject({ method: 'GET', url: '/__dev/sms' })).statusCode, 404);
      assert.equal(
        (await h.app.inject({ method: 'GET', url: '/__dev/mail' })).statusCode,
        200,
        'mail is still captured',
      );
      const done = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'phone_code',
        code: twilio.codeFor(phone),
      });
      assert.equal(done.body.response.status, 'complete');
    });

    it('Twilio failing is 503 and leaves no code behind; a refused recipient is 422 on phone_number', async () => {
      const phone = uniquePhone();
      const browser = h.browser();
      const id = await signUpWithPhone(h, browser, phone);
      const codesBefore = await h.count('verification_codes');
      twilio.answer = { status: 500, body: { code: 20500, message: 'Internal Server Error' } };
      try {
        const down = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
          strategy: 'phone_code',
        });
        assertError(down, 503, 'service_unavailable');
        assert.equal(down.headers['retry-after'], '2');
        assert.equal(await h.count('verification_codes'), codesBefore);
        h.clock.advance(61);
        twilio.answer = {
          status: 400,
          body: { code: 21614, message: "'To' number is not a valid mobile number" },
        };
        assertError(
          await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' }),
          422,
          'form_param_format_invalid',
          'phone_number',
        );
      } finally {
        twilio.answer = { status: 201, body: { sid: 'SM0', status: 'queued' } };
      }
      const state = await browser.get(`/client/sign_ups/${id}`);
      assert.equal(state.body.response.verifications.phone_number.next_action, 'needs_prepare');
    });

    it("Clerk's test numbers are still not texted in development", async () => {
      const phone = '+12015550142';
      const browser = h.browser();
      const id = await signUpWithPhone(h, browser, phone);
      await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
      assert.equal(twilio.to(phone).length, 0);
    });
  });

  describe('production mode', () => {
    let twilio: TwilioStandIn;
    let withoutSms: Harness;
    let withTwilio: Harness;
    before(async () => {
      twilio = await TwilioStandIn.start();
      const production = { mode: 'production' as const, smtpUrl: 'smtp://127.0.0.1:9' };
      withoutSms = await Harness.start(backend, { config: production });
      withTwilio = await Harness.start(backend, {
        config: {
          ...production,
          sms: {
            twilio: {
              accountSid: ACCOUNT_SID,
              authToken: AUTH_TOKEN,
              from: 'MG0123456789abcdef0123456789abcdef',
              apiUrl: twilio.url,
            },
          },
        },
      });
      // Signs up by script: bot protection, on by default in production (docs/captcha.md), is off here.
      for (const h of [withoutSms, withTwilio])
        await h.identity.settings.set({ ...h.identity.settings.settings, captcha: { enabled: false } });
    });
    after(async () => {
      await withoutSms.close();
      await withTwilio.close();
      await twilio.close();
    });

    it('without an SMS provider phone numbers are switched off: the environment hides them, sign-up refuses them', async () => {
      const env = (await withoutSms.browser().get('/environment')).body;
      assert.equal(env.user_settings.attributes.phone_number.enabled, false);
      assert.equal(env.user_settings.attributes.phone_number.used_for_second_factor, false);
      assertError(
        await withoutSms.browser().post('/client/sign_ups', {
          email_address: uniqueEmail(),
          password: PASSWORD,
          phone_number: uniquePhone(),
        }),
        422,
        'form_param_value_invalid',
        'phone_number',
      );
      assert.equal((await withoutSms.app.inject({ method: 'GET', url: '/__dev/sms' })).statusCode, 404);
      assert.equal(withoutSms.identity.deps.sms, null);
    });

    it('with Twilio (a Messaging Service) phone numbers are on, and test numbers are ordinary numbers', async () => {
      const env = (await withTwilio.browser().get('/environment')).body;
      assert.equal(env.user_settings.attributes.phone_number.enabled, true);
      const browser = withTwilio.browser();
      const email = uniqueEmail('prod');
      const created = await browser.post('/client/sign_ups', {
        email_address: email,
        password: PASSWORD,
        phone_number: '+12015550142',
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.response.id;
      const prepared = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
        strategy: 'phone_code',
      });
      assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
      const [sent] = twilio.to('+12015550142');
      assert.equal(sent!.form.get('MessagingServiceSid'), 'MG0123456789abcdef0123456789abcdef');
      assert.equal(sent!.form.get('From'), null);
      assertError(
        await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
          strategy: 'phone_code',
          code: '424242',
        }),
        422,
        'form_code_incorrect',
      );
    });
  });
});
