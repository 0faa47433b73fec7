import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backendClient, createOrganizationFor, createUser } from '../support/backend.ts';
import { settledUrl, signInWithPassword, waitForPath } from '../support/flows.ts';
import { nextFapiResponse, useSuite } from '../support/suite.ts';

/**
 * clerk-js owns its sign-in page: a ticket link opened there must reach <SignIn/>, whoever is signed in
 * already. On a multi-session browser a signed-in user without an organisation used to be sent to
 * /create-organization before the ticket was read.
 */
describe('ticket links on a multi-session browser (IDENTITY_MULTI_SESSION=true)', () => {
  const suite = useSuite({ env: { IDENTITY_MULTI_SESSION: 'true' } });

  test('an invitation link opened while signed in without an organisation signs the invitee in and joins', async () => {
    const clerk = backendClient(suite.server);
    const inviter = await createUser(suite.server, 'ticket-inviter');
    const organization = await createOrganizationFor(clerk, inviter, 'Ticket Audits');
    const invitee = await createUser(suite.server, 'ticket-invitee');
    const bystander = await createUser(suite.server, 'ticket-no-org');

    const { page } = await suite.newPage();
    await signInWithPassword(page, suite.server.origin, bystander.email);
    await waitForPath(page, '/create-organization');
    await page.getByTestId('create-organization-page').waitFor();

    const invitation = await clerk.organizations.createOrganizationInvitation({
      organizationId: organization.id,
      inviterUserId: inviter.id,
      emailAddress: invitee.email,
      role: 'org:member',
    });
    assert.ok(invitation.url, 'the Backend API answers the accept link');
    const ticketSignIn = nextFapiResponse(page, 'POST', /\/v1\/client\/sign_ins$/);
    await page.goto(invitation.url);
    const started = (await (await ticketSignIn).json()) as { response: { status: string } };
    assert.equal(started.response.status, 'complete');

    assert.equal(await settledUrl(page), '/dashboard');
    await page.getByTestId('user-email').filter({ hasText: invitee.email }).waitFor();
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Ticket Audits' }).waitFor();
  });
});
