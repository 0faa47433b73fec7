import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { signedUpPage, type WireSignedIn } from '../support/wire-session.ts';
import { backendClient, createOrganizationFor, type TestUser } from '../support/backend.ts';
import { testModeEmail } from '../support/fapi-client.ts';
import { enterCode, PASSWORD, waitForPath } from '../support/flows.ts';
import type { TestServer } from '../support/server.ts';

const STEP_MS = 30_000;

/** What an authenticator app shows for `secret` now, `steps` periods of 30 s later. */
function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * STEP_MS });
}

/** A customer with an authenticator app and an organisation, made through the Backend API (not under test). */
async function customerWithSecondFactor(server: TestServer): Promise<TestUser> {
  const clerk = backendClient(server);
  const email = testModeEmail('console-customer');
  const user = await clerk.users.createUser({
    emailAddress: [email],
    password: PASSWORD,
    totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  });
  await createOrganizationFor(clerk, { id: user.id, email }, 'Customer team');
  return { id: user.id, email };
}

/**
 * The operator console (docs/console.md) through the real Clerk UI: an operator without a second factor
 * is sent to set one up in <UserProfile/>; with one, they find a user, reset their second factor, lock
 * them, impersonate them with a reason, and read all of that in the audit log under their own name. A
 * non-operator (an organisation admin) sees no console.
 */
describe('the operator console', () => {
  const suite = useSuite();
  let operator: WireSignedIn;
  let customer: TestUser;
  /** The operator's authenticator app, added in the first test. */
  let operatorSecret: string;

  before(async () => {
    operator = await signedUpPage(suite, 'console-operator');
    customer = await customerWithSecondFactor(suite.server);
    const settings = suite.server.app.identity!.settings;
    await settings.set({ ...settings.settings, console: { operators: [operator.user.email] } });
  });

  test('an operator without a second factor is sent to set one up, then gets the console', async () => {
    const { page } = operator;
    await page.goto(`${suite.server.origin}/console`);
    await page.getByTestId('console-second-factor-needed').waitFor();
    assert.equal(await page.getByTestId('console-users').count(), 0);

    // Clerk's <UserProfile/>, opened on its Security page: add an authenticator app.
    await page.getByTestId('console-set-up-second-factor').click();
    const created = nextFapiResponse(page, 'POST', /\/v1\/me\/totp$/);
    await page.getByRole('button', { name: 'Add two-step verification' }).click();
    await page.getByRole('menuitem', { name: 'Authenticator application' }).click();
    const secret = ((await (await created).json()) as { response: { secret: string } }).response.secret;
    operatorSecret = secret;
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const verified = nextFapiResponse(page, 'POST', /\/v1\/me\/totp\/attempt_verification$/);
    await enterCode(page, totpCode(secret));
    assert.equal((await verified).status(), 200);
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('console-users').waitFor();
    await page.getByTestId('nav-console').waitFor();
  });

  test('finds the customer, resets their second factor, locks them, and impersonates them', async () => {
    const { page } = operator;
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('console-users-search-input').fill(customer.email);
    await page.getByTestId('console-users-search-submit').click();
    await page.getByTestId('console-user-row').filter({ hasText: customer.email }).getByRole('link').click();
    await waitForPath(page, `/console/users/${customer.id}`);
    await page.getByTestId('console-user-second-factors').filter({ hasText: 'authenticator app' }).waitFor();

    await page.getByTestId('console-user-reset-second-factor').click();
    await page.getByTestId('console-user-action-done').filter({ hasText: 'Second factor reset.' }).waitFor();
    await page.getByTestId('console-user-second-factors').filter({ hasText: 'No second factor.' }).waitFor();

    await page.getByTestId('console-user-lock').click();
    await page.getByTestId('console-user-state').filter({ hasText: 'Locked' }).waitFor();
    // A locked account cannot be signed into, an impersonation included (fapi/tickets/actor-sign-in.ts).
    await page.getByTestId('console-user-unlock').click();
    await page.getByTestId('console-user-state').filter({ hasText: 'Not locked' }).waitFor();

    await page.getByTestId('console-impersonate-reason').fill('Ticket 42: invoices missing');
    await page.getByTestId('console-impersonate').click();
    const link = page.getByTestId('console-impersonation-link').getByRole('link');
    await link.waitFor();
    const url = (await link.getAttribute('href'))!;
    assert.match(url, /\/__clerk\/v1\/tickets\/accept\?ticket=/);

    // The link, in a browser of its own, signs in as the customer with the impersonation banner.
    const { page: support } = await suite.newPage();
    await support.goto(url);
    await waitForPath(support, '/dashboard');
    await support.getByTestId('impersonation-banner').waitFor();
    assert.equal(await support.getByTestId('impersonation-user').textContent(), customer.email);
  });

  test('reads those actions in the audit log under the operator’s name, and exports them', async () => {
    const { page } = operator;
    await page.getByTestId('console-nav-audit-log').click();
    await page.getByTestId('console-audit-actor-type').selectOption('operator');
    await page.getByTestId('console-audit-filter').click();
    for (const action of ['user.mfa_deleted', 'user.lock', 'user.unlock', 'actor_token.created']) {
      await page.locator(`[data-testid="console-audit-row"][data-action="${action}"]`).first().waitFor();
    }
    const rows = page.getByTestId('console-audit-row');
    for (const text of await rows.allTextContents()) assert.match(text, new RegExp(operator.user.id));
    await page
      .locator('[data-testid="console-audit-row"][data-action="actor_token.created"]')
      .filter({ hasText: 'Ticket 42: invoices missing' })
      .waitFor();

    const download = page.waitForEvent('download');
    await page.getByTestId('console-audit-export').click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'audit-events.jsonl');
    const stream = await file.createReadStream();
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    const events = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; actor: { id: string } });
    assert.ok(events.some((e) => e.action === 'user.lock'));
    assert.ok(events.every((e) => e.actor.id === operator.user.id));
  });

  test('banning asks a session that proved its factors long ago to verify again (Clerk’s modal)', async () => {
    const { page } = operator;
    await page.goto(`${suite.server.origin}/console/users/${customer.id}`);
    await page.getByTestId('console-user-ban').waitFor();
    // As if the operator had signed in an hour ago: Clerk's `strict` window (10 minutes) is past.
    await suite.server.app.identity!.deps.db.query(
      `UPDATE sessions SET first_factor_verified_at = first_factor_verified_at - interval '1 hour',
         second_factor_verified_at = COALESCE(second_factor_verified_at, created_at) - interval '1 hour',
         created_at = created_at - interval '1 hour' WHERE id = $1`,
      [operator.session.sessionId],
    );
    await page.evaluate(() =>
      (
        window as unknown as { Clerk: { session: { getToken(o: object): Promise<string> } } }
      ).Clerk.session.getToken({ skipCache: true }),
    );

    const refused = page.waitForResponse((r) => r.url().endsWith(`/console/api/users/${customer.id}/ban`));
    await page.getByTestId('console-user-ban').click();
    const first = await refused;
    assert.equal(first.status(), 403);
    assert.equal(
      ((await first.json()) as { clerk_error: { reason: string } }).clerk_error.reason,
      'reverification-error',
    );

    // Clerk's <UserVerification/>: the authenticator app's code (after the password, if it asks for it).
    const password = page.locator('input[name=password]');
    const code = page.locator('input[autocomplete="one-time-code"]');
    await password.or(code).first().waitFor();
    if (await password.isVisible()) {
      await password.fill(PASSWORD);
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
    }
    await code.first().waitFor();
    const retried = page.waitForResponse(
      (r) => r.url().endsWith(`/console/api/users/${customer.id}/ban`) && r.status() === 200,
    );
    await enterCode(page, totpCode(operatorSecret, 1));
    await retried;
    await page.getByTestId('console-user-state').filter({ hasText: 'Banned' }).waitFor();
  });

  test('in French, with French dates', async () => {
    const { page } = operator;
    await page.getByTestId('console-nav-users').click();
    await page.getByTestId('language-FR').click();
    await page.getByRole('heading', { name: "Console d'exploitation" }).waitFor();
    await page.getByRole('heading', { name: 'Utilisateurs' }).waitFor();
    const table = page.getByTestId('console-users-table');
    await table.waitFor();
    // `7 déc. 2026`, never `Dec 7, 2026` nor `12/7/2026`.
    assert.match(
      (await table.textContent())!,
      /\d{1,2} (janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)\.? \d{4}/,
    );
    await page.getByTestId('language-EN').click();
    await page.getByRole('heading', { name: 'Operator console' }).waitFor();
  });

  test('a non-operator, even an organisation admin, sees no console', async () => {
    const admin = await signedUpPage(suite, 'console-admin');
    const { page } = admin;
    await page.getByTestId('nav-dashboard').waitFor();
    assert.equal(await page.getByTestId('nav-console').count(), 0);
    await page.goto(`${suite.server.origin}/console/users`);
    await page.getByTestId('console-no-access').waitFor();
    assert.equal(await page.getByTestId('console-users').count(), 0);
  });
});
