import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIdentity } from '../src/identity.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD } from './support/flows.ts';
import { Harness, testConfig, uniqueEmail, type Browser } from './support/harness.ts';
import { SmtpSink } from './support/smtp.ts';

async function startSignUp(browser: Browser, email: string): Promise<string> {
  const res = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.response.id;
}

forEachBackend('mail over SMTP', (backend) => {
  describe('development mode with SMTP_URL', () => {
    let smtp: SmtpSink;
    let h: Harness;
    before(async () => {
      smtp = await SmtpSink.start();
      h = await Harness.start(backend, { config: { smtpUrl: smtp.url } });
    });
    after(async () => {
      await h.close();
      await smtp.close();
    });

    it('prepare_verification delivers the code by SMTP and writes nothing to the outbox', async () => {
      assert.equal(h.identity.devOutbox, false);
      const browser = h.browser({ headers: { 'accept-language': 'en' } });
      const email = uniqueEmail('smtp');
      const id = await startSignUp(browser, email);
      const res = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
        strategy: 'email_code',
      });
      assert.equal(res.status, 200);

      const mails = smtp.to(email);
      assert.equal(mails.length, 1);
      assert.deepEqual(mails[0]!.to, [email]);
      assert.equal(mails[0]!.from, 'no-reply@localhost');
      const code = smtp.codeFor(email);
      const body = mails[0]!.raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n\n');
      assert.ok(body.includes(code), 'the body carries the code');
      assert.equal(await h.count('outbox'), 0);

      const done = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'email_code',
        code,
      });
      assert.equal(done.status, 200);
      assert.equal(done.body.response.status, 'complete');
    });

    it('/__dev/mail is not registered', async () => {
      const res = await h.app.inject({ method: 'GET', url: '/__dev/mail' });
      assert.equal(res.statusCode, 404);
      assert.equal((await h.app.inject({ method: 'GET', url: '/__dev/mail.html' })).statusCode, 404);
    });
  });

  describe('production mode', () => {
    let smtp: SmtpSink;
    let h: Harness;
    before(async () => {
      smtp = await SmtpSink.start();
      h = await Harness.start(backend, { config: { mode: 'production', smtpUrl: smtp.url } });
      // Signs up by script: bot protection, on by default in production (docs/captcha.md), is off here.
      await h.identity.settings.set({ ...h.identity.settings.settings, captcha: { enabled: false } });
    });
    after(async () => {
      await h.close();
      await smtp.close();
    });

    it('refuses to start without SMTP', async () => {
      await assert.rejects(
        createIdentity(testConfig({ mode: 'production', smtpUrl: null }), { memory: true }),
        /SMTP_URL/,
      );
    });

    it('reports a production instance and has no development outbox', async () => {
      const env = await h.browser().get('/environment');
      assert.equal(env.body.display_config.instance_environment_type, 'production');
      assert.equal((await h.app.inject({ method: 'GET', url: '/__dev/mail' })).statusCode, 404);
    });

    it('a +clerk_test address gets a real code by mail and 424242 is rejected', async () => {
      const browser = h.browser({ headers: { 'accept-language': 'en' } });
      const email = `prod-${Date.now()}+clerk_test@example.com`;
      const id = await startSignUp(browser, email);
      assert.equal(
        (await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' }))
          .status,
        200,
      );
      assert.equal(smtp.to(email).length, 1, 'test addresses are mailed in production');
      const code = smtp.codeFor(email);
      if (code !== '424242') {
        const res = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
          strategy: 'email_code',
          code: '424242',
        });
        assert.equal(res.status, 422);
        assert.equal(res.body.errors[0].code, 'form_code_incorrect');
      }
      const ok = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'email_code',
        code,
      });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.response.status, 'complete');
    });

    it('neither hands out development-browser tokens nor accepts the client token in the URL', async () => {
      const owner = h.browser();
      const put = await owner.call('PUT', '/client');
      assert.equal(put.status, 200);
      const token = owner.jar.get('__client')!;
      const viaUrl = await h.browser().get('/client', { __clerk_db_jwt: token });
      assert.deepEqual(
        viaUrl.body,
        { response: null, client: null },
        'a client token in the query string is ignored',
      );
      const created = await h.browser().post('/dev_browser');
      assert.equal(created.status, 404);
      assert.equal(created.body.errors[0].code, 'resource_not_found');
    });

    it('an unreachable SMTP server fails the request and leaves the sign-up unprepared', async () => {
      const browser = h.browser();
      const email = uniqueEmail('down');
      const id = await startSignUp(browser, email);
      await smtp.close();
      const res = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
        strategy: 'email_code',
      });
      assert.equal(res.status, 503);
      assert.equal(res.body.errors[0].code, 'service_unavailable');
      const reloaded = await browser.get(`/client/sign_ups/${id}`);
      assert.equal(reloaded.body.response.verifications.email_address.next_action, 'needs_prepare');
      assert.equal(await h.count('verification_codes', 'subject LIKE $1', [`sign_up:${id}:%`]), 0);
    });
  });
});
