import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { sha256 } from '../src/crypto/secrets.ts';
import { insertMembership, insertOrganization } from '../src/store/organizations.ts';
import type { OrganizationRow } from '../src/store/rows.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { FAPI, Harness, PUBLIC_URL, uniqueEmail } from './support/harness.ts';

const DAY_MS = 24 * 3600 * 1000;

forEachBackend('organisation invitations through @clerk/backend 2.10.1', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let org: OrganizationRow;
  let adminId: string;
  let adminEmail: string;
  before(async () => {
    h = await Harness.start(backend, { config: { allowedOrigins: ['https://partner.example.org'] } });
    clerk = await backendApiClient(h);
    adminEmail = uniqueEmail('bapi-admin');
    ({ userId: adminId } = await signUp(h, h.browser(), adminEmail, { firstName: 'Ada', lastName: 'Admin' }));
    org = await insertOrganization(h.db, {
      name: 'Backend Co',
      slug: `backend-co-${Date.now()}`,
      createdBy: adminId,
      now: h.clock.now,
    });
    await insertMembership(h.db, {
      organizationId: org.id,
      userId: adminId,
      role: 'org:admin',
      now: h.clock.now,
    });
  });
  after(() => h.close());

  it('createOrganizationInvitation returns the invitation with its accept url and mails the same link', async () => {
    h.clock.set(new Date());
    const email = uniqueEmail('bapi-invitee');
    const inv = await clerk.organizations.createOrganizationInvitation({
      organizationId: org.id,
      emailAddress: email,
      role: 'org:member',
      inviterUserId: adminId,
      publicMetadata: { team: 'blue' },
      // Not in the 2.10.1 parameter type, but passed through (snake_cased) like hosted Clerk takes it.
      ...({ privateMetadata: { source: 'crm' } } as object),
    });
    assert.match(inv.id, /^orginv_/);
    assert.equal(inv.emailAddress, email);
    assert.equal(inv.role, 'org:member');
    assert.equal(inv.roleName, 'Member');
    assert.equal(inv.organizationId, org.id);
    assert.equal(inv.status, 'pending');
    assert.deepEqual(inv.publicMetadata, { team: 'blue' });
    assert.deepEqual(inv.privateMetadata, { source: 'crm' });
    assert.equal(inv.publicOrganizationData?.name, 'Backend Co');
    assert.equal(inv.expiresAt - inv.createdAt, 30 * DAY_MS);
    assert.ok(inv.url?.startsWith(`${PUBLIC_URL}${FAPI}/v1/tickets/accept?ticket=`), String(inv.url));

    const [mail] = await h.mail(email);
    assert.ok(mail?.text.includes(inv.url!), 'the mailed link is the returned url');
    // The organisation names no language: its invitation speaks the product's default, French.
    assert.match(mail!.text, /«\u00a0Ada Admin\u00a0» vous invite/);
    const ticket = new URL(inv.url!).searchParams.get('ticket')!;
    const [row] = await h.db.query<{ ticket_hash: string }>(
      'SELECT ticket_hash FROM organization_invitations WHERE id = $1',
      [inv.id],
    );
    assert.equal(row!.ticket_hash, sha256(ticket));

    // The url is a working ticket: sign-up by ticket joins the organisation.
    const browser = h.browser();
    const su = await browser.post('/client/sign_ups', { strategy: 'ticket', ticket, password: PASSWORD });
    assert.equal(su.body.response.status, 'complete', JSON.stringify(su.body));
    const got = await clerk.organizations.getOrganizationInvitation({
      organizationId: org.id,
      invitationId: inv.id,
    });
    assert.equal(got.status, 'accepted');
    assert.equal(got.url, null, 'the ticket is not kept, so later reads have no url');
    const members = await h.count('organization_memberships', 'organization_id = $1', [org.id]);
    assert.equal(members, 2);
  });

  it('getOrganizationInvitationList: status filter, default paging, totalCount', async () => {
    h.clock.set(new Date());
    const emails = [uniqueEmail('list-a'), uniqueEmail('list-b')];
    const created = await clerk.organizations.createOrganizationInvitationBulk(
      org.id,
      emails.map((emailAddress) => ({ emailAddress, role: 'org:vciso', inviterUserId: adminId })),
    );
    assert.equal(created.length, 2);
    assert.deepEqual(
      created.map((i) => [i.emailAddress, i.role, i.status]),
      emails.map((e) => [e, 'org:vciso', 'pending']),
    );
    assert.ok(created.every((i) => i.url?.includes('/v1/tickets/accept?ticket=')));

    const revoked = await clerk.organizations.revokeOrganizationInvitation({
      organizationId: org.id,
      invitationId: created[0]!.id,
    });
    assert.equal(revoked.status, 'revoked');
    const withUser = await clerk.organizations.revokeOrganizationInvitation({
      organizationId: org.id,
      invitationId: created[1]!.id,
      requestingUserId: adminId,
    });
    assert.equal(withUser.status, 'revoked');
    await rejectsWith(
      clerk.organizations.revokeOrganizationInvitation({
        organizationId: org.id,
        invitationId: created[1]!.id,
      }),
      422,
      'organization_invitation_not_pending',
    );

    const all = await clerk.organizations.getOrganizationInvitationList({ organizationId: org.id });
    assert.ok(all.totalCount >= 3);
    assert.equal(all.data.length, Math.min(all.totalCount, 10));
    const onlyRevoked = await clerk.organizations.getOrganizationInvitationList({
      organizationId: org.id,
      status: ['revoked'],
    });
    assert.equal(onlyRevoked.totalCount, 2);
    assert.ok(onlyRevoked.data.every((i) => i.status === 'revoked'));
    const two = await clerk.organizations.getOrganizationInvitationList({
      organizationId: org.id,
      status: ['revoked', 'accepted'],
      limit: 1,
      offset: 0,
    });
    assert.equal(two.totalCount, 3);
    assert.equal(two.data.length, 1);
    // Newest first: one of the two revoked ones (one bulk call, one timestamp), not the older accepted one.
    assert.ok(
      created.some((i) => i.id === two.data[0]!.id),
      'newest first',
    );
  });

  it('errors: unknown organisation or invitation, bad address, role, redirect, already a member', async () => {
    await rejectsWith(
      clerk.organizations.getOrganizationInvitationList({ organizationId: 'org_missing' }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.organizations.getOrganizationInvitation({
        organizationId: org.id,
        invitationId: 'orginv_missing',
      }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.organizations.createOrganizationInvitation({
        organizationId: org.id,
        emailAddress: 'nope',
        role: 'org:member',
      }),
      422,
      'form_param_format_invalid',
      'email_address',
    );
    await rejectsWith(
      clerk.organizations.createOrganizationInvitation({
        organizationId: org.id,
        emailAddress: uniqueEmail(),
        role: 'org:wizard',
      }),
      422,
      'form_param_value_invalid',
      'role',
    );
    await rejectsWith(
      clerk.organizations.createOrganizationInvitation({
        organizationId: org.id,
        emailAddress: uniqueEmail(),
        role: 'org:member',
        redirectUrl: 'https://evil.example.com/welcome',
      }),
      422,
      'form_param_value_invalid',
      'redirect_url',
    );
    await rejectsWith(
      clerk.organizations.createOrganizationInvitation({
        organizationId: org.id,
        emailAddress: adminEmail,
        role: 'org:member',
      }),
      422,
      'already_a_member_in_organization',
    );
    await rejectsWith(
      clerk.organizations.createOrganizationInvitation({
        organizationId: org.id,
        emailAddress: uniqueEmail(),
        role: 'org:member',
        inviterUserId: 'user_missing',
      }),
      422,
      'form_param_value_invalid',
      'inviter_user_id',
    );
    await rejectsWith(
      clerk.organizations.createOrganizationInvitation({
        organizationId: org.id,
        emailAddress: uniqueEmail(),
        role: 'org:member',
        ...({ expiresInDays: 0.5 } as object),
      }),
      422,
      'form_param_value_invalid',
      'expires_in_days',
    );
    // One bad entry fails the whole bulk call.
    const ok = uniqueEmail('bulk-ok');
    await rejectsWith(
      clerk.organizations.createOrganizationInvitationBulk(org.id, [
        { emailAddress: ok, role: 'org:member' },
        { emailAddress: 'bad', role: 'org:member' },
      ]),
      422,
      'form_param_format_invalid',
    );
    assert.equal(await h.count('organization_invitations', 'email_address = $1', [ok]), 0);
    // Exact application/json, Clerk envelope, no SDK involved.
    const raw = await h.bapi(`/v1/organizations/${org.id}/invitations/orginv_missing`);
    assert.equal(raw.headers['content-type'], 'application/json');
    assert.equal(raw.json().errors[0].code, 'resource_not_found');
  });

  it('redirect_url and expires_in_days: the link lands on the given page; the invitation lives that long', async () => {
    h.clock.set(new Date());
    const email = uniqueEmail('partner');
    const inv = await clerk.organizations.createOrganizationInvitation({
      organizationId: org.id,
      emailAddress: email,
      role: 'org:member',
      redirectUrl: 'https://partner.example.org/join?from=mail',
      ...({ expiresInDays: 3 } as object),
    });
    assert.equal(inv.expiresAt - inv.createdAt, 3 * DAY_MS);
    const url = new URL(inv.url!);
    assert.equal(url.searchParams.get('redirect_url'), 'https://partner.example.org/join?from=mail');
    const landing = await h.browser().raw('GET', url.pathname + url.search);
    assert.equal(landing.status, 303);
    const location = new URL(landing.headers.location as string);
    assert.equal(location.origin + location.pathname, 'https://partner.example.org/join');
    assert.equal(location.searchParams.get('from'), 'mail');
    assert.equal(location.searchParams.get('__clerk_ticket'), url.searchParams.get('ticket'));
    assert.equal(location.searchParams.get('__clerk_status'), 'sign_up');

    // A redirect_url edited into the link is only followed to allowed origins.
    url.searchParams.set('redirect_url', 'https://evil.example.com/');
    const tampered = await h.browser().raw('GET', url.pathname + url.search);
    assert.ok((tampered.headers.location as string).startsWith(`${PUBLIC_URL}/sign-up?`));

    h.clock.advance(3 * 24 * 3600);
    const later = await clerk.organizations.getOrganizationInvitation({
      organizationId: org.id,
      invitationId: inv.id,
    });
    assert.equal(later.status, 'expired');
    h.clock.set(new Date());
  });

  it('inviting a pending address again through the BAPI keeps one invitation and its metadata', async () => {
    h.clock.set(new Date());
    const email = uniqueEmail('twice');
    const first = await clerk.organizations.createOrganizationInvitation({
      organizationId: org.id,
      emailAddress: email,
      role: 'org:member',
      publicMetadata: { keep: true },
    });
    const second = await clerk.organizations.createOrganizationInvitation({
      organizationId: org.id,
      emailAddress: email,
      role: 'org:admin',
    });
    assert.equal(second.id, first.id);
    assert.equal(second.role, 'org:admin');
    assert.deepEqual(second.publicMetadata, { keep: true });
    assert.notEqual(second.url, first.url);
    assert.equal(await h.count('organization_invitations', 'email_address = $1', [email]), 1);
  });
});
