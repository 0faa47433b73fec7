import { backendClient, createOrganizationFor, createUser } from '../support/backend.ts';
import { describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { accountsPortalOrigin } from '@app/identity';
import { startAccountsPortal } from '../support/accounts-portal.ts';
import { launchBrowser, newContext } from '../support/browser.ts';
import { useGoogleStandIn } from '../support/oidc-stand-in.ts';
import { connectSamlIdp, startSamlIdp } from '../support/saml-idp.ts';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import assert from 'node:assert/strict';
import {
  createOrganization,
  signOutFromUserButton,
  startSignUp,
  uniqueEmail,
  waitForPath,
} from '../support/flows.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Social sign-in by redirect through the real Clerk UI: a real OpenID Connect provider on another
 * loopback port (oauth2-mock-server: discovery, JWKS-signed ID tokens, PKCE, nonce) plays Google through
 * the instance settings' issuer override. A new person signs up with the button and lands signed in,
 * signs out, and signs in again with the button; then the same by popup, through the accounts.<domain>
 * popup-callback page the product serves; and Google One Tap, with a stand-in for Google's prompt.
 */
const person = {
  sub: `e2e-${Date.now()}`,
  email: uniqueEmail('google'),
  email_verified: true,
  given_name: 'Grace',
  family_name: 'Hopper',
};

/**
 * Makes every <SignIn/> and <SignUp/> the page mounts use the popup flow (`oauthFlow="popup"`, which the
 * product itself never asks for: clerk-js picks popups on its own only inside frames, which the product
 * refuses). Runs before the page's scripts: wraps clerk-js's mount functions as clerk-js is installed.
 */
async function preferPopups(context: BrowserContext) {
  // A string, not a function: the test runner's TypeScript transform would add helpers the page lacks.
  await context.addInitScript(`{
    let clerk;
    Object.defineProperty(window, 'Clerk', {
      configurable: true,
      get: () => clerk,
      set: (value) => {
        clerk = value;
        for (const name of ['mountSignIn', 'mountSignUp']) {
          const mount = value && value[name];
          if (typeof mount !== 'function') continue;
          value[name] = (node, props) => mount.call(value, node, { ...props, oauthFlow: 'popup' });
        }
      },
    });
  }`);
}

/** Clicks the Google button of <SignIn/> or <SignUp/> and waits until the popup it opened has closed. */
async function signInThroughPopup(page: Page, context: BrowserContext) {
  const popup = context.waitForEvent('page', { timeout: UI_WAIT_MS });
  await page.getByRole('button', { name: /Google/ }).click();
  const opened = await popup;
  await opened.waitForEvent('close', { timeout: UI_WAIT_MS });
}

/**
 * Google's One Tap in the page, offline: a stand-in `window.google.accounts.id` defined before the page's
 * scripts (clerk-js loads Google's script only when `window.google` is undefined). Its prompt() hands the
 * callback clerk-js registered the credential Google's prompt would, once per page; the client ids it
 * was initialised with are kept in `window.__oneTapPrompts`.
 */
async function standInGoogleOneTap(context: BrowserContext, credential: string) {
  // A string, not a function: the test runner's TypeScript transform would add helpers the page lacks.
  await context.addInitScript(`{
    const credential = ${JSON.stringify(credential)};
    let options = null;
    let handed = false;
    window.__oneTapPrompts = [];
    window.google = { accounts: { id: {
      initialize: (o) => { options = o; },
      prompt: () => {
        if (!options || handed) return;
        handed = true;
        window.__oneTapPrompts.push(options.client_id);
        setTimeout(() => options.callback({ credential }), 0);
      },
      cancel: () => {},
    } } };
  }`);
}

describe('social sign-in through the Clerk UI, by redirect and by popup', () => {
  const google = useGoogleStandIn('social', person, { oneTap: true });
  const suite = useSuite(google);

  test('a new person signs up with the Google button, signs out, and signs in again with it', async () => {
    const { page } = await suite.newPage();
    const origin = suite.server.origin;

    await page.goto(`${origin}/sign-in`);
    const button = page.getByRole('button', { name: /Google/ });
    await button.waitFor({ timeout: UI_WAIT_MS });
    // (clerk-js 5.90.0 draws well-known providers' logos from img.clerk.com whatever `logo_url` says;
    // only custom providers use ours. Offline the image fails and the button keeps its label.)
    await button.click();
    // Provider → /v1/oauth_callback → /sign-in#/sso-callback → sign-up transfer → signed in, and the
    // product's rule sends a newcomer without an organisation to create one.
    await page.getByTestId('create-organization-page').waitFor({ timeout: UI_WAIT_MS });
    await createOrganization(page, 'Hopper Labs');
    await page.getByTestId('user-email').filter({ hasText: person.email }).waitFor({ timeout: UI_WAIT_MS });

    await signOutFromUserButton(page);
    await waitForPath(page, '/');

    await page.goto(`${origin}/sign-in`);
    const callback = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/v1/oauth_callback'), {
      timeout: UI_WAIT_MS,
    });
    await page.getByRole('button', { name: /Google/ }).click();
    // A known account completes at the callback, which sends the browser straight to the page after sign-in.
    const location = (await callback).headers().location ?? '';
    assert.ok(!location.includes('sso-callback'), location);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('user-email').filter({ hasText: person.email }).waitFor({ timeout: UI_WAIT_MS });
  });

  test('by popup: a new person signs up (the opener goes on at its SSO callback), then signs in (the popup hands over the session)', async (t) => {
    // A provider account of its own, whether or not the test above ran.
    Object.assign(person, { sub: `e2e-popup-${Date.now()}`, email: uniqueEmail('google-popup') });
    const origin = suite.server.origin;
    const portalOrigin = accountsPortalOrigin(suite.server.app.identity!.deps.config.frontendApiHost);
    const portal = await startAccountsPortal(portalOrigin, suite.server.port);
    // A browser of its own: it resolves the portal's host to the TLS front.
    const browser = await launchBrowser(portal.browserArgs);
    t.after(async () => {
      await browser.close();
      await portal.stop();
    });
    const context = await newContext(browser);
    const page = await context.newPage();
    await preferPopups(context);
    const posted: string[] = [];
    context.on('request', (r) => {
      const url = new URL(r.url());
      if (url.origin === portalOrigin && url.pathname === '/popup-callback') posted.push(url.search);
    });

    await page.goto(`${origin}/sign-in`);
    await page.getByRole('button', { name: /Google/ }).waitFor({ timeout: UI_WAIT_MS });
    await signInThroughPopup(page, context);
    // Unknown at the provider's callback: the popup hands the opener its SSO callback, which transfers
    // the sign-in to a sign-up; the newcomer then creates an organisation, in the opener.
    assert.match(posted[0] ?? '', /[?&]return_url=/);
    await page.getByTestId('create-organization-page').waitFor({ timeout: UI_WAIT_MS });
    await createOrganization(page, 'Popup Labs');
    await page.getByTestId('user-email').filter({ hasText: person.email }).waitFor({ timeout: UI_WAIT_MS });

    await signOutFromUserButton(page);
    await waitForPath(page, '/');
    await page.goto(`${origin}/sign-in`);
    await page.getByRole('button', { name: /Google/ }).waitFor({ timeout: UI_WAIT_MS });
    await signInThroughPopup(page, context);
    // Known: complete at the callback, and the popup names the session, which the opener makes active.
    assert.match(posted[1] ?? '', /[?&]__clerk_created_session=sess_/);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('user-email').filter({ hasText: person.email }).waitFor({ timeout: UI_WAIT_MS });
  });
  test('Google One Tap: a new person signs up from the prompt on the landing page, then signs in from it again', async () => {
    const tapper = {
      sub: `e2e-one-tap-${Date.now()}`,
      email: uniqueEmail('one-tap'),
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
    };
    const origin = suite.server.origin;

    // Unknown to the instance: the sign-in answers external_account_not_found and clerk-js signs up with
    // the same credential; the newcomer lands on the product, which asks for an organisation first.
    const first = await suite.newPage();
    await standInGoogleOneTap(first.context, await google.googleIdToken(tapper));
    const signUp = nextFapiResponse(first.page, 'POST', /\/client\/sign_ups$/);
    await first.page.goto(`${origin}/`);
    assert.equal((await signUp).status(), 200);
    await first.page.getByTestId('create-organization-page').waitFor({ timeout: UI_WAIT_MS });
    // clerk-js initialised the prompt with the instance's Google client id.
    assert.deepEqual(await first.page.evaluate('window.__oneTapPrompts'), [google.clientId]);
    await createOrganization(first.page, 'Lovelace Labs');
    await first.page
      .getByTestId('user-email')
      .filter({ hasText: tapper.email })
      .waitFor({ timeout: UI_WAIT_MS });
    await signOutFromUserButton(first.page);
    await waitForPath(first.page, '/');

    // Another browser, a new credential for the same Google account: signed straight in, to the product.
    const again = await suite.newPage();
    await standInGoogleOneTap(again.context, await google.googleIdToken(tapper));
    const signIn = nextFapiResponse(again.page, 'POST', /\/client\/sign_ins$/);
    await again.page.goto(`${origin}/sign-in`);
    const signedIn = (await (await signIn).json()) as { response: { status: string } };
    assert.equal(signedIn.response.status, 'complete');
    await waitForPath(again.page, '/dashboard');
    await again.page
      .getByTestId('user-email')
      .filter({ hasText: tapper.email })
      .waitFor({ timeout: UI_WAIT_MS });
  });

  test('enterprise SSO: an address at a SAML connection’s domain goes to the IdP, which signs the person in', async (t) => {
    // A SAML IdP on another loopback port: its SSO URL answers the page an IdP does, posting the signed
    // response to our ACS.
    const employee = { email: '', firstName: 'Katherine', lastName: 'Johnson' };
    const idp = await startSamlIdp(t, employee);

    // The connection, as an operator makes it with @clerk/backend: created inactive, then turned on.
    const clerk = backendClient(suite.server);
    const admin = await createUser(suite.server, 'sso-admin');
    const organization = await createOrganizationFor(clerk, admin, 'Johnson Space');
    const domain = `sso-${Date.now().toString(36)}.test`;
    const connectionId = await connectSamlIdp(t, clerk, idp, { domain, organizationId: organization.id });

    employee.email = `katherine@${domain}`;
    const { page } = await suite.newPage();
    await page.goto(`${suite.server.origin}/sign-in`);
    await page.locator('input[name=identifier]').fill(employee.email);
    const acs = page.waitForResponse(
      (r) => new URL(r.url()).pathname.endsWith(`/v1/saml/acs/${connectionId}`),
      {
        timeout: UI_WAIT_MS,
      },
    );
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    // <SignIn/> → the IdP → our ACS → the handoff on our origin → signed in, a member of the organisation.
    assert.equal((await acs).status(), 303);
    await page.getByTestId('user-email').filter({ hasText: employee.email }).waitFor({ timeout: UI_WAIT_MS });
    const users = await clerk.users.getUserList({ emailAddress: [employee.email] });
    assert.equal(users.data[0]?.firstName, 'Katherine');
    const members = await clerk.organizations.getOrganizationMembershipList({
      organizationId: organization.id,
    });
    assert.ok(
      members.data.some((m) => m.publicUserData?.userId === users.data[0]!.id && m.role === 'org:member'),
      'the connection put the newcomer in its organisation',
    );

    // <SignUp/> with another address at the domain: the sign-up answers missing_fields enterprise_sso, and
    // clerk-js's completeSignUpFlow takes the newcomer to the same IdP, which completes it.
    employee.email = `dorothy@${domain}`;
    employee.firstName = 'Dorothy';
    employee.lastName = 'Vaughan';
    const signUpPage = (await suite.newPage()).page;
    const signUpAcs = signUpPage.waitForResponse(
      (r) => new URL(r.url()).pathname.endsWith(`/v1/saml/acs/${connectionId}`),
      { timeout: UI_WAIT_MS },
    );
    await startSignUp(signUpPage, suite.server.origin, employee.email);
    assert.equal((await signUpAcs).status(), 303);
    await signUpPage
      .getByTestId('user-email')
      .filter({ hasText: employee.email })
      .waitFor({ timeout: UI_WAIT_MS });
    const newcomer = (await clerk.users.getUserList({ emailAddress: [employee.email] })).data[0]!;
    assert.equal(newcomer.firstName, 'Dorothy');
    assert.equal(newcomer.passwordEnabled, false, 'the password typed on <SignUp/> was not kept');
  });
});
