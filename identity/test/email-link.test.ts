import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { emailLinkSettingsFromEnv, type EmailLinkSettings } from '../src/email-links/settings.ts';
import { forEachBackend } from './support/backends.ts';
import { latestLink, openLink } from './support/email-links.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import {
  Harness,
  PUBLIC_URL,
  RAISED_SEND_LIMITS,
  uniqueEmail,
  type Browser,
  type FapiResponse,
  type Json,
} from './support/harness.ts';

/** Where clerk-js's hash-routed `<SignIn/>` asks the link to land. */
const SIGN_IN_LANDING = `${PUBLIC_URL}/sign-in#/verify`;
const SIGN_UP_LANDING = `${PUBLIC_URL}/sign-up#/verify`;

function assertError(res: FapiResponse, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code);
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

forEachBackend('email links', (backend) => {
  describe('sign-in by email link (the same browser required, the default)', () => {
    let h: Harness;
    let email: string;
    let emailId: string;
    let userId: string;
    before(async () => {
      // Every test here mails one address, far more often than a person would: the per-recipient sending
      // limit (send-limits.test.ts) is raised out of the way.
      h = await Harness.start(backend, {
        config: {
          sendLimits: RAISED_SEND_LIMITS,
        },
      });
      email = uniqueEmail('lin');
      const result = await signUp(h, h.browser(), email);
      userId = result.userId;
      emailId = result.client.sessions[0].user.email_addresses[0].id;
    });
    after(() => h.close());
    // A fresh rate-limit window per test: they reuse one identifier and the clock stands still otherwise.
    beforeEach(() => h.clock.advance(61));

    /** Identifier, then "Email link to …": returns the sign-in id and the mailed link. */
    async function requested(
      browser: Browser,
      redirectUrl = SIGN_IN_LANDING,
    ): Promise<{ id: string; link: string; res: FapiResponse }> {
      const created = await browser.post('/client/sign_ins', { identifier: email });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.response.id;
      const mailsBefore = (await h.mail(email)).length;
      const res = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
        strategy: 'email_link',
        email_address_id: emailId,
        redirect_url: redirectUrl,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await h.mail(email)).length, mailsBefore + 1, 'one mail was sent');
      return { id, link: await latestLink(h, email), res };
    }

    const poll = (browser: Browser, id: string) => browser.get(`/client/sign_ins/${id}`);

    it('email_link is a first factor of the environment and of the user', async () => {
      const env = await h.browser().get('/environment');
      const attr = env.body.user_settings.attributes.email_address;
      assert.deepEqual(attr.first_factors, ['email_code', 'email_link']);
      assert.deepEqual(attr.verifications, ['email_code'], 'sign-ups are verified by code by default');
      const created = await h.browser().post('/client/sign_ins', { identifier: email });
      const strategies = created.body.response.supported_first_factors.map((f: Json) => f.strategy);
      assert.deepEqual(strategies, ['password', 'email_code', 'email_link', 'reset_password_email_code']);
    });

    it('prepare mails a link to /v1/verify; the verification waits unverified for 10 minutes', async () => {
      const browser = h.browser({ headers: { 'accept-language': 'en' } });
      const { res, link } = await requested(browser);
      assert.equal(res.body.response.status, 'needs_first_factor');
      assert.deepEqual(res.body.response.first_factor_verification, {
        object: 'verification',
        status: 'unverified',
        strategy: 'email_link',
        attempts: null,
        expire_at: h.clock.now.getTime() + 600_000,
        verified_at_client: null,
      });
      assert.deepEqual(res.body.client.sign_in, res.body.response);
      assert.match(link, /^\/__clerk\/v1\/verify\?token=eml_[0-9A-Za-z]{27}\.[\w-]{43}$/);
      const [mail] = await h.mail(email);
      assert.match(mail!.subject, /Sign in to/);
      assert.ok(mail!.html.includes('/__clerk/v1/verify?token='), 'the HTML has the link too');
      // Only a keyed hash of the secret is stored.
      const secret = new URLSearchParams(link.split('?')[1]).get('token')!.split('.')[1]!;
      const rows = await h.db.query<Json>('SELECT * FROM email_links WHERE attempt_id = $1', [
        res.body.response.id,
      ]);
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(secret), 'the secret is not stored');
    });

    it('opened in the same browser: verified, the session is in this client, the waiting tab sees it', async () => {
      const browser = h.browser();
      const { id, link } = await requested(browser);
      const landing = await openLink(browser, link);
      assert.equal(`${landing.location.origin}${landing.location.pathname}`, `${PUBLIC_URL}/sign-in`);
      assert.equal(landing.location.hash, '#/verify', 'the hash route is kept');
      assert.equal(landing.status, 'verified');
      assert.match(landing.createdSession ?? '', /^sess_/);
      assert.ok(Number(landing.res.setCookies.get('__client_uat')?.value) >= 1, '__client_uat is set');

      const client = await browser.get('/client');
      assert.deepEqual(
        client.body.response.sessions.map((s: Json) => s.id),
        [landing.createdSession],
      );
      assert.equal(client.body.response.last_active_session_id, landing.createdSession);

      const polled = await poll(browser, id);
      assert.equal(polled.status, 200);
      assert.equal(polled.body.response.status, 'complete');
      assert.equal(polled.body.response.created_session_id, landing.createdSession);
      assert.equal(polled.body.response.first_factor_verification.status, 'verified');
      assert.equal(polled.body.response.first_factor_verification.strategy, 'email_link');
      // Not this browser's own client id: clerk-js's waiting tab would then show "Signed in on other tab" and
      // stay signed out. It makes the session active itself, as the tab that opened the link does.
      assert.equal(polled.body.response.first_factor_verification.verified_at_client, null);
      assert.deepEqual(
        polled.body.client.sessions.map((s: Json) => s.id),
        [landing.createdSession],
        'the poll carries the session the waiting tab makes active',
      );
      assert.equal(
        (await h.count('sessions', 'user_id = $1 AND status = $2', [userId, 'active'])) >= 1,
        true,
      );
    });

    it('a link works once: opened again it fails, and opens no second session', async () => {
      const browser = h.browser();
      const { link } = await requested(browser);
      assert.equal((await openLink(browser, link)).status, 'verified');
      const sessions = await h.count('sessions', 'user_id = $1', [userId]);
      const again = await openLink(browser, link);
      assert.equal(again.status, 'failed');
      assert.equal(again.createdSession, null);
      assert.equal(await h.count('sessions', 'user_id = $1', [userId]), sessions);
    });

    it('opened in another browser: client_mismatch, nothing verified, and the link still works where it was asked for', async () => {
      const browser = h.browser();
      const { id, link } = await requested(browser);
      const elsewhere = h.browser();
      await elsewhere.get('/client'); // a browser of its own
      await elsewhere.post('/client/sign_ins', {}); // with a client
      const mismatch = await openLink(elsewhere, link);
      assert.equal(mismatch.status, 'client_mismatch');
      assert.equal(mismatch.createdSession, null);
      assert.equal(`${mismatch.location.origin}${mismatch.location.pathname}`, `${PUBLIC_URL}/sign-in`);
      const stranger = h.browser(); // no client cookie at all
      assert.equal((await openLink(stranger, link)).status, 'client_mismatch');
      assert.deepEqual((await elsewhere.get('/client')).body.response.sessions, []);

      const waiting = await poll(browser, id);
      assert.equal(waiting.body.response.status, 'needs_first_factor');
      assert.equal(waiting.body.response.first_factor_verification.status, 'unverified');

      assert.equal((await openLink(browser, link)).status, 'verified');
    });

    it('after 10 minutes the waiting tab sees expired, and the link lands on expired', async () => {
      const browser = h.browser();
      const { id, link } = await requested(browser);
      h.clock.advance(10 * 60 + 1);
      const polled = await poll(browser, id);
      assert.equal(polled.body.response.first_factor_verification.status, 'expired');
      assert.equal(polled.body.client.sign_in.first_factor_verification.status, 'expired');
      const landing = await openLink(browser, link);
      assert.equal(landing.status, 'expired');
      assert.equal(landing.createdSession, null);
      assert.equal((await poll(browser, id)).body.response.status, 'needs_first_factor');
      assert.deepEqual((await browser.get('/client')).body.response.sessions, []);
    });

    it('an expired link opened before any poll marks the verification expired too', async () => {
      const browser = h.browser();
      const { id, link } = await requested(browser);
      h.clock.advance(10 * 60 + 1);
      assert.equal((await openLink(browser, link)).status, 'expired');
      const polled = await poll(browser, id);
      assert.equal(polled.body.response.first_factor_verification.status, 'expired');
      assert.equal((await openLink(browser, link)).status, 'failed', 'and it is spent');
    });

    it('resending replaces the link: the first one fails, the new one verifies', async () => {
      const browser = h.browser();
      const { id, link: first } = await requested(browser);
      const resent = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
        strategy: 'email_link',
        email_address_id: emailId,
        redirect_url: SIGN_IN_LANDING,
      });
      assert.equal(resent.status, 200);
      const second = await latestLink(h, email);
      assert.notEqual(second, first);
      assert.equal((await openLink(browser, first)).status, 'failed');
      assert.equal((await openLink(browser, second)).status, 'verified');
    });

    it('choosing another factor afterwards makes the link fail', async () => {
      const browser = h.browser();
      const { id, link } = await requested(browser);
      await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
        strategy: 'email_code',
        email_address_id: emailId,
      });
      assert.equal((await openLink(browser, link)).status, 'failed');
      assert.equal((await poll(browser, id)).body.response.status, 'needs_first_factor');
    });

    it('a newer sign-in on the browser makes the older link fail', async () => {
      const browser = h.browser();
      const { link } = await requested(browser);
      await browser.post('/client/sign_ins', { identifier: email });
      assert.equal((await openLink(browser, link)).status, 'failed');
      assert.deepEqual((await browser.get('/client')).body.response.sessions, []);
    });

    it('unknown, garbled or tampered tokens land on the sign-in page with failed', async () => {
      const browser = h.browser();
      const { link } = await requested(browser);
      const token = new URLSearchParams(link.split('?')[1]).get('token')!;
      const [id, secret] = token.split('.') as [string, string];
      const tampered = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
      for (const bad of [
        '',
        'nothing',
        `${id}.`,
        `.${secret}`,
        tampered,
        `eml_${'x'.repeat(27)}.${secret}`,
      ]) {
        const landing = await openLink(browser, `/__clerk/v1/verify?token=${encodeURIComponent(bad)}`);
        assert.equal(landing.status, 'failed', `token ${JSON.stringify(bad)}`);
        assert.equal(landing.location.toString(), `${PUBLIC_URL}/sign-in?__clerk_status=failed#/verify`);
      }
      const none = await openLink(browser, '/__clerk/v1/verify');
      assert.equal(none.status, 'failed');
      assert.equal((await openLink(browser, link)).status, 'verified', 'the real link still works');
    });

    it('redirect_url must be given and on an allowed origin; nothing is mailed otherwise', async () => {
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: email });
      const id = created.body.response.id;
      const before = (await h.mail(email)).length;
      const prepare = (form: Record<string, string>) =>
        browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
          strategy: 'email_link',
          email_address_id: emailId,
          ...form,
        });
      assertError(await prepare({}), 422, 'form_param_nil', 'redirect_url');
      for (const bad of ['https://evil.example/sign-in', 'javascript:alert(1)', '//evil.example/x']) {
        assertError(await prepare({ redirect_url: bad }), 422, 'form_param_value_invalid', 'redirect_url');
      }
      assert.equal((await h.mail(email)).length, before);
      // A relative URL is taken on the product's origin.
      const relative = await prepare({ redirect_url: '/sign-in#/verify' });
      assert.equal(relative.status, 200);
      const landing = await openLink(browser, await latestLink(h, email));
      assert.equal(landing.location.origin, PUBLIC_URL);
      assert.equal(landing.status, 'verified');
    });

    it('a link is opened, not attempted: attempt_first_factor with email_link is 422 strategy_for_user_invalid', async () => {
      const browser = h.browser();
      const { id } = await requested(browser);
      assertError(
        await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
          strategy: 'email_link',
          code: 'x',
        }),
        422,
        'strategy_for_user_invalid',
      );
    });

    it('strategy=email_link on create mails the link at once', async () => {
      const browser = h.browser();
      const before = (await h.mail(email)).length;
      const res = await browser.post('/client/sign_ins', {
        identifier: email,
        strategy: 'email_link',
        redirect_url: SIGN_IN_LANDING,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.first_factor_verification.strategy, 'email_link');
      assert.equal((await h.mail(email)).length, before + 1);
      assert.equal((await openLink(browser, await latestLink(h, email))).status, 'verified');
    });

    it('a browser that signed in meanwhile cannot use the link: failed', async () => {
      const browser = h.browser();
      const { link } = await requested(browser);
      const other = await browser.post('/client/sign_ins', { identifier: email });
      const done = await browser.post(`/client/sign_ins/${other.body.response.id}/attempt_first_factor`, {
        strategy: 'password',
        password: PASSWORD,
      });
      assert.equal(done.body.response.status, 'complete');
      assert.equal((await openLink(browser, link)).status, 'failed');
      assert.equal((await browser.get('/client')).body.response.sessions.length, 1);
    });
  });

  describe('sign-in by email link from any browser (same browser not required)', () => {
    let h: Harness;
    let email: string;
    before(async () => {
      h = await Harness.start(backend, { config: emailLinks({ requireSameClient: false }) });
      email = uniqueEmail('any');
      await signUp(h, h.browser(), email);
    });
    after(() => h.close());

    it('another browser verifies; the session opens on the browser that asked, which continues', async () => {
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', {
        identifier: email,
        strategy: 'email_link',
        redirect_url: SIGN_IN_LANDING,
      });
      const id = created.body.response.id;
      const phone = h.browser();
      await phone.post('/client/sign_ins', {}); // has a client of its own
      const landing = await openLink(phone, await latestLink(h, email));
      assert.equal(landing.status, 'verified');
      assert.match(landing.createdSession ?? '', /^sess_/);
      assert.deepEqual((await phone.get('/client')).body.response.sessions, [], 'not signed in there');

      const polled = await browser.get(`/client/sign_ins/${id}`);
      assert.equal(polled.body.response.status, 'complete');
      assert.equal(polled.body.response.created_session_id, landing.createdSession);
      const phoneClient = (await phone.get('/client')).body.response.id;
      assert.equal(polled.body.response.first_factor_verification.verified_at_client, phoneClient);
      assert.deepEqual(
        polled.body.client.sessions.map((s: Json) => s.id),
        [landing.createdSession],
        'the waiting browser holds the session',
      );
    });

    it('a browser without any client verifies too (verified_at_client null)', async () => {
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', {
        identifier: email,
        strategy: 'email_link',
        redirect_url: SIGN_IN_LANDING,
      });
      h.clock.advance(61);
      const landing = await openLink(h.browser(), await latestLink(h, email));
      assert.equal(landing.status, 'verified');
      const polled = await browser.get(`/client/sign_ins/${created.body.response.id}`);
      assert.equal(polled.body.response.status, 'complete');
      assert.equal(polled.body.response.first_factor_verification.verified_at_client, null);
    });
  });

  describe('email links with development keys (the browser known by its development-browser token)', () => {
    let h: Harness;
    let email: string;
    before(async () => {
      h = await Harness.start(backend, { config: { instanceKeys: 'development' } });
      email = uniqueEmail('dev');
      await signUp(h, h.browser(), email);
    });
    after(() => h.close());

    it("the link opened in the same browser is recognised by clerk-js's __clerk_db_jwt cookie", async () => {
      const browser = h.browser();
      const token = (await browser.post('/dev_browser')).body.id;
      const dev = { __clerk_db_jwt: token };
      const created = await browser.post('/client/sign_ins', { identifier: email }, dev);
      const id = created.body.response.id;
      const prepared = await browser.post(
        `/client/sign_ins/${id}/prepare_first_factor`,
        { strategy: 'email_link', redirect_url: SIGN_IN_LANDING },
        dev,
      );
      assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
      const link = await latestLink(h, email);
      // A navigation carries no query token: without the cookie this browser is a stranger.
      assert.equal((await openLink(h.browser(), link)).status, 'client_mismatch');
      browser.jar.set('__clerk_db_jwt', token);
      const landing = await openLink(browser, link);
      assert.equal(landing.status, 'verified');
      const client = await browser.get('/client', dev);
      assert.deepEqual(
        client.body.response.sessions.map((s: Json) => s.id),
        [landing.createdSession],
      );
      const polled = await browser.get(`/client/sign_ins/${id}`, dev);
      assert.equal(polled.body.response.first_factor_verification.verified_at_client, null);
    });
  });

  describe('sign-up by email link', () => {
    let h: Harness;
    before(async () => {
      h = await Harness.start(backend, { config: emailLinks({ signUpVerification: 'link' }) });
    });
    after(() => h.close());
    beforeEach(() => h.clock.advance(61));

    async function started(
      browser: Browser,
      email = uniqueEmail('new'),
    ): Promise<{ id: string; email: string; link: string; res: FapiResponse }> {
      const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.response.id;
      const res = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
        strategy: 'email_link',
        redirect_url: SIGN_UP_LANDING,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id, email, link: await latestLink(h, email), res };
    }

    it('the environment switches clerk-js to link verification', async () => {
      const env = await h.browser().get('/environment');
      assert.deepEqual(env.body.user_settings.attributes.email_address.verifications, [
        'email_code',
        'email_link',
      ]);
    });

    it('opened in the same browser: the user and the session are created, the waiting tab sees verified', async () => {
      const browser = h.browser({ headers: { 'accept-language': 'en' } });
      const { id, email, link, res } = await started(browser);
      const pending = res.body.response.verifications.email_address;
      assert.equal(pending.status, 'unverified');
      assert.equal(pending.strategy, 'email_link');
      assert.equal(pending.expire_at, h.clock.now.getTime() + 600_000);
      assert.equal(pending.verified_at_client, null);
      const [mail] = await h.mail(email);
      assert.match(mail!.subject, /Verify your email address/);

      const landing = await openLink(browser, link);
      assert.equal(landing.status, 'verified');
      assert.equal(`${landing.location.origin}${landing.location.pathname}`, `${PUBLIC_URL}/sign-up`);
      assert.match(landing.createdSession ?? '', /^sess_/);

      const polled = await browser.get(`/client/sign_ups/${id}`);
      assert.equal(polled.body.response.status, 'complete');
      assert.match(polled.body.response.created_user_id, /^user_/);
      assert.equal(polled.body.response.created_session_id, landing.createdSession);
      const client = await browser.get('/client');
      assert.equal(polled.body.response.verifications.email_address.status, 'verified');
      // Not this browser's own client id, so that the waiting tab completes too (see the sign-in case).
      assert.equal(polled.body.response.verifications.email_address.verified_at_client, null);
      const session = client.body.response.sessions[0];
      assert.equal(session.id, landing.createdSession);
      assert.equal(session.user.email_addresses[0].email_address, email);
      assert.equal(session.user.email_addresses[0].verification.status, 'verified');
      assert.equal((await openLink(browser, link)).status, 'failed', 'once only');
    });

    it('another browser: client_mismatch and no user', async () => {
      const browser = h.browser();
      const { id, email, link } = await started(browser);
      assert.equal((await openLink(h.browser(), link)).status, 'client_mismatch');
      assert.equal(await h.count('email_addresses', 'lower(email_address) = $1', [email]), 0);
      assert.equal(
        (await browser.get(`/client/sign_ups/${id}`)).body.response.status,
        'missing_requirements',
      );
    });

    it('expired: the waiting tab sees expired, the link lands on expired', async () => {
      const browser = h.browser();
      const { id, link } = await started(browser);
      h.clock.advance(10 * 60 + 1);
      const polled = await browser.get(`/client/sign_ups/${id}`);
      assert.equal(polled.body.response.verifications.email_address.status, 'expired');
      assert.equal((await openLink(browser, link)).status, 'expired');
      assert.equal(
        (await browser.get(`/client/sign_ups/${id}`)).body.response.status,
        'missing_requirements',
      );
    });

    it('a changed email address makes the link fail', async () => {
      const browser = h.browser();
      const { id, link } = await started(browser);
      const patched = await browser.patch(`/client/sign_ups/${id}`, { email_address: uniqueEmail('other') });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal((await openLink(browser, link)).status, 'failed');
    });

    it('an address taken meanwhile makes the link fail', async () => {
      const email = uniqueEmail('race');
      const browser = h.browser();
      const { link } = await started(browser, email);
      const rival = h.browser();
      const { link: rivalLink } = await started(rival, email);
      assert.equal((await openLink(rival, rivalLink)).status, 'verified');
      assert.equal((await openLink(browser, link)).status, 'failed');
      assert.equal(await h.count('email_addresses', 'lower(email_address) = $1', [email]), 1);
    });

    it('bad or missing redirect_url is refused', async () => {
      const browser = h.browser();
      const created = await browser.post('/client/sign_ups', {
        email_address: uniqueEmail('bad'),
        password: PASSWORD,
      });
      const id = created.body.response.id;
      assertError(
        await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_link' }),
        422,
        'form_param_nil',
        'redirect_url',
      );
      assertError(
        await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
          strategy: 'email_link',
          redirect_url: 'https://evil.example/sign-up',
        }),
        422,
        'form_param_value_invalid',
        'redirect_url',
      );
    });
  });

  describe('sign-up verified by code (the default)', () => {
    let h: Harness;
    before(async () => {
      h = await Harness.start(backend);
    });
    after(() => h.close());

    it('email_link is not a sign-up verification of this instance: 422', async () => {
      const browser = h.browser();
      const created = await browser.post('/client/sign_ups', {
        email_address: uniqueEmail('code'),
        password: PASSWORD,
      });
      assertError(
        await browser.post(`/client/sign_ups/${created.body.response.id}/prepare_verification`, {
          strategy: 'email_link',
          redirect_url: SIGN_UP_LANDING,
        }),
        422,
        'form_param_value_invalid',
        'strategy',
      );
    });
  });
});

/** The instance's email-link settings with some changed. */
function emailLinks(changes: Partial<EmailLinkSettings>): { emailLinks: EmailLinkSettings } {
  return { emailLinks: { ...emailLinkSettingsFromEnv({}), ...changes } };
}
