import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { errorCodeOf, nextFapiResponse, useSuite } from '../support/suite.ts';
import { enterCode, PASSWORD, startSignUp, uniqueEmail, waitForHash, waitForPath } from '../support/flows.ts';
import { waitForCode } from '../support/outbox.ts';

/** Identifier then password on /sign-in; the sign-in must reach its password step. */
async function signInWithPassword(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/sign-in`);
  await page.locator('input[name=identifier]').fill(email);
  const created = nextFapiResponse(page, 'POST', /\/client\/sign_ins$/);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const res = await created;
  assert.equal(res.status(), 200, `sign-in as ${email}: ${await errorCodeOf(res)}`);
  await waitForHash(page, '/factor-one');
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await waitForPath(page, '/tasks/choose-organization');
}

async function signedInSessions(page: Page) {
  return page.evaluate(() =>
    (
      window as unknown as {
        Clerk: { client: { signedInSessions: { status: string; user: { id: string } }[] } };
      }
    ).Clerk.client.signedInSessions.map((s) => ({ status: s.status, user: s.user.id })),
  );
}

/**
 * Clerk's `session-tasks-multi-session` integration test: with forced organisation selection, signing
 * in again as an account whose session still waits on its task goes on to the password step (a pending
 * session is not signed in), instead of switching to the pending session at once.
 */
describe('several accounts with forced organisation selection', () => {
  const suite = useSuite({ env: { IDENTITY_MULTI_SESSION: 'true', IDENTITY_FORCE_ORGANIZATION: 'true' } });

  test('signing in again as an account whose session is pending asks for its password', async () => {
    const ada = uniqueEmail('pending-ada');
    const bob = uniqueEmail('pending-bob');
    const ids: string[] = [];
    for (const email of [ada, bob]) {
      const { page: p, context } = await suite.newPage();
      const since = new Date();
      await startSignUp(p, suite.server.origin, email);
      await waitForHash(p, '/verify-email-address');
      await enterCode(p, await waitForCode(suite.server.origin, email, since));
      await waitForPath(p, '/tasks/choose-organization');
      ids.push(
        await p.evaluate(() => (window as unknown as { Clerk: { user: { id: string } } }).Clerk.user.id),
      );
      await context.close();
    }

    const { page } = await suite.newPage();
    const origin = suite.server.origin;
    await signInWithPassword(page, origin, ada);
    await signInWithPassword(page, origin, bob);
    await signInWithPassword(page, origin, ada);

    const sessions = await signedInSessions(page);
    assert.deepEqual(sessions.map((s) => s.user).sort(), [...ids].sort());
    assert.ok(sessions.every((s) => s.status === 'pending'));
  });
});
