import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from '../support/suite.ts';

describe('landing page', () => {
  const suite = useSuite();

  test('a signed-out visitor sees the landing page with Sign in and Sign up', async () => {
    const { page } = await suite.newPage();
    await page.goto(suite.server.origin + '/');
    await page.getByTestId('landing').waitFor();
    assert.equal(await page.getByTestId('sign-in-link').getAttribute('href'), '/sign-in');
    assert.equal(await page.getByTestId('sign-up-link').getAttribute('href'), '/sign-up');

    // The links lead to the real Clerk cards, served from our own origin.
    await page.getByTestId('sign-in-link').click();
    await page.locator('.cl-signIn-root input[name=identifier]').waitFor();
    await page.goto(suite.server.origin + '/');
    await page.getByTestId('sign-up-link').click();
    await page.locator('.cl-signUp-root input[name=emailAddress]').waitFor();
  });

  test('the signed-in area sends signed-out visitors to sign-in', async () => {
    const { page } = await suite.newPage();
    await page.goto(suite.server.origin + '/dashboard');
    await page.waitForFunction(() => location.pathname === '/sign-in', null, { timeout: 15_000 });
    await page.locator('input[name=identifier]').waitFor();
  });

  test('no request leaves our origin while the Clerk UI loads', async () => {
    const { page } = await suite.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== suite.server.origin)
        foreign.push(r.url());
    });
    await page.goto(suite.server.origin + '/sign-up');
    await page.locator('input[name=emailAddress]').waitFor();
    assert.deepEqual(foreign, []);
  });
});
