import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useSuite, nextFapiResponse } from '../support/suite.ts';
import {
  addMember,
  backendClient,
  createOrganizationFor,
  createUser,
  type TestUser,
} from '../support/backend.ts';
import {
  clickUntilRequest,
  createOrganization,
  sessionToken,
  signUpUntilSignedIn,
  uniqueEmail,
  waitForPath,
  PASSWORD,
} from '../support/flows.ts';
import { chooseInOrganizationSwitcher, sessionClaims } from '../support/organizations.ts';
import { signedInPage } from '../support/wire-session.ts';
import type { OutboxMail } from '../support/outbox.ts';

interface Me {
  userId: string;
  orgId: string | null;
  orgRole: string | null;
  orgSlug: string | null;
}

describe('organisations through the Clerk UI', () => {
  const suite = useSuite();
  const api = async (page: Page): Promise<Me> => {
    const res = await fetch(`${suite.server.origin}/api/me`, {
      headers: { authorization: `Bearer ${await sessionToken(page)}` },
    });
    assert.equal(res.status, 200);
    return (await res.json()) as Me;
  };

  /** The invitation link mailed to `email`, from the development outbox. */
  async function invitationLink(email: string): Promise<string> {
    for (let i = 0; i < 50; i++) {
      const mails = (await (
        await fetch(`${suite.server.origin}/__dev/mail?to=${encodeURIComponent(email)}`)
      ).json()) as OutboxMail[];
      const link = mails[0]?.text.match(/https?:\/\/\S+tickets\/accept\?ticket=[\w-]+/)?.[0];
      if (link) return link;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no invitation mailed to ${email}`);
  }

  /** A browser signed in as `user` (over the wire: signing in is not what these tests are about), settled on its first page. */
  const signedIn = async (user: TestUser): Promise<Page> => (await signedInPage(suite, user)).page;

  /** What a test needs but is not about: an organisation with an admin and, if asked, a member. */
  async function organizationWith(name: string, opts: { member?: boolean } = {}) {
    const clerk = backendClient(suite.server);
    const admin = await createUser(suite.server, 'org-admin');
    const organization = await createOrganizationFor(clerk, admin, name);
    const member = opts.member ? await createUser(suite.server, 'org-member') : null;
    if (member) await addMember(clerk, organization.id, member.id, 'org:member');
    return { organization, admin, member };
  }

  test('(a) a new user without an organisation is sent to /create-organization, creates one, and is its admin', async () => {
    const { page: admin } = await suite.newPage();
    await signUpUntilSignedIn(admin, suite.server.origin, uniqueEmail('org-admin'));
    await waitForPath(admin, '/create-organization');
    await admin.getByTestId('create-organization-page').waitFor();
    await createOrganization(admin, 'Acme Security');
    assert.equal(await admin.getByTestId('dashboard-role').textContent(), 'Admin');
    const me = await api(admin);
    assert.match(me.orgId ?? '', /^org_/);
    assert.equal(me.orgRole, 'org:admin');
    // Every module starts switched off (default metadata written by the server).
    for (const key of ['vCiso', 'compliance', 'qompanion', 'hexadiag', 'passport']) {
      assert.equal(await admin.getByTestId(`module-${key}`).getAttribute('data-enabled'), 'false');
    }
  });

  test('(b) the admin invites a second address; that person signs up from the emailed link and joins as member', async () => {
    const { admin: adminUser } = await organizationWith('Acme Security');
    const admin = await signedIn(adminUser);
    const memberEmail = uniqueEmail('org-member');
    const { page: member } = await suite.newPage();
    await admin.goto(`${suite.server.origin}/organization/organization-members`);
    await admin.getByRole('button', { name: 'Invite' }).click();
    // The real invite form: addresses become tags when followed by a comma or space; the role defaults to Member.
    await admin.getByTestId('tag-input').pressSequentially(`${memberEmail},`);
    const sent = nextFapiResponse(admin, 'POST', /\/invitations\/bulk$/);
    await admin.getByRole('button', { name: 'Send invitations' }).click();
    assert.equal((await sent).status(), 200);

    const link = await invitationLink(memberEmail);
    await member.goto(link);
    await waitForPath(member, '/sign-up');
    // The ticket proves the address: only the password is asked for.
    await member.locator('input[name=password]').fill(PASSWORD);
    await clickUntilRequest(
      member,
      member.getByRole('button', { name: 'Continue', exact: true }),
      /\/v1\/client\/sign_ups(\/[^/]+)?$/,
    );
    await waitForPath(member, '/dashboard');
    await member.getByTestId('dashboard-org-name').filter({ hasText: 'Acme Security' }).waitFor();
    assert.equal(await member.getByTestId('dashboard-role').textContent(), 'Member');
    assert.equal((await api(member)).orgRole, 'org:member');
  });

  test('(e) a member cannot open members management or change roles (hidden in the UI, 403 from the API)', async () => {
    const { member: memberUser } = await organizationWith('Acme Security', { member: true });
    const member = await signedIn(memberUser!);
    await member.goto(`${suite.server.origin}/members`);
    await member.getByTestId('members-forbidden').waitFor();
    const status = await member.evaluate(async (userId) => {
      const clerk = (
        window as unknown as {
          Clerk: { organization: { updateMember(p: { userId: string; role: string }): Promise<unknown> } };
        }
      ).Clerk;
      try {
        await clerk.organization.updateMember({ userId, role: 'org:admin' });
        return 'allowed';
      } catch (err) {
        return `${(err as { status?: number }).status}:${(err as { errors?: { code: string }[] }).errors?.[0]?.code}`;
      }
    }, memberUser!.id);
    assert.equal(status, '403:not_allowed_access');
  });

  test('(c) the admin makes the member a virtual security officer; the member sees it after the next token', async () => {
    const { admin: adminUser, member: memberUser } = await organizationWith('Acme Security', {
      member: true,
    });
    const memberUserId = memberUser!.id;
    const admin = await signedIn(adminUser);
    const member = await signedIn(memberUser!);
    await member.getByTestId('dashboard-role').filter({ hasText: 'Member' }).waitFor();
    await admin.goto(`${suite.server.origin}/members`);
    await admin.getByTestId('members-page').waitFor();
    const updated = nextFapiResponse(admin, 'PATCH', new RegExp(`/memberships/${memberUserId}$`));
    await admin.getByTestId(`members-role-select-${memberUserId}`).selectOption('org:vciso');
    assert.equal((await updated).status(), 200);

    await member.goto(`${suite.server.origin}/dashboard`);
    await member.getByTestId('dashboard-role').filter({ hasText: 'Virtual security officer' }).waitFor();
    assert.equal((await api(member)).orgRole, 'org:vciso');
    assert.equal((await sessionClaims(member)).org_role, 'org:vciso');
  });

  test('(g) on /members the admin adds an existing account and invites a new address by email, with worded refusals', async () => {
    const { organization, admin: adminUser } = await organizationWith('Acme Security');
    const existing = await createUser(suite.server, 'org-existing');
    const admin = await signedIn(adminUser);
    await admin.goto(`${suite.server.origin}/members`);
    await admin.getByTestId('members-page').waitFor();
    const address = admin.getByTestId('members-add-email');
    const submit = admin.getByTestId('members-add-submit');
    const notice = admin.getByTestId('members-notice');
    const error = admin.getByTestId('members-error');

    // Not an address: said at once, in the interface's words, and nothing is sent.
    await address.fill('not-an-address');
    await submit.click();
    await error.filter({ hasText: 'Enter a valid email address, such as name@example.com.' }).waitFor();

    // An account with this (verified) address joins at once and shows in the list.
    await address.fill(` ${existing.email.toUpperCase()} `);
    await submit.click();
    await notice.filter({ hasText: 'already had an account and is now a member, as Member.' }).waitFor();
    await admin.getByTestId(`members-row-${existing.id}`).waitFor();
    assert.equal(await address.inputValue(), '');
    const clerk = backendClient(suite.server);
    const memberships = await clerk.organizations.getOrganizationMembershipList({
      organizationId: organization.id,
    });
    assert.equal(memberships.data.find((m) => m.publicUserData?.userId === existing.id)?.role, 'org:member');
    await address.fill(existing.email);
    await submit.click();
    await error.filter({ hasText: 'This person is already a member of the organisation.' }).waitFor();

    // Anyone else is sent an invitation, with the role chosen.
    const newcomer = uniqueEmail('org-newcomer');
    await address.fill(newcomer);
    await admin.getByTestId('members-add-role').selectOption('org:vciso');
    await submit.click();
    await notice
      .filter({ hasText: `An invitation was sent to ${newcomer}, as Virtual security officer.` })
      .waitFor();
    assert.match(await invitationLink(newcomer), /tickets\/accept\?ticket=/);
    await address.fill(newcomer);
    await submit.click();
    await error.filter({ hasText: 'An invitation to this address is already pending.' }).waitFor();
    const invitations = await clerk.organizations.getOrganizationInvitationList({
      organizationId: organization.id,
      status: ['pending'],
    });
    assert.deepEqual(
      invitations.data.map((i) => [i.emailAddress, i.role]),
      [[newcomer, 'org:vciso']],
    );
  });

  test('(d) a user in two organisations switches with the switcher and the product API follows', async () => {
    const { admin: adminUser } = await organizationWith('Acme Security');
    const admin = await signedIn(adminUser);
    await admin.getByTestId('dashboard-org-name').filter({ hasText: 'Acme Security' }).waitFor();
    const first = (await api(admin)).orgId;
    await chooseInOrganizationSwitcher(admin, 'Create organization');
    await createOrganization(admin, 'Beta Audits');
    const second = (await api(admin)).orgId;
    assert.notEqual(second, first);

    await chooseInOrganizationSwitcher(admin, /Acme Security/);
    await admin.getByTestId('dashboard-org-name').filter({ hasText: 'Acme Security' }).waitFor();
    assert.equal((await api(admin)).orgId, first);
  });

  test('(f) leaving an organisation needs its name typed; the user then goes to another organisation or to /create-organization', async () => {
    const { member: memberUser } = await organizationWith('Acme Security', { member: true });
    const member = await signedIn(memberUser!);
    await member.goto(`${suite.server.origin}/organization`);
    await member.getByRole('button', { name: 'Leave organization' }).click();
    const confirm = member
      .locator('input[name=deleteOrganizationConfirmation], input[name=leaveOrganizationConfirmation]')
      .first();
    const leave = member.getByRole('button', { name: 'Leave organization' }).last();
    await confirm.fill('Not the name');
    // Clerk's form re-renders on input; give it the moment it needs before reading the button.
    await member.waitForFunction(
      () =>
        [...document.querySelectorAll('button')].filter((b) => b.textContent === 'Leave organization').pop()
          ?.disabled,
      null,
      { timeout: 5_000 },
    );
    assert.equal(await leave.isDisabled(), true);
    await confirm.fill('Acme Security');
    const left = nextFapiResponse(member, 'DELETE', /\/me\/organization_memberships\//);
    await leave.click();
    assert.equal((await left).status(), 200);
    // The member had no other organisation.
    await waitForPath(member, '/create-organization');
    assert.equal((await api(member)).orgId, null);
  });
});
