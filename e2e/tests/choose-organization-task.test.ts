import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from '../support/suite.ts';
import {
  enterCode,
  sessionToken,
  startSignUp,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { waitForCode } from '../support/outbox.ts';

describe('an instance that forces an organisation', () => {
  const suite = useSuite({ env: { IDENTITY_FORCE_ORGANIZATION: 'true' } });

  test('a new session is pending on the choose-organization task until an organisation is created', async () => {
    const { page } = await suite.newPage();
    const email = uniqueEmail('task');
    const since = new Date();
    await startSignUp(page, suite.server.origin, email);
    await waitForHash(page, '/verify-email-address');
    await enterCode(page, await waitForCode(suite.server.origin, email, since));

    await waitForPath(page, '/tasks/choose-organization');
    const pending = await page.evaluate(() => {
      const clerk = (
        window as unknown as { Clerk: { session: { status: string; currentTask?: { key: string } } } }
      ).Clerk;
      return { status: clerk.session.status, task: clerk.session.currentTask?.key };
    });
    assert.deepEqual(pending, { status: 'pending', task: 'choose-organization' });
    // Pending counts as signed out for the product API.
    const early = await fetch(`${suite.server.origin}/api/me`, {
      headers: {
        authorization: `Bearer ${await page.evaluate(() => (window as unknown as { Clerk: { session: { getToken(): Promise<string> } } }).Clerk.session.getToken())}`,
      },
    });
    assert.equal(early.status, 401);

    await page
      .locator('.cl-taskChooseOrganization-root input[name=name], input[name=name]')
      .first()
      .fill('Forced Org');
    await page
      .getByRole('button', { name: /Continue|Create organization/ })
      .first()
      .click();
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Forced Org' }).waitFor();
    const me = await fetch(`${suite.server.origin}/api/me`, {
      headers: { authorization: `Bearer ${await sessionToken(page)}` },
    });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { orgRole: string }).orgRole, 'org:admin');
  });
});
