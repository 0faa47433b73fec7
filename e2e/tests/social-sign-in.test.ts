import { describe, test } from 'node:test';
import { useGoogleStandIn } from '../support/oidc-stand-in.ts';
import { useSuite } from '../support/suite.ts';
import assert from 'node:assert/strict';
import { createOrganization, signOutFromUserButton, uniqueEmail, waitForPath } from '../support/flows.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Social sign-in by redirect through the real Clerk UI: a real OpenID Connect provider on another
 * loopback port (oauth2-mock-server: discovery, JWKS-signed ID tokens, PKCE, nonce) plays Google through
 * the instance settings' issuer override. A new person signs up with the button and lands signed in,
 * signs out, and signs in again with the button.
 */
const person = {
  sub: `e2e-${Date.now()}`,
  email: uniqueEmail('google'),
  email_verified: true,
  given_name: 'Grace',
  family_name: 'Hopper',
};

describe('social sign-in by redirect through the Clerk UI', () => {
  const suite = useSuite(useGoogleStandIn('social', person));

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
});
