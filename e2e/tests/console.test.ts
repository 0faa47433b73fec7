import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { Locator } from 'playwright-core';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { signedUpPage, type WireSignedIn } from '../support/wire-session.ts';
import { newWebhookSecret } from '../../identity/src/webhooks/signing.ts';
import { WebhookReceiver } from '../../identity/test/support/webhook-receiver.ts';
import { backendClient, createOrganizationFor, createUser, type TestUser } from '../support/backend.ts';
import { testModeEmail } from '../support/fapi-client.ts';
import {
  enterCode,
  PASSWORD,
  signInWithPassword,
  uniqueEmail,
  waitForClerkSession,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { waitForInvitationLink } from '../support/outbox.ts';
import type { TestServer } from '../support/server.ts';
import { ENGLISH_WORDS, foreignWords, readPage } from '../support/foreign-words.ts';

const STEP_MS = 30_000;
const RECEIVER_SECRET_ENV = 'E2E_CONSOLE_WEBHOOK_SECRET';

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
  /** A real endpoint of the instance (`ep_console`), verifying every signature. */
  let receiver: WebhookReceiver;
  /** A user with a password and nothing else, made in the webhooks test. */
  let hooked: TestUser;

  after(() => receiver?.close());

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

  test('changes a setting (checked, then applied) and replays a webhook delivery a real receiver gets', async () => {
    const { page } = operator;
    const settings = suite.server.app.identity!.settings;
    const secret = newWebhookSecret();
    process.env[RECEIVER_SECRET_ENV] = secret;
    receiver = await WebhookReceiver.start(secret);
    await settings.set({
      ...settings.settings,
      webhooks: {
        endpoints: {
          ep_console: { url: receiver.url, events: ['user.created'], secret: { env: RECEIVER_SECRET_ENV } },
        },
      },
    });
    const environmentMode = async () => {
      const res = await fetch(`${suite.server.origin}/__clerk/v1/environment`);
      return ((await res.json()) as { user_settings: { sign_up: { mode: string } } }).user_settings.sign_up
        .mode;
    };
    assert.equal(await environmentMode(), 'public');

    // The settings page: the document, edited; the check shows the change; applying stores it.
    await page.getByTestId('console-nav-settings').click();
    const editor = page.getByTestId('console-settings-text');
    await editor.waitFor();
    const document = JSON.parse(await editor.inputValue()) as Record<string, Record<string, unknown>>;
    document.signUp = { ...document.signUp, mode: 'restricted' };
    await editor.fill(JSON.stringify(document, null, 2));
    await page.getByTestId('console-settings-check').click();
    // `signUp.mode: "public" → "restricted"`, or the whole section when the document had none.
    await page.getByTestId('console-settings-change').filter({ hasText: 'restricted' }).waitFor();
    assert.match(
      (await page.getByTestId('console-settings-diff').textContent())!,
      /signUp(\.mode)?: .* → .*"restricted"/,
    );
    await page.getByTestId('console-settings-apply').click();
    await page.getByTestId('console-settings-applied').filter({ hasText: 'without a restart' }).waitFor();
    // Applied at once: the environment clerk-js reads says so (<SignUp/> shows "Access restricted").
    assert.equal(await environmentMode(), 'restricted');
    await settings.set({ ...settings.settings, signUp: { ...settings.settings.signUp, mode: 'public' } });

    // A user made now is delivered to the receiver; the console replays that delivery.
    hooked = await createUser(suite.server, 'console-hooked');
    await receiver.waitFor((r) => r.delivered.some((d) => d.data.id === hooked.id));
    await page.getByTestId('console-nav-webhooks').click();
    await page.getByTestId('console-webhook-endpoint').filter({ hasText: 'ep_console' }).waitFor();
    await page.getByTestId('console-deliveries-endpoint').selectOption('ep_console');
    await page.getByTestId('console-deliveries-status').selectOption('delivered');
    await page.getByTestId('console-deliveries-event-type').fill('user.created');
    await page.getByTestId('console-deliveries-filter').click();
    await page.getByTestId('console-delivery-row').first().getByRole('link').click();
    await page.getByTestId('console-delivery-payload').filter({ hasText: hooked.id }).waitFor();
    const before = receiver.delivered.filter((d) => d.data.id === hooked.id).length;
    await page.getByTestId('console-delivery-replay').click();
    await page.getByTestId('console-delivery-replayed').waitFor();
    await receiver.waitFor((r) => r.delivered.filter((d) => d.data.id === hooked.id).length > before);

    // Both in the audit log, as the operator's.
    await page.getByTestId('console-nav-audit-log').click();
    await page.getByTestId('console-audit-actor-type').selectOption('operator');
    await page.getByTestId('console-audit-filter').click();
    for (const action of ['instance_settings.updated', 'webhook_delivery.replay']) {
      await page
        .locator(`[data-testid="console-audit-row"][data-action="${action}"]`)
        .filter({ hasText: operator.user.id })
        .first()
        .waitFor();
    }
  });

  test('invites a waitlist entry from the sign-up area, and the person is mailed the invitation', async () => {
    const { page } = operator;
    const email = uniqueEmail('console-waitlist');
    await backendClient(suite.server).waitlistEntries.create({ emailAddress: email });
    const since = new Date();
    await page.getByTestId('console-nav-sign-up').click();
    await page.getByTestId('console-waitlist-status').selectOption('pending');
    await page.getByTestId('console-waitlist-query').fill(email);
    await page.getByTestId('console-waitlist-filter').click();
    const row = page.locator(`[data-testid="console-waitlist-row"][data-email="${email}"]`);
    await row.getByTestId('console-waitlist-invite').click();
    await page.getByTestId('console-waitlist-action-done').filter({ hasText: email }).waitFor();
    assert.match(await waitForInvitationLink(suite.server.origin, email, since), /ticket=/);
    await page.getByTestId('console-waitlist-status').selectOption('invited');
    await page.getByTestId('console-waitlist-filter').click();
    await page
      .locator(`[data-testid="console-waitlist-row"][data-status="invited"][data-email="${email}"]`)
      .waitFor();
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
    // The console sends clerk-js's cached token; a refresh that left before the update may land after a
    // new one and put fresh factor ages back in the cache (seen on a loaded machine): mint again until the
    // cached token says the factors were verified over an hour ago.
    const cachedFactorAge = (skipCache: boolean) =>
      page.evaluate(async (skip) => {
        const { session } = (
          window as unknown as { Clerk: { session: { getToken(o: object): Promise<string> } } }
        ).Clerk;
        if (skip) await session.getToken({ skipCache: true });
        const token = await session.getToken({});
        const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as {
          fva?: [number, number];
        };
        return payload.fva?.[0] ?? -1;
      }, skipCache);
    for (let attempt = 0; (await cachedFactorAge(attempt === 0 || attempt % 5 === 0)) < 60; attempt++) {
      assert.ok(attempt < 30, 'the cached session token never showed the aged factors');
      await page.waitForTimeout(200);
    }

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

  test('in French: a machine’s secret shown once, a user’s and an organisation’s details, billing', async () => {
    const { page } = operator;
    const englishLeft: string[] = [];
    /** Once `ready` shows, the words of the whole page that a French reader would stumble on. */
    const readInFrench = async (screen: string, ready: Locator) => {
      await ready.waitFor();
      const { texts } = await readPage(page);
      // Role keys are identifiers, the same in every language.
      for (const word of foreignWords(texts, ENGLISH_WORDS, ['org:admin', 'org:member'], true))
        englishLeft.push(`${screen}: ${word}`);
    };
    await page.getByTestId('console-nav-applications').click();
    await page.getByTestId('language-FR').click();
    await page.getByTestId('console-applications-nav-machines').click();
    await page.getByTestId('console-machine-name').fill('zephyr-sept');
    await page.getByTestId('console-machine-create').click();
    await page
      .getByTestId('console-machines-action-done')
      .filter({ hasText: 'La machine zephyr-sept est créée.' })
      .waitFor();
    assert.match((await page.getByTestId('console-machine-secret-value').textContent())!, /^ak_/);
    await readInFrench('machines', page.getByText('Copiez-le maintenant : il n’est affiché que cette fois.'));
    // Shown once: gone when the operator comes back to the page.
    await page.getByTestId('console-applications-nav-oauth').click();
    await page.getByTestId('console-applications-nav-machines').click();
    await page.locator('[data-testid="console-machine-row"][data-name="zephyr-sept"]').waitFor();
    assert.equal(await page.getByTestId('console-machine-secret').count(), 0);

    await page.getByTestId('console-nav-users').click();
    await page.getByTestId('console-users-search-input').fill(customer.email);
    await page.getByTestId('console-users-search-submit').click();
    await page.getByTestId('console-user-row').filter({ hasText: customer.email }).getByRole('link').click();
    await page.getByRole('heading', { name: "Clés d'API" }).waitFor();
    await readInFrench('user', page.getByRole('heading', { name: "Clés d'accès" }));

    await page.getByTestId('console-user-organizations').getByRole('link', { name: 'Customer team' }).click();
    await page.getByTestId('console-organization-roles').waitFor();
    await readInFrench('organisation', page.getByRole('heading', { name: 'Modules' }));

    // Billing is off in this file: the Backend API answers 404 to an instance that does not bill, and each
    // page says, in French, that it could not load its list.
    const billingPages = { plans: 'les offres', subscriptions: 'les abonnements', statements: 'les relevés' };
    await page.getByTestId('console-nav-billing').click();
    for (const [section, what] of Object.entries(billingPages)) {
      await page.getByTestId(`console-billing-nav-${section}`).click();
      await page.getByTestId(`console-billing-${section}-error`).waitFor();
      await readInFrench(
        `billing ${section}`,
        page.getByRole('alert').filter({ hasText: `Impossible de charger ${what} :` }),
      );
    }
    assert.deepEqual(englishLeft, []);
    await page.getByTestId('language-EN').click();
    await page.getByRole('heading', { name: 'Operator console' }).waitFor();
  });

  test('in French, requires a new password: the user’s next sign-in asks for one; then withdraws it', async () => {
    const { page } = operator;
    await page.goto(`${suite.server.origin}/console/users/${hooked.id}`);
    await page.getByTestId('language-FR').click();
    const state = page.getByTestId('console-user-state');
    await page.getByRole('button', { name: 'Exiger un nouveau mot de passe' }).click();
    await page
      .getByTestId('console-user-action-done')
      .filter({ hasText: 'Un nouveau mot de passe est exigé à la prochaine connexion.' })
      .waitFor();
    await state.filter({ hasText: 'Nouveau mot de passe exigé à la prochaine connexion' }).waitFor();

    // The right password leads to Clerk's "Set new password" step, not to a session.
    const { page: user } = await suite.newPage();
    await signInWithPassword(user, suite.server.origin, hooked.email);
    await waitForHash(user, '/reset-password');
    await user.getByText('For security reasons, it is required to reset your password.').waitFor();

    await page.getByRole('button', { name: 'Retirer l’exigence de nouveau mot de passe' }).click();
    await page
      .getByTestId('console-user-action-done')
      .filter({ hasText: 'L’exigence de nouveau mot de passe est retirée.' })
      .waitFor();
    await page.getByTestId('console-user-require-password-reset').waitFor();
    assert.doesNotMatch((await state.textContent())!, /Nouveau mot de passe exigé/);
    // Withdrawn: the same password opens a session again (in a browser with no sign-in under way).
    const { page: again } = await suite.newPage();
    await signInWithPassword(again, suite.server.origin, hooked.email);
    await waitForClerkSession(again);
    await page.getByTestId('language-EN').click();
    await page.getByRole('heading', { name: 'Operator console' }).waitFor();
  });

  test('names the plans in the interface language, and again after a switch', async () => {
    const { page } = operator;
    const settings = suite.server.app.identity!.settings;
    const previous = settings.settings;
    await settings.set({
      ...previous,
      billing: {
        enabled: true,
        currency: 'eur',
        gateway: { kind: 'offline' },
        plans: {
          free: { name: { fr: 'Gratuit', en: 'Free' }, payerType: 'org', monthlyFee: 0, isDefault: true },
          pro: { name: { fr: 'Professionnel', en: 'Professional' }, payerType: 'org', monthlyFee: 1000 },
        },
      },
    });
    try {
      await page.getByTestId('console-nav-billing').click();
      await page.getByTestId('console-billing-nav-plans').click();
      const pro = page.locator('[data-testid="console-billing-plan-row"][data-slug="pro"]');
      await pro.filter({ hasText: 'Professional' }).waitFor();
      await page.getByTestId('language-FR').click();
      await pro.filter({ hasText: 'Professionnel' }).waitFor();
      await page.getByTestId('language-EN').click();
      await pro.filter({ hasText: 'Professional' }).waitFor();
    } finally {
      await settings.set(previous);
    }
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
