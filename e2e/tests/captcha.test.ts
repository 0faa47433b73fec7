import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page, Request } from 'playwright-core';
import { TurnstileStandIn } from '../../identity/test/support/turnstile-stand-in.ts';
import { uniqueEmail, waitForHash } from '../support/flows.ts';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Bot protection through the unmodified Clerk UI (clerk-js 5.90.0) in Chromium: the proof-of-work
 * captcha for real (the page's own Turnstile-shaped widget solving the instance's ALTCHA challenges) on
 * <SignUp/>, in the blank captcha modal clerk-js opens on `requires_captcha`, and in the heartbeat; then
 * Turnstile with a stand-in `window.turnstile` in the page and a local siteverify, for clerk-js's limit of
 * three failed tries.
 */

const PASSWORD = 'correct-horse-battery-staple-42';
const TURNSTILE_SECRET_ENV = 'E2E_CAPTCHA_TURNSTILE_SECRET';
const TURNSTILE_SECRET = '0x4AAAAAAA-e2e-secret';
const TURNSTILE_SITE_KEY = '1x00000000000000000000AA';

function bodyOf(request: Request): URLSearchParams {
  return new URLSearchParams(request.postData() ?? '');
}

/** The Frontend API requests the page sends to `path` (under /v1), as they go. */
function recordRequests(page: Page, path: RegExp): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.includes('/__clerk/v1/') && path.test(url.pathname)) seen.push(r);
  });
  return seen;
}

async function fillSignUp(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/sign-up`);
  await page.locator('input[name=emailAddress]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
}

const continueButton = (page: Page) => page.getByRole('button', { name: 'Continue', exact: true });

describe('captcha', () => {
  const suite = useSuite();
  let turnstile: TurnstileStandIn;

  before(async () => {
    process.env[TURNSTILE_SECRET_ENV] = TURNSTILE_SECRET;
    turnstile = await TurnstileStandIn.start(TURNSTILE_SECRET);
  });
  after(async () => {
    await turnstile.stop();
  });

  async function useCaptcha(captcha: Record<string, unknown>) {
    const settings = suite.server.app.identity!.settings;
    await settings.set({ ...settings.settings, captcha });
  }
  const proofOfWork = (extra: Record<string, unknown> = {}) =>
    useCaptcha({ provider: 'proof_of_work', proofOfWork: { maxNumber: 20_000 }, ...extra });

  test('sign-up solves the proof of work in the page and sends its token', async () => {
    await proofOfWork({ challenge: { signUpsPerIpPerHour: 1000, signUpsPerClientPerHour: 1000 } });
    // The page learns the provider from its config; the CSP lets no Cloudflare script in.
    const config = await fetch(`${suite.server.origin}/app-config.json`);
    assert.equal(((await config.json()) as { captcha: string }).captcha, 'proof_of_work');
    assert.ok(!config.headers.get('content-security-policy')!.includes('challenges.cloudflare.com'));
    const { page } = await suite.newPage();
    const challenges = recordRequests(page, /\/captcha\/challenge$/);
    const cloudflare: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('challenges.cloudflare.com')) cloudflare.push(r.url());
    });
    await fillSignUp(page, suite.server.origin, uniqueEmail('captcha-pow'));
    const created = nextFapiResponse(page, 'POST', /\/client\/sign_ups$/);
    await continueButton(page).click();
    const response = await created;
    assert.equal(response.status(), 200, await response.text());
    const sent = bodyOf(response.request());
    assert.equal(sent.get('captcha_widget_type'), 'smart');
    const token = sent.get('captcha_token');
    assert.ok(token, 'the sign-up carries a captcha token');
    const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    assert.equal(typeof payload.solution.counter, 'number', 'the token is a solved proof of work');
    assert.ok(challenges.length >= 1, 'the widget asked the instance for a challenge');
    assert.deepEqual(cloudflare, [], "Cloudflare's script is never loaded");
    await waitForHash(page, '/verify-email-address');
  });

  test('requires_captcha opens the blank captcha modal; solved, the sign-up goes through', async () => {
    // Every sign-up from this address is now past the threshold.
    await proofOfWork({ challenge: { signUpsPerIpPerHour: 1, signUpsPerClientPerHour: 1000 } });
    const { page } = await suite.newPage();
    const signUps = recordRequests(page, /\/client\/sign_ups$/);
    const verifies = recordRequests(page, /\/client\/verify$/);
    await fillSignUp(page, suite.server.origin, uniqueEmail('captcha-modal'));
    // The modal can come and go (the proof of work solved) before a locator would look: watch the page.
    await page.evaluate(() => {
      const seen = window as unknown as { captchaModalSeen?: boolean };
      new MutationObserver(() => {
        if (document.getElementById('cl-modal-captcha-container')) seen.captchaModalSeen = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    const blocked = nextFapiResponse(page, 'POST', /\/client\/sign_ups$/);
    const verifiedResponse = nextFapiResponse(page, 'POST', /\/client\/verify$/);
    await continueButton(page).click();
    const first = await blocked;
    assert.equal(first.status(), 401);
    assert.equal(
      ((await first.json()) as { errors: { code: string }[] }).errors[0]!.code,
      'requires_captcha',
    );
    const verified = await verifiedResponse;
    assert.equal(verified.status(), 200, await verified.text());
    // clerk-js mounted its blank captcha modal and rendered the widget in it.
    assert.equal(
      await page.evaluate(() => (window as unknown as { captchaModalSeen?: boolean }).captchaModalSeen),
      true,
    );
    assert.equal(bodyOf(verified.request()).get('captcha_action'), 'verify');
    await waitForHash(page, '/verify-email-address');
    // The same sign-up, sent again after the modal: its own token was not spent by the refusal.
    assert.equal(signUps.length, 2);
    assert.equal(bodyOf(signUps[0]!).get('captcha_token'), bodyOf(signUps[1]!).get('captcha_token'));
    assert.equal(verifies.length, 1);
  });

  test('the heartbeat solves an invisible captcha every interval, only when enabled', async () => {
    await proofOfWork({ heartbeat: false });
    const quiet = await suite.newPage();
    const none = recordRequests(quiet.page, /\/client\/verify$/);
    await quiet.page.goto(`${suite.server.origin}/sign-in`);
    await quiet.page.locator('input[name=identifier]').waitFor();

    await proofOfWork({ heartbeat: true, heartbeatIntervalMs: 2000 });
    const { page } = await suite.newPage();
    const beats = recordRequests(page, /\/client\/verify$/);
    await page.goto(`${suite.server.origin}/sign-in`);
    const deadline = Date.now() + UI_WAIT_MS;
    while (beats.length < 2 && Date.now() < deadline) await page.waitForTimeout(250);
    assert.ok(beats.length >= 2, `heartbeats sent: ${beats.length}`);
    for (const beat of beats.slice(0, 2)) {
      const sent = bodyOf(beat);
      assert.equal(sent.get('captcha_action'), 'heartbeat');
      assert.equal(sent.get('captcha_widget_type'), 'invisible');
      assert.ok(sent.get('captcha_token'));
      assert.equal((await beat.response())?.status(), 200);
    }
    assert.equal(none.length, 0, 'no heartbeat without the setting');
  });

  test('Turnstile in the page: a token Cloudflare refuses, three tries, then clerk-js gives up', async () => {
    await useCaptcha({
      provider: 'turnstile',
      turnstile: {
        siteKey: TURNSTILE_SITE_KEY,
        secretKey: { env: TURNSTILE_SECRET_ENV },
        siteverifyUrl: turnstile.url,
      },
      challenge: { signUpsPerIpPerHour: 1, signUpsPerClientPerHour: 1000 },
    });
    const good = turnstile.issue();
    // Cloudflare's script and frames are allowed now, and the page installs no widget of its own.
    const config = await fetch(`${suite.server.origin}/app-config.json`);
    assert.equal(((await config.json()) as { captcha: string }).captcha, 'turnstile');
    const csp = config.headers.get('content-security-policy')!;
    assert.match(csp, /script-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    assert.match(csp, /frame-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    const { context, page } = await suite.newPage();
    // A stand-in for Cloudflare's widget (clerk-js loads Cloudflare's script only without window.turnstile):
    // the form's widget gets a token the stand-in issued; the modal's widget a token it never did.
    // A string, not a function: the test runner's TypeScript transform would add helpers the page lacks.
    await context.addInitScript(`{
      let next = 0;
      window.__turnstileRenders = [];
      window.turnstile = {
        render(container, params) {
          const id = 'ts-' + (++next);
          const where = typeof container === 'string' ? container : '#' + container.id;
          window.__turnstileRenders.push({ where, sitekey: params.sitekey });
          const token = where.includes('modal') ? 'refused-by-cloudflare' : ${JSON.stringify(good)};
          setTimeout(() => params.callback(token), 50);
          return id;
        },
        execute() {}, reset() {}, remove() {}, getResponse() { return undefined; },
      };
    }`);
    const signUps = recordRequests(page, /\/client\/sign_ups$/);
    const verifies = recordRequests(page, /\/client\/verify$/);
    await fillSignUp(page, suite.server.origin, uniqueEmail('captcha-turnstile'));
    for (let attempt = 1; attempt <= 3; attempt++) {
      const verified = nextFapiResponse(page, 'POST', /\/client\/verify$/);
      await continueButton(page).click();
      const answer = await verified;
      assert.equal(answer.status(), 400);
      assert.equal(
        ((await answer.json()) as { errors: { code: string }[] }).errors[0]!.code,
        'captcha_invalid',
      );
      // The card takes the refusal (the modal has closed) before the next click.
      await page.waitForTimeout(800);
    }
    assert.equal(verifies.length, 3);
    const sentBefore = signUps.length;
    // The fourth: clerk-js refuses by itself (captcha_client_attempts_exceeded), nothing is sent.
    await continueButton(page).click();
    await page.waitForTimeout(1500);
    assert.equal(signUps.length, sentBefore, 'no sign-up sent after three failed tries');
    assert.equal(verifies.length, 3);
    const renders = (await page.evaluate('window.__turnstileRenders')) as {
      where: string;
      sitekey: string;
    }[];
    assert.ok(renders.some((r) => r.where === '#clerk-captcha' && r.sitekey === TURNSTILE_SITE_KEY));
    assert.ok(renders.some((r) => r.where === '#cl-modal-captcha-container'));
    // The form's token went to Cloudflare's siteverify with the secret.
    assert.ok(turnstile.requests.some((r) => r.response === good && r.secret === TURNSTILE_SECRET));
  });
});
