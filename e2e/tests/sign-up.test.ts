import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite, nextFapiResponse, errorCodeOf } from '../support/suite.ts';
import { backendClient } from '../support/backend.ts';
import {
  clickUntilRequest,
  createOrganization,
  enterCode,
  signUp,
  startSignUp,
  uniqueEmail,
  waitForHash,
  PASSWORD,
} from '../support/flows.ts';
import { openDiagnostics } from '../support/diagnostics.ts';
import { mailCount, waitForCode } from '../support/outbox.ts';
import type { Page } from 'playwright-core';

/**
 * The password field's feedback: clerk-js shows its own complexity hint beside the provider's message
 * and animates between them, so wait for the text rather than a visibility that comes and goes.
 */
async function passwordFeedback(page: Page, text: RegExp) {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('#error-password')?.textContent ?? ''),
    text.source,
    { timeout: 15_000 },
  );
}

describe('sign-up through the Clerk UI', () => {
  const suite = useSuite();

  test('sign up with email and password, verify the emailed code, land signed in on the dashboard', async () => {
    const { page } = await suite.newPage();
    const email = uniqueEmail('signup');
    const since = new Date();
    await startSignUp(page, suite.server.origin, email);
    await waitForHash(page, '/verify-email-address');
    const code = await waitForCode(suite.server.origin, email, since);
    assert.match(code, /^\d{6}$/);
    await enterCode(page, code);
    // Signed in, without an organisation yet: the product asks for one first.
    await page.waitForFunction(() => location.pathname === '/create-organization', null, { timeout: 15_000 });
    await page.locator('.cl-userButtonTrigger').waitFor();
    await createOrganization(page, 'Signup Org');

    // The signed-in shell: the Clerk user button and who is signed in.
    await page.locator('.cl-userButtonTrigger').waitFor();
    assert.equal(await page.getByTestId('user-email').textContent(), email);
    await page.getByTestId('dashboard-org-name').waitFor();
    await openDiagnostics(page);
  });

  test('a signed-in user stays signed in across reloads', async () => {
    const { page } = await suite.newPage();
    const email = uniqueEmail('reload');
    await signUp(page, suite.server.origin, email);
    await openDiagnostics(page);
    const userId = await page.getByTestId('api-me-user-id').textContent();
    await page.reload();
    await page.getByTestId('api-me-status').waitFor();
    assert.equal(await page.getByTestId('api-me-user-id').textContent(), userId);
    await page.getByTestId('nav-dashboard').click();
    assert.equal(await page.getByTestId('user-email').textContent(), email);
  });

  test('a password shorter than 8 characters is refused by the provider', async () => {
    const { page } = await suite.newPage();
    const attempt = nextFapiResponse(page, 'POST', /\/client\/sign_ups$/);
    await startSignUp(page, suite.server.origin, uniqueEmail('short'), 'short1!');
    const res = await attempt;
    assert.equal(res.status(), 422);
    assert.equal(await errorCodeOf(res), 'form_password_length_too_short');
    await passwordFeedback(page, /8 or more characters/);
  });

  test('a password longer than 72 characters is refused by the provider', async () => {
    const { page } = await suite.newPage();
    const attempt = nextFapiResponse(page, 'POST', /\/client\/sign_ups$/);
    await startSignUp(page, suite.server.origin, uniqueEmail('long'), 'p'.repeat(73));
    const res = await attempt;
    assert.equal(res.status(), 422);
    assert.equal(await errorCodeOf(res), 'form_password_size_in_bytes_exceeded');
    await passwordFeedback(page, /too long|less than 72 characters/);
  });

  test('an email address that is already used cannot sign up again', async () => {
    const email = uniqueEmail('taken');
    const first = await suite.newPage();
    await signUp(first.page, suite.server.origin, email);

    const { page } = await suite.newPage();
    const attempt = nextFapiResponse(page, 'POST', /\/client\/sign_ups$/);
    await startSignUp(page, suite.server.origin, email, PASSWORD);
    const res = await attempt;
    assert.equal(res.status(), 422);
    assert.equal(await errorCodeOf(res), 'form_identifier_exists');
    await page.locator('#error-emailAddress').getByText('That email address is taken').waitFor();
  });

  test('the blocklist (over the allowlist) and a non-empty allowlist keep addresses out of <SignUp/>; nothing is created', async () => {
    const clerk = backendClient(suite.server);
    const stamp = Date.now();
    const blocked = await clerk.blocklistIdentifiers.createBlocklistIdentifier({
      identifier: `someone@blocked-${stamp}.test`,
    });
    const allowed = await clerk.allowlistIdentifiers.createAllowlistIdentifier({
      identifier: `*@blocked-${stamp}.test`,
      notify: false,
    });
    try {
      const { page } = await suite.newPage();
      const refusals: string[] = [];
      for (const email of [`someone@blocked-${stamp}.test`, `someone@elsewhere-${stamp}.test`]) {
        const attempt = nextFapiResponse(page, 'POST', /\/client\/sign_ups$/);
        if (refusals.length === 0) await startSignUp(page, suite.server.origin, email);
        else {
          await page.locator('input[name=emailAddress]').fill(email);
          await clickUntilRequest(
            page,
            page.getByRole('button', { name: 'Continue', exact: true }),
            /\/v1\/client\/sign_ups$/,
          );
        }
        const res = await attempt;
        assert.equal(res.status(), 403, email);
        refusals.push((await errorCodeOf(res))!);
        await page.getByText(/this identifier is not allowed/).waitFor();
        assert.equal(await clerk.users.getCount({ emailAddress: [email] }), 0, email);
      }
      assert.deepEqual(refusals, ['not_allowed_access', 'not_allowed_access']);

      // Another address of the domain the allowlist names goes on to its verification code.
      await page.locator('input[name=emailAddress]').fill(`other@blocked-${stamp}.test`);
      await clickUntilRequest(
        page,
        page.getByRole('button', { name: 'Continue', exact: true }),
        /\/v1\/client\/sign_ups$/,
      );
      await waitForHash(page, '/verify-email-address');
    } finally {
      await clerk.blocklistIdentifiers.deleteBlocklistIdentifier(blocked.id);
      await clerk.allowlistIdentifiers.deleteAllowlistIdentifier(allowed.id);
    }
  });

  test('a wrong verification code is refused and the right one still works', async () => {
    const { page } = await suite.newPage();
    const email = uniqueEmail('wrongcode');
    const since = new Date();
    await startSignUp(page, suite.server.origin, email);
    await waitForHash(page, '/verify-email-address');
    const code = await waitForCode(suite.server.origin, email, since);
    const wrong = code === '000000' ? '111111' : '000000';

    const attempt = nextFapiResponse(page, 'POST', /\/attempt_verification$/);
    await enterCode(page, wrong);
    const res = await attempt;
    assert.equal(res.status(), 422);
    assert.equal(await errorCodeOf(res), 'form_code_incorrect');
    await page.getByText('Incorrect code').waitFor();

    await enterCode(page, code);
    await page.waitForFunction(() => location.pathname === '/create-organization', null, { timeout: 15_000 });
  });

  test('an expired verification code is refused with verification_expired', async () => {
    const { page } = await suite.newPage();
    const email = uniqueEmail('expired');
    const since = new Date();
    await startSignUp(page, suite.server.origin, email);
    await waitForHash(page, '/verify-email-address');
    const code = await waitForCode(suite.server.origin, email, since);
    // Ten minutes pass: move this code's expiry into the past rather than sleeping.
    await suite.server.app.identity!.deps.db.query(
      `UPDATE verification_codes SET expire_at = now() - interval '1 second' WHERE subject LIKE 'sign_up:%:' || $1`,
      [email],
    );
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_verification$/);
    await enterCode(page, code);
    const res = await attempt;
    assert.equal(res.status(), 422);
    assert.equal(await errorCodeOf(res), 'verification_expired');
    await page.getByText('This verification has expired. You must create a new one.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/sign-up');
  });

  test('Clerk test mode: a +clerk_test address gets no mail and accepts 424242', async () => {
    const { page } = await suite.newPage();
    const email = `tester+clerk_test-${Date.now()}@example.com`;
    await startSignUp(page, suite.server.origin, email);
    await waitForHash(page, '/verify-email-address');
    await enterCode(page, '424242');
    await page.waitForFunction(() => location.pathname === '/create-organization', null, { timeout: 15_000 });
    assert.equal(await mailCount(suite.server.origin, email), 0);
  });
});
