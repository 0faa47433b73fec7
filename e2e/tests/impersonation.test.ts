import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createClerkClient, type ClerkClient } from '@clerk/backend';
import type { Page } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import { sessionToken, waitForClerkSession, waitForPath } from '../support/flows.ts';
import { signedUpPage } from '../support/wire-session.ts';
import { sessionClaims } from '../support/organizations.ts';

interface Account {
  id: string;
  email: string;
  page: Page;
}

describe('impersonation', () => {
  const suite = useSuite();
  let clerk: ClerkClient;
  let operator: Account;
  let customer: Account;

  const me = async (page: Page) => {
    const res = await fetch(`${suite.server.origin}/api/me`, {
      headers: { authorization: `Bearer ${await sessionToken(page)}` },
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { userId: string; actor: unknown };
  };

  /** A user signed up (over the wire: impersonation is under test, not signing up) in a profile of their own. */
  const account = async (label: string): Promise<Account> => {
    const { page, user } = await signedUpPage(suite, label);
    return { id: user.id, email: user.email, page };
  };

  /** What clerk-js itself holds: the session's actor and user. */
  const clerkSession = (page: Page) =>
    page.evaluate(() => {
      const clerk = (
        window as unknown as {
          Clerk: { session: { actor: unknown; user: { id: string } } | null };
        }
      ).Clerk;
      return clerk.session ? { actor: clerk.session.actor, userId: clerk.session.user.id } : null;
    });

  before(async () => {
    clerk = createClerkClient({
      apiUrl: `${suite.server.origin}/__clerk_backend`,
      secretKey: suite.server.app.identity!.secretKey,
    });
    operator = await account('operator');
    customer = await account('customer');
  });

  test('the link signs a fresh browser in as the user, with the banner; ending it signs out to /', async () => {
    const token = await clerk.actorTokens.create({ userId: customer.id, actor: { sub: operator.id } });
    assert.ok(token.url?.startsWith(`${suite.server.origin}/__clerk/v1/tickets/accept?ticket=`), token.url!);

    const { page } = await suite.newPage();
    await page.goto(token.url!);
    // <SignIn/> redeems the ticket and goes on to the after-sign-in page.
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard').waitFor();
    assert.equal(await page.getByTestId('user-email').textContent(), customer.email);

    const banner = page.getByTestId('impersonation-banner');
    await banner.waitFor();
    // The actor is named once the product API has looked them up.
    await page.getByTestId('impersonation-actor').filter({ hasText: operator.email }).waitFor();
    assert.equal(await page.getByTestId('impersonation-user').textContent(), customer.email);
    assert.match((await banner.textContent())!, /is acting as/);

    assert.deepEqual(await clerkSession(page), { actor: { sub: operator.id }, userId: customer.id });
    const claims = await sessionClaims(page);
    assert.equal(claims.sub, customer.id);
    assert.deepEqual(claims.act, { sub: operator.id });
    const answer = await me(page);
    assert.equal(answer.userId, customer.id);
    assert.deepEqual(answer.actor, { userId: operator.id, name: null, email: operator.email });

    await page.getByTestId('end-impersonation').click();
    await waitForPath(page, '/');
    await page.waitForFunction(
      () => (window as unknown as { Clerk?: { session: unknown } }).Clerk?.session === null,
    );
    assert.equal(await banner.count(), 0);

    // Spent: the same link again reaches the sign-in card, which says so.
    await page.goto(token.url!);
    await waitForPath(page, '/sign-in');
    await page.getByText(/no longer valid or has already been used/).waitFor();
    assert.equal(await clerkSession(page), null);
  });

  test('opened in the operator’s own signed-in browser, the link replaces their session', async () => {
    const token = await clerk.actorTokens.create({
      userId: customer.id,
      actor: { sub: operator.id },
      sessionMaxDurationInSeconds: 600,
    });
    await waitForClerkSession(operator.page);
    assert.deepEqual(await clerkSession(operator.page), { actor: null, userId: operator.id });

    await operator.page.goto(token.url!);
    await waitForPath(operator.page, '/dashboard');
    await operator.page.getByTestId('impersonation-banner').waitFor();
    assert.equal(await operator.page.getByTestId('user-email').textContent(), customer.email);
    await waitForClerkSession(operator.page);
    assert.deepEqual(await clerkSession(operator.page), { actor: { sub: operator.id }, userId: customer.id });

    // Ending it leaves the browser signed out: the operator's own session was replaced, not kept aside.
    await operator.page.getByTestId('end-impersonation').click();
    await waitForPath(operator.page, '/');
    await operator.page.waitForFunction(
      () => (window as unknown as { Clerk?: { session: unknown } }).Clerk?.session === null,
    );
  });

  test('a sign-in token’s link signs the user in through <SignIn/>, without an actor, and only once', async () => {
    const token = await clerk.signInTokens.createSignInToken({ userId: customer.id, expiresInSeconds: 600 });
    assert.ok(token.url.startsWith(`${suite.server.origin}/__clerk/v1/tickets/accept?ticket=`), token.url);

    const first = await suite.newPage();
    await first.page.goto(token.url);
    await waitForPath(first.page, '/dashboard');
    await first.page.getByTestId('user-email').filter({ hasText: customer.email }).waitFor();
    await waitForClerkSession(first.page);
    assert.deepEqual(await clerkSession(first.page), { actor: null, userId: customer.id });
    assert.equal(await first.page.getByTestId('impersonation-banner').count(), 0);
    assert.equal(
      (await clerk.signInTokens.revokeSignInToken(token.id).catch((e) => e)).errors?.[0]?.code,
      'sign_in_token_not_pending',
    );

    // The same link in another browser: spent, it signs nobody in.
    const second = await suite.newPage();
    await second.page.goto(token.url);
    await waitForPath(second.page, '/sign-in');
    await second.page.getByText(/no longer valid or has already been used/).waitFor();
    assert.equal(await clerkSession(second.page), null);
  });

  test('a revoked link signs nobody in', async () => {
    const token = await clerk.actorTokens.create({ userId: customer.id, actor: { sub: operator.id } });
    const revoked = await clerk.actorTokens.revoke(token.id);
    assert.equal(revoked.status, 'revoked');
    const { page } = await suite.newPage();
    await page.goto(token.url!);
    await waitForPath(page, '/sign-in');
    await page.getByText(/no longer valid or has already been used/).waitFor();
    assert.equal(await clerkSession(page), null);
  });
});
