import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { backendClient } from '../support/backend.ts';
import { PASSWORD, tick, uniqueEmail, waitForPath } from '../support/flows.ts';
import { waitForInvitationLink } from '../support/outbox.ts';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Sign-up modes through the real Clerk UI (docs/sign-up-modes.md). Waitlist mode with legal consent: a
 * newcomer on <SignUp/> sees "Access restricted" and joins the waitlist on /waitlist (<Waitlist/>); the
 * operator invites the entry through the Backend API; the invitation mail's link opens <SignUp/> with its
 * ticket, which shows the terms checkbox with the instance's links and will not continue without it; the
 * person signs up, `legal_accepted_at` is recorded and the entry is `completed`. Restricted mode: <SignUp/>
 * without a ticket says sign-up is restricted.
 */

const TERMS = 'https://example.com/terms';
const PRIVACY = 'https://example.com/privacy';

function settingsFile(signUp: unknown): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-sign-up-modes-'));
  const file = join(dir, 'settings.json');
  writeFileSync(file, JSON.stringify({ signUp }));
  return { env: { IDENTITY_SETTINGS_FILE: file }, dir };
}

const restrictedCard = (page: Page) => page.getByText('Access restricted', { exact: true });

describe('waitlist mode with legal consent, through the Clerk UI', () => {
  const settings = settingsFile({
    mode: 'waitlist',
    legalConsent: { enabled: true, termsUrl: TERMS, privacyPolicyUrl: PRIVACY },
  });
  const suite = useSuite({ env: settings.env });
  after(() => rmSync(settings.dir, { recursive: true, force: true }));
  const email = uniqueEmail('waitlist');

  test('<SignUp/> without an invitation: "Access restricted", and its button leads to <Waitlist/>', async () => {
    const { page } = await suite.newPage();
    await page.goto(`${suite.server.origin}/sign-up`);
    await restrictedCard(page).waitFor({ timeout: UI_WAIT_MS });
    await page
      .getByText(/join the waitlist/i)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Join waitlist' }).click();
    await waitForPath(page, '/waitlist');
    await page.getByTestId('waitlist-page').waitFor();

    await page.locator('input[name=emailAddress]').fill(email);
    const joined = nextFapiResponse(page, 'POST', /\/v1\/waitlist$/);
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    const answer = await joined;
    assert.equal(answer.status(), 200, await answer.text());
    await page.getByText('Thanks for joining the waitlist!').waitFor({ timeout: UI_WAIT_MS });
  });

  test('<SignIn/> offers "Join waitlist"', async () => {
    const { page } = await suite.newPage();
    await page.goto(`${suite.server.origin}/sign-in`);
    await page.getByText('Want early access?').waitFor({ timeout: UI_WAIT_MS });
    await page.getByRole('link', { name: 'Join waitlist' }).click();
    await waitForPath(page, '/waitlist');
  });

  test('invited by the operator: the mailed link opens <SignUp/>, the terms must be accepted, the entry completes', async () => {
    const clerk = backendClient(suite.server);
    const entries = (await clerk.waitlistEntries.list({ query: email })) as unknown as {
      data: { id: string; status: string }[];
    };
    const entry = entries.data[0]!;
    assert.equal(entry.status, 'pending');
    const since = new Date();
    const invited = await fetch(
      `${suite.server.origin}/__clerk_backend/v1/waitlist_entries/${entry.id}/invite`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${suite.server.app.identity!.secretKey}`,
          'content-type': 'application/json',
        },
        body: '{}',
      },
    );
    assert.equal(invited.status, 200, await invited.text());
    const link = await waitForInvitationLink(suite.server.origin, email, since);

    const { page } = await suite.newPage();
    await page.goto(link);
    await waitForPath(page, '/sign-up');
    await page.locator('input[name=password]').waitFor({ timeout: UI_WAIT_MS });
    const checkbox = page.getByRole('checkbox');
    await checkbox.waitFor();
    // The instance's links, in the checkbox's label.
    assert.equal(await page.getByRole('link', { name: 'Terms of Service' }).getAttribute('href'), TERMS);
    assert.equal(await page.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href'), PRIVACY);

    await page.locator('input[name=password]').fill(PASSWORD);
    // Unchecked, the form does not go on (the checkbox is required): no sign-up is sent.
    let sent = false;
    const watch = (r: { url(): string }) => {
      if (/\/v1\/client\/sign_ups/.test(new URL(r.url()).pathname)) sent = true;
    };
    page.on('request', watch);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.waitForTimeout(1_000);
    page.off('request', watch);
    assert.equal(sent, false, 'no sign-up request without the terms accepted');

    await tick(checkbox);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page
      .getByTestId('create-organization-page')
      .or(page.getByTestId('dashboard'))
      .first()
      .waitFor({ timeout: UI_WAIT_MS });

    const [user] = (await clerk.users.getUserList({ emailAddress: [email] })).data;
    assert.ok(user, 'the account exists');
    assert.ok(user.legalAcceptedAt, 'legal_accepted_at is recorded');
    const after = (await clerk.waitlistEntries.list({ query: email })) as unknown as {
      data: { status: string }[];
    };
    assert.equal(after.data[0]!.status, 'completed');
  });
});

describe('restricted mode, through the Clerk UI', () => {
  const settings = settingsFile({ mode: 'restricted' });
  const suite = useSuite({ env: settings.env });
  after(() => rmSync(settings.dir, { recursive: true, force: true }));

  test('<SignUp/> without an invitation says sign-up is restricted, and offers sign-in', async () => {
    const { page } = await suite.newPage();
    await page.goto(`${suite.server.origin}/sign-up`);
    await restrictedCard(page).waitFor({ timeout: UI_WAIT_MS });
    await page.getByText(/Sign ups are currently disabled/).waitFor();
    assert.equal(await page.locator('input[name=emailAddress]').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Join waitlist' }).count(), 0);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await waitForPath(page, '/sign-in');
  });
});
