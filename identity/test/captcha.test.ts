import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { forEachBackend } from './support/backends.ts';
import { powToken } from './support/captcha.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type FapiResponse } from './support/harness.ts';
import { TurnstileStandIn } from './support/turnstile-stand-in.ts';
import { PROOF_OF_WORK_SITE_KEY } from '../src/captcha/captcha-environment.ts';

/**
 * Bot protection as clerk-js 5.90.0 drives it: `captcha_token` on `POST /client/sign_ups`,
 * `401 requires_captcha` answered by the captcha modal's `POST /client/verify`, the heartbeat on the same
 * route, and Clerk's error codes. Both providers for real: the proof of work solved here with altcha-lib
 * (as the page's widget does), Turnstile through a local siteverify stand-in.
 */

const PASSWORD = 'correct-horse-battery-staple-42';
const TURNSTILE_SECRET_ENV = 'CAPTCHA_TEST_TURNSTILE_SECRET';
const TURNSTILE_SECRET = '0x4AAAAAAA-test-secret';

function codeOf(res: FapiResponse): string | undefined {
  return res.body?.errors?.[0]?.code;
}

function signUpForm(extra: Record<string, string> = {}): Record<string, string> {
  return { email_address: uniqueEmail('captcha'), password: PASSWORD, ...extra };
}

forEachBackend('captcha (bot protection)', (backend) => {
  let h: Harness;
  let turnstile: TurnstileStandIn;

  before(async () => {
    process.env[TURNSTILE_SECRET_ENV] = TURNSTILE_SECRET;
    turnstile = await TurnstileStandIn.start(TURNSTILE_SECRET);
    h = await Harness.start(backend);
  });
  after(async () => {
    await h.close();
    await turnstile.stop();
  });

  async function useCaptcha(captcha: Record<string, unknown> | undefined) {
    const { captcha: _old, ...rest } = h.identity.settings.settings;
    await h.identity.settings.set(captcha === undefined ? rest : { ...rest, captcha });
  }
  const proofOfWork = (extra: Record<string, unknown> = {}) =>
    useCaptcha({ provider: 'proof_of_work', proofOfWork: { maxNumber: 2000 }, ...extra });
  const useTurnstile = (extra: Record<string, unknown> = {}) =>
    useCaptcha({
      provider: 'turnstile',
      turnstile: {
        siteKey: '1x00000000000000000000AA',
        secretKey: { env: TURNSTILE_SECRET_ENV },
        siteverifyUrl: turnstile.url,
      },
      ...extra,
    });

  describe('the environment', () => {
    it('development without settings: off, nothing for clerk-js to run', async () => {
      await useCaptcha(undefined);
      const env = (await h.browser().get('/environment')).body;
      assert.equal(env.user_settings.sign_up.captcha_enabled, false);
      assert.equal(env.display_config.captcha_public_key, null);
      assert.equal(env.display_config.captcha_heartbeat, false);
      // And a sign-up needs no token.
      const res = await h.browser().post('/client/sign_ups', signUpForm());
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });

    it('production without settings: the proof of work, on', async () => {
      const prod = await Harness.start(backend, {
        config: { mode: 'production', smtpUrl: 'smtp://127.0.0.1:9' },
      });
      try {
        const env = (await prod.browser().get('/environment')).body;
        assert.equal(env.user_settings.sign_up.captcha_enabled, true);
        assert.equal(env.display_config.captcha_public_key, PROOF_OF_WORK_SITE_KEY);
        assert.equal(env.display_config.captcha_public_key_invisible, PROOF_OF_WORK_SITE_KEY);
        assert.equal(env.display_config.captcha_provider, 'turnstile');
        assert.equal(env.display_config.captcha_widget_type, 'smart');
        const res = await prod.browser().post('/client/sign_ups', signUpForm());
        assert.equal(codeOf(res), 'captcha_missing_token');
      } finally {
        await prod.close();
      }
    });

    it('Turnstile: its site keys, the widget type, the heartbeat and the OAuth bypass list', async () => {
      await useTurnstile({
        widgetType: 'invisible',
        heartbeat: true,
        heartbeatIntervalMs: 5000,
        oauthBypass: ['oauth_google'],
      });
      const env = (await h.browser().get('/environment')).body;
      assert.equal(env.user_settings.sign_up.captcha_enabled, true);
      assert.equal(env.display_config.captcha_public_key, '1x00000000000000000000AA');
      assert.equal(env.display_config.captcha_widget_type, 'invisible');
      assert.equal(env.display_config.captcha_heartbeat, true);
      assert.equal(env.display_config.captcha_heartbeat_interval_ms, 5000);
      assert.deepEqual(env.display_config.captcha_oauth_bypass, ['oauth_google']);
      // The secret never shows.
      assert.ok(!JSON.stringify(env).includes(TURNSTILE_SECRET));
    });

    it('refuses Turnstile without its keys, and a secret written in the file', async () => {
      await assert.rejects(useCaptcha({ provider: 'turnstile' }), /turnstile/);
      await assert.rejects(
        useCaptcha({ provider: 'turnstile', turnstile: { siteKey: 'k', secretKey: 'plain-secret' } }),
        /secretKey/,
      );
    });
  });

  describe('sign-up with the proof of work', () => {
    beforeEach(() => proofOfWork());

    it('a solved challenge signs up; without one, captcha_missing_token and nothing created', async () => {
      const b = h.browser();
      const before = await h.count('sign_ups');
      const missing = await b.post('/client/sign_ups', signUpForm());
      assert.equal(missing.status, 400);
      assert.equal(codeOf(missing), 'captcha_missing_token');
      assert.equal(await h.count('sign_ups'), before);
      const ok = await b.post(
        '/client/sign_ups',
        signUpForm({ captcha_token: await powToken(b), captcha_widget_type: 'smart' }),
      );
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.client.captcha_bypass, false);
    });

    it('a token is spent once, on every instance (replay: captcha_invalid)', async () => {
      const b = h.browser();
      const token = await powToken(b);
      assert.equal((await b.post('/client/sign_ups', signUpForm({ captcha_token: token }))).status, 200);
      const again = await h.browser().post('/client/sign_ups', signUpForm({ captcha_token: token }));
      assert.equal(codeOf(again), 'captcha_invalid');
      const twin = await h.twin();
      try {
        const onTwin = await twin.browser().post('/client/sign_ups', signUpForm({ captcha_token: token }));
        assert.equal(codeOf(onTwin), 'captcha_invalid');
      } finally {
        await twin.close();
      }
    });

    it('a failed sign-up does not spend its token', async () => {
      const b = h.browser();
      const token = await powToken(b);
      const bad = await b.post('/client/sign_ups', { email_address: 'not-an-email', captcha_token: token });
      assert.equal(bad.status, 422);
      assert.equal((await b.post('/client/sign_ups', signUpForm({ captcha_token: token }))).status, 200);
    });

    it('refuses forged, tampered, unsolved, expired, oversized and malformed tokens', async () => {
      const b = h.browser();
      const challenge = (await b.get('/captcha/challenge')).body;
      const solution = await solveChallenge({ challenge, deriveKey });
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
      const cases: Record<string, string> = {
        unsolved: encode({ challenge, solution: { counter: 1, derivedKey: '00'.repeat(32) } }),
        tampered: encode({
          challenge: {
            ...challenge,
            parameters: { ...challenge.parameters, keyPrefix: solution!.derivedKey.slice(0, 2) },
          },
          solution,
        }),
        unsigned: encode({ challenge: { parameters: challenge.parameters }, solution }),
        'wrong algorithm': encode({
          challenge: { ...challenge, parameters: { ...challenge.parameters, algorithm: 'SHA-1' } },
          solution,
        }),
        oversized: 'A'.repeat(5000),
        'not base64': '%%%',
        'not JSON': Buffer.from('hello').toString('base64'),
        'a Turnstile token': '0.abcdef',
      };
      for (const [name, token] of Object.entries(cases)) {
        const res = await b.post('/client/sign_ups', signUpForm({ captcha_token: token }));
        assert.equal(codeOf(res), 'captcha_invalid', name);
      }
      h.clock.advance(601);
      try {
        const late = await b.post(
          '/client/sign_ups',
          signUpForm({ captcha_token: encode({ challenge, solution }) }),
        );
        assert.equal(codeOf(late), 'captcha_invalid', 'expired');
      } finally {
        h.clock.advance(-601);
      }
    });

    it('malformed captcha parameters are refused, whether the captcha is on or off', async () => {
      for (const on of [true, false]) {
        await (on ? proofOfWork() : useCaptcha({ enabled: false }));
        const b = h.browser();
        const widget = await b.post('/client/sign_ups', signUpForm({ captcha_widget_type: '__proto__' }));
        assert.equal(widget.status, 422);
        assert.equal(codeOf(widget), 'form_param_value_invalid');
        const error = await b.post('/client/sign_ups', signUpForm({ captcha_error: 'x'.repeat(201) }));
        assert.equal(codeOf(error), 'form_param_value_invalid');
        const action = await b.post('/client/verify', { captcha_action: 'steal' });
        assert.equal(codeOf(action), 'form_param_value_invalid');
      }
    });

    it('a widget that failed (captcha_error, no token): captcha_unavailable', async () => {
      const res = await h.browser().post('/client/sign_ups', signUpForm({ captcha_error: 'crashed' }));
      assert.equal(res.status, 400);
      assert.equal(codeOf(res), 'captcha_unavailable');
    });

    it('social providers of the bypass list need no token; others do', async () => {
      // No such provider is configured: past the captcha, the strategy itself is refused.
      const bypassed = await h.browser().post('/client/sign_ups', {
        strategy: 'oauth_google',
        redirect_url: 'http://localhost:3000/sso-callback',
      });
      assert.notEqual(codeOf(bypassed), 'captcha_missing_token');
      const notBypassed = await h.browser().post('/client/sign_ups', {
        strategy: 'oauth_github',
        redirect_url: 'http://localhost:3000/sso-callback',
      });
      assert.equal(codeOf(notBypassed), 'captcha_missing_token');
    });

    it('the challenge route serves the proof of work only', async () => {
      await useTurnstile();
      assert.equal(codeOf(await h.browser().get('/captcha/challenge')), 'captcha_not_enabled');
      await useCaptcha({ enabled: false });
      assert.equal(codeOf(await h.browser().get('/captcha/challenge')), 'captcha_not_enabled');
    });
  });

  describe('POST /client/verify (the modal, the heartbeat)', () => {
    it('captcha_not_enabled when the captcha is off', async () => {
      await useCaptcha({ enabled: false });
      const res = await h.browser().post('/client/verify', { captcha_token: 'x', captcha_action: 'verify' });
      assert.equal(res.status, 400);
      assert.equal(codeOf(res), 'captcha_not_enabled');
    });

    it('answers the client for a solved token; Clerk error codes otherwise', async () => {
      await proofOfWork({ heartbeat: true });
      const b = h.browser();
      const ok = await b.post('/client/verify', {
        captcha_token: await powToken(b),
        captcha_widget_type: 'invisible',
        captcha_action: 'heartbeat',
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.response.object, 'client');
      assert.equal(ok.body.response.captcha_bypass, false);
      assert.equal(
        codeOf(await b.post('/client/verify', { captcha_action: 'verify' })),
        'captcha_missing_token',
      );
      // What the heartbeat sends when clerk-js cannot run the captcha.
      const unusable = await b.post('/client/verify', {
        captcha_error: 'captcha_unavailable',
        captcha_action: 'heartbeat',
      });
      assert.equal(unusable.status, 400);
      assert.equal(codeOf(unusable), 'captcha_unavailable');
      assert.equal(codeOf(await b.post('/client/verify', { captcha_token: 'forged' })), 'captcha_invalid');
    });
  });

  describe('requires_captcha', () => {
    it('sign-ups of one browser past the threshold ask for the modal; each solve lets one through', async () => {
      await proofOfWork({ challenge: { signUpsPerClientPerHour: 2, signUpsPerIpPerHour: 100 } });
      const b = h.browser();
      for (let i = 0; i < 2; i++) {
        const res = await b.post('/client/sign_ups', signUpForm({ captcha_token: await powToken(b) }));
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const form = signUpForm({ captcha_token: await powToken(b) });
      const blocked = await b.post('/client/sign_ups', form);
      assert.equal(blocked.status, 401);
      assert.equal(codeOf(blocked), 'requires_captcha');
      // The modal's answer, then clerk-js sends the same request again: it goes through (its token unspent).
      const verified = await b.post('/client/verify', {
        captcha_token: await powToken(b),
        captcha_action: 'verify',
      });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal((await b.post('/client/sign_ups', form)).status, 200);
      // The pass is used: the next one asks again.
      const next = await b.post('/client/sign_ups', signUpForm({ captcha_token: await powToken(b) }));
      assert.equal(codeOf(next), 'requires_captcha');
      // Another browser on another address is not held back.
      const other = h.browser();
      assert.equal(
        (await other.post('/client/sign_ups', signUpForm({ captcha_token: await powToken(other) }))).status,
        200,
      );
    });

    it('sign-ups from one address past the threshold ask every new browser of it', async () => {
      await proofOfWork({ challenge: { signUpsPerClientPerHour: 100, signUpsPerIpPerHour: 2 } });
      const ip = '10.250.1.1';
      for (let i = 0; i < 2; i++) {
        const b = h.browser({ ip });
        assert.equal(
          (await b.post('/client/sign_ups', signUpForm({ captcha_token: await powToken(b) }))).status,
          200,
        );
      }
      const fresh = h.browser({ ip });
      const res = await fresh.post('/client/sign_ups', signUpForm({ captcha_token: await powToken(fresh) }));
      assert.equal(codeOf(res), 'requires_captcha');
      // A pass given to one browser is not another's.
      const solver = h.browser({ ip });
      await solver.post('/client/verify', { captcha_token: await powToken(solver) });
      assert.equal(
        codeOf(await fresh.post('/client/sign_ups', signUpForm({ captcha_token: await powToken(fresh) }))),
        'requires_captcha',
      );
    });

    it('an account under attack asks other browsers for the modal before each password; its owner is not', async () => {
      await useCaptcha(undefined);
      const email = uniqueEmail('attacked');
      const owner = h.browser();
      await signUp(h, owner, email, { password: PASSWORD });
      await owner.delete('/client/sessions');
      await proofOfWork({ challenge: { signInFailuresBeforeCaptcha: 2 } });
      for (let i = 0; i < 2; i++) {
        const res = await h.browser().post('/client/sign_ins', { identifier: email, password: `wrong-${i}` });
        assert.equal(codeOf(res), 'form_password_incorrect');
      }
      const attacker = h.browser();
      const blocked = await attacker.post('/client/sign_ins', { identifier: email, password: 'wrong-again' });
      assert.equal(blocked.status, 401);
      assert.equal(codeOf(blocked), 'requires_captcha');
      // Identifier first, then the password: asked at the password.
      const started = await attacker.post('/client/sign_ins', { identifier: email });
      assert.equal(started.status, 200);
      const signInId = started.body.response.id;
      const attempt = () =>
        attacker.post(`/client/sign_ins/${signInId}/attempt_first_factor`, {
          strategy: 'password',
          password: 'wrong-3',
        });
      assert.equal(codeOf(await attempt()), 'requires_captcha');
      await attacker.post('/client/verify', {
        captcha_token: await powToken(attacker),
        captcha_action: 'verify',
      });
      assert.equal(codeOf(await attempt()), 'form_password_incorrect');
      assert.equal(codeOf(await attempt()), 'requires_captcha');
      // The owner's browser, where the account signed in before, goes straight on.
      const mine = await owner.post('/client/sign_ins', { identifier: email, password: PASSWORD });
      assert.equal(mine.status, 200, JSON.stringify(mine.body));
      assert.equal(mine.body.response.status, 'complete');
    });
  });

  describe('Turnstile', () => {
    beforeEach(() => useTurnstile());

    it('verifies the token with Cloudflare (secret, remote IP) and signs up', async () => {
      const b = h.browser();
      const token = turnstile.issue();
      const res = await b.post(
        '/client/sign_ups',
        signUpForm({ captcha_token: token, captcha_widget_type: 'smart' }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const asked = turnstile.requests.at(-1)!;
      assert.equal(asked.secret, TURNSTILE_SECRET);
      assert.equal(asked.response, token);
      assert.equal(asked.remoteip, b.ip);
      // Spent: the same token again is refused.
      assert.equal(
        codeOf(await h.browser().post('/client/sign_ups', signUpForm({ captcha_token: token }))),
        'captcha_invalid',
      );
    });

    it('a token Cloudflare refuses: captcha_invalid; Cloudflare unreachable: captcha_unavailable (503)', async () => {
      assert.equal(
        codeOf(await h.browser().post('/client/sign_ups', signUpForm({ captcha_token: 'made-up' }))),
        'captcha_invalid',
      );
      turnstile.down = true;
      try {
        const res = await h
          .browser()
          .post('/client/sign_ups', signUpForm({ captcha_token: turnstile.issue() }));
        assert.equal(res.status, 503);
        assert.equal(codeOf(res), 'captcha_unavailable');
      } finally {
        turnstile.down = false;
      }
    });

    it('a token solved on another site (Cloudflare names it) is captcha_invalid and creates nothing', async () => {
      turnstile.hostname = 'phishing.example';
      try {
        const signUps = await h.count('sign_ups');
        const form = signUpForm({ captcha_token: turnstile.issue(), captcha_widget_type: 'smart' });
        const res = await h.browser().post('/client/sign_ups', form);
        assert.equal(codeOf(res), 'captcha_invalid', JSON.stringify(res.body));
        assert.equal(await h.count('sign_ups'), signUps);
      } finally {
        turnstile.hostname = 'localhost';
      }
    });

    it('the request sent again after requires_captcha keeps its token', async () => {
      await useTurnstile({ challenge: { signUpsPerClientPerHour: 1 } });
      const b = h.browser();
      assert.equal(
        (await b.post('/client/sign_ups', signUpForm({ captcha_token: turnstile.issue() }))).status,
        200,
      );
      const form = signUpForm({ captcha_token: turnstile.issue() });
      assert.equal(codeOf(await b.post('/client/sign_ups', form)), 'requires_captcha');
      assert.equal(
        (await b.post('/client/verify', { captcha_token: turnstile.issue(), captcha_action: 'verify' }))
          .status,
        200,
      );
      assert.equal((await b.post('/client/sign_ups', form)).status, 200);
    });
  });
});
