import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { backendClient } from '../support/backend.ts';
import { FapiClient, testModeEmail } from '../support/fapi-client.ts';
import {
  createOrganization,
  enterCode,
  signOutFromUserButton,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { useGoogleStandIn } from '../support/oidc-stand-in.ts';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';
import { testModeSignUp } from '../support/wire-flows.ts';

/**
 * The OAuth callback's other branches through the real Clerk UI (spec §4), with the OpenID Connect stand-in
 * playing Google: an account holding the provider's verified address is linked and still asked its second
 * factor; a known provider account used on <SignUp/> transfers to a sign-in; the provider's refusal is a
 * clear error on the sign-in page, with nothing created.
 */

const person: Record<string, unknown> = {};

/** A fresh person at the provider. */
function becomes(email: string) {
  for (const key of Object.keys(person)) delete person[key];
  Object.assign(person, {
    sub: `e2e-branches-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    email,
    email_verified: true,
    given_name: 'Ada',
    family_name: 'Byron',
  });
}

describe('the OAuth callback’s branches through the Clerk UI', () => {
  const google = useGoogleStandIn('branches', person);
  const suite = useSuite(google);

  test('an account with the same verified address is linked at its first Google sign-in, and its second factor is still asked', async () => {
    // The account: signed up with a password and a verified address, with an authenticator app.
    const wire = new FapiClient(suite.server.origin);
    const email = testModeEmail('linked');
    const session = await testModeSignUp(wire, email);
    const enrolled = await wire.call('POST', '/me/totp', {}, { _clerk_session_id: session.sessionId });
    assert.equal(enrolled.status, 200, JSON.stringify(enrolled.body));
    const totp = new TOTP({ secret: Secret.fromBase32(enrolled.body.response.secret), period: 30 });
    const verified = await wire.call(
      'POST',
      '/me/totp/attempt_verification',
      { code: totp.generate() },
      { _clerk_session_id: session.sessionId },
    );
    assert.equal(verified.status, 200, JSON.stringify(verified.body));

    becomes(email);
    const { page } = await suite.newPage();
    await page.goto(`${suite.server.origin}/sign-in`);
    await page.getByRole('button', { name: /Google/ }).click();
    // Provider → callback (linked by the verified address) → SSO callback → the second factor.
    await waitForHash(page, '/factor-two');
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_second_factor$/);
    // The next 30 s step: the enrolment spent the current one.
    await enterCode(page, totp.generate({ timestamp: Date.now() + 30_000 }));
    assert.equal((await attempt).status(), 200);
    await page.getByTestId('create-organization-page').waitFor({ timeout: UI_WAIT_MS });

    const clerk = backendClient(suite.server);
    const users = await clerk.users.getUserList({ emailAddress: [email] });
    assert.equal(users.data.length, 1, 'no second account');
    assert.deepEqual(
      users.data[0]!.externalAccounts.map((a) => [a.provider, a.emailAddress]),
      [['google', email]],
      'the Google account is linked to the existing user',
    );
  });

  test('a Google account already known, used on <SignUp/>, transfers to a sign-in', async () => {
    becomes(testModeEmail('transfer'));
    const { page } = await suite.newPage();
    await page.goto(`${suite.server.origin}/sign-up`);
    await page.getByRole('button', { name: /Google/ }).click();
    await page.getByTestId('create-organization-page').waitFor({ timeout: UI_WAIT_MS });
    await createOrganization(page, 'Byron Analytics');
    await signOutFromUserButton(page);
    await waitForPath(page, '/');

    // The same provider account on <SignUp/> again: external_account_exists, and clerk-js signs in instead.
    await page.goto(`${suite.server.origin}/sign-up`);
    const transfer = page.waitForRequest(
      (r) =>
        new URL(r.url()).pathname.endsWith('/v1/client/sign_ins') &&
        (r.postData() ?? '').includes('transfer=true'),
      { timeout: UI_WAIT_MS },
    );
    await page.getByRole('button', { name: /Google/ }).click();
    await transfer;
    await waitForPath(page, '/dashboard');
    await page
      .getByTestId('user-email')
      .filter({ hasText: String(person.email) })
      .waitFor({ timeout: UI_WAIT_MS });
    const users = await backendClient(suite.server).users.getUserList({
      emailAddress: [String(person.email)],
    });
    assert.equal(users.data.length, 1);
  });

  test('the provider’s refusal is a clear error on the sign-in page, and creates nothing', async () => {
    becomes(testModeEmail('refused'));
    const { context, page } = await suite.newPage();
    // The person clicks "Deny" at the provider: it sends the browser back with error=access_denied.
    await context.route(
      (url) => url.pathname === '/authorize' && url.href.startsWith(google.issuer),
      async (route) => {
        const authorize = new URL(route.request().url());
        const back = new URL(authorize.searchParams.get('redirect_uri')!);
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('state', authorize.searchParams.get('state')!);
        await route.fulfill({ status: 302, headers: { location: back.toString() } });
      },
    );
    await page.goto(`${suite.server.origin}/sign-in`);
    const callback = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/v1/oauth_callback'), {
      timeout: UI_WAIT_MS,
    });
    await page.getByRole('button', { name: /Google/ }).click();
    assert.equal((await callback).status(), 303);
    await page.getByText(/did not grant access/).waitFor({ timeout: UI_WAIT_MS });
    await waitForPath(page, '/sign-in');
    const users = await backendClient(suite.server).users.getUserList({
      emailAddress: [String(person.email)],
    });
    assert.equal(users.data.length, 0, 'nobody was created');
  });
});
