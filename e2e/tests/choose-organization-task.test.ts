import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import {
  enterCode,
  sessionToken,
  settledUrl,
  signInOnCard,
  signInWithPassword,
  startSignUp,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { backendClient, createOrganizationFor, createUser } from '../support/backend.ts';
import { waitForCode } from '../support/outbox.ts';

const TASK_PATH = '/tasks/choose-organization';

/** The page shows Clerk's own choose-organization task, for a session pending on it. */
async function onChooseOrganizationTask(page: Page) {
  await waitForPath(page, TASK_PATH);
  await page
    .getByTestId('choose-organization-task-page')
    .locator('.cl-taskChooseOrganization-root')
    .waitFor();
  const pending = await page.evaluate(() => {
    const clerk = (
      window as unknown as { Clerk: { session: { status: string; currentTask?: { key: string } } } }
    ).Clerk;
    return { status: clerk.session.status, task: clerk.session.currentTask?.key };
  });
  assert.deepEqual(pending, { status: 'pending', task: 'choose-organization' });
}

/** Opens each signed-in page by its address: a pending session is sent back to its task from every one. */
async function signedInPagesLeadToTheTask(page: Page, origin: string) {
  for (const path of ['/dashboard', '/settings', '/']) {
    await page.goto(`${origin}${path}`);
    assert.equal(await settledUrl(page), TASK_PATH, `from ${path}`);
    await onChooseOrganizationTask(page);
  }
}

/** <SignUp/> with an address and password, verified by the mailed code. */
async function signUpWithCode(page: Page, origin: string, email: string) {
  const since = new Date();
  await startSignUp(page, origin, email);
  await waitForHash(page, '/verify-email-address');
  await enterCode(page, await waitForCode(origin, email, since));
}

/** Creates an organisation in the task's form (a user with none sees the form at once). */
async function createOrganizationInTask(page: Page, name: string) {
  const task = page.locator('.cl-taskChooseOrganization-root');
  await task.locator('input[name=name]').fill(name);
  await task.getByRole('button', { name: 'Continue', exact: true }).click();
  await waitForPath(page, '/dashboard');
  await page.getByTestId('dashboard-org-name').filter({ hasText: name }).waitFor();
}

describe('an instance that forces an organisation', () => {
  const suite = useSuite({ env: { IDENTITY_FORCE_ORGANIZATION: 'true' } });

  test('a new session is pending on the choose-organization task until an organisation is created', async () => {
    const { page } = await suite.newPage();
    await signUpWithCode(page, suite.server.origin, uniqueEmail('task'));
    await onChooseOrganizationTask(page);
    // Pending counts as signed out for the product API.
    const early = await fetch(`${suite.server.origin}/api/me`, {
      headers: {
        authorization: `Bearer ${await page.evaluate(() => (window as unknown as { Clerk: { session: { getToken(): Promise<string> } } }).Clerk.session.getToken())}`,
      },
    });
    assert.equal(early.status, 401);

    await createOrganizationInTask(page, 'Forced Org');
    const me = await fetch(`${suite.server.origin}/api/me`, {
      headers: { authorization: `Bearer ${await sessionToken(page)}` },
    });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { orgRole: string }).orgRole, 'org:admin');
  });

  test('signed up without an organisation, the dashboard and every signed-in page lead to the task', async () => {
    const { page } = await suite.newPage();
    await signUpWithCode(page, suite.server.origin, uniqueEmail('task-signup'));
    await onChooseOrganizationTask(page);

    await signedInPagesLeadToTheTask(page, suite.server.origin);
    await createOrganizationInTask(page, 'Later Org');
  });

  test('signed in without an organisation, the dashboard leads to the task, then to the dashboard', async () => {
    const user = await createUser(suite.server, 'task-signin');
    const { page } = await suite.newPage();
    await signInWithPassword(page, suite.server.origin, user.email);
    await onChooseOrganizationTask(page);

    await signedInPagesLeadToTheTask(page, suite.server.origin);
    await createOrganizationInTask(page, 'Signed In Org');
    // The task done, the dashboard stays.
    await page.goto(`${suite.server.origin}/dashboard`);
    assert.equal(await settledUrl(page), '/dashboard');
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Signed In Org' }).waitFor();
  });
});

describe('several accounts on an instance that forces an organisation', () => {
  const suite = useSuite({
    env: { IDENTITY_FORCE_ORGANIZATION: 'true', IDENTITY_MULTI_SESSION: 'true' },
  });

  test('switching to an account without an organisation goes to its task, and back again', async () => {
    const clerk = backendClient(suite.server);
    const member = await createUser(suite.server, 'task-member');
    await createOrganizationFor(clerk, member, 'Member Org');
    const newcomer = await createUser(suite.server, 'task-newcomer');
    const { page } = await suite.newPage();

    // The member picks their organisation in the task and works on the dashboard.
    await signInWithPassword(page, suite.server.origin, member.email);
    await onChooseOrganizationTask(page);
    await page.locator('.cl-taskChooseOrganization-root').getByText('Member Org').click();
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Member Org' }).waitFor();

    // A second account, without an organisation, is added: its session is pending on the task.
    await page.locator('.cl-userButtonTrigger').click();
    await page.locator('.cl-userButtonPopoverActionButton__addAccount').click();
    await waitForPath(page, '/sign-in');
    await signInOnCard(page, newcomer.email);
    await onChooseOrganizationTask(page);
    await signedInPagesLeadToTheTask(page, suite.server.origin);

    // Switching to the member from clerk-js's account list, then back to the newcomer from <UserButton/>.
    await page.goto(`${suite.server.origin}/sign-in#/choose`);
    const memberName = new RegExp(member.email.replace(/[.+]/g, '\\$&'));
    await page.getByRole('button', { name: memberName }).click();
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Member Org' }).waitFor();

    await page.locator('.cl-userButtonTrigger').click();
    const newcomerName = new RegExp(newcomer.email.replace(/[.+]/g, '\\$&'));
    await page.getByRole('menuitem', { name: newcomerName }).click();
    await onChooseOrganizationTask(page);
    await page.goto(`${suite.server.origin}/dashboard`);
    assert.equal(await settledUrl(page), TASK_PATH);
    await onChooseOrganizationTask(page);
  });
});
