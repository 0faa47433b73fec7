import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { sha256 } from '../src/crypto/secrets.ts';
import { insertMembership, insertOrganization } from '../src/store/organizations.ts';
import type { OrganizationRow } from '../src/store/rows.ts';
import { forEachBackend } from './support/backends.ts';
import { signInWithPassword, signUp } from './support/flows.ts';
import { FAPI, Harness, PUBLIC_URL, uniqueEmail, type Browser, type Json } from './support/harness.ts';

const DAY_MS = 24 * 3600 * 1000;
const LINK_RE = /(https?:\/\/\S+\/v1\/tickets\/accept\?ticket=[A-Za-z0-9_-]+)/;

interface Team {
  org: OrganizationRow;
  admin: Browser;
  adminId: string;
  adminEmail: string;
}

/** An organisation with a signed-in admin (organisations are inserted directly until their routes land). */
async function team(h: Harness, name = 'Acme'): Promise<Team> {
  const adminEmail = uniqueEmail('admin');
  const admin = h.browser();
  const { userId } = await signUp(h, admin, adminEmail, { firstName: 'Grace', lastName: 'Hopper' });
  const org = await insertOrganization(h.db, {
    name,
    slug: `${name.toLowerCase()}-${randomBytes(4).toString('hex')}`,
    createdBy: userId,
    // These tests read the mail's English words (mail-language.test.ts covers the French ones).
    publicMetadata: { uiLanguage: 'EN' },
    now: h.clock.now,
  });
  await insertMembership(h.db, { organizationId: org.id, userId, role: 'org:admin', now: h.clock.now });
  return { org, admin, adminId: userId, adminEmail };
}

/** A signed-up user who is a member of the organisation with `role`. */
async function member(h: Harness, org: OrganizationRow, role: string) {
  const email = uniqueEmail('member');
  const browser = h.browser();
  const { userId } = await signUp(h, browser, email);
  await insertMembership(h.db, { organizationId: org.id, userId, role, now: h.clock.now });
  return { browser, userId, email };
}

/** The link of the newest invitation mailed to `to` (from `organization`, when given). */
async function mailedLink(h: Harness, to: string, organization?: string): Promise<string> {
  const mail = (await h.mail(to)).find(
    (m) => LINK_RE.test(m.text) && (!organization || m.text.includes(`“${organization}”`)),
  );
  const link = mail?.text.match(LINK_RE)?.[1];
  assert.ok(link, `an invitation link was mailed to ${to}`);
  return link;
}

const ticketOf = (link: string) => new URL(link).searchParams.get('ticket')!;

async function follow(browser: Browser, link: string) {
  const url = new URL(link);
  return browser.raw('GET', url.pathname + url.search);
}

function assertError(res: { status: number; body: Json }, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code, JSON.stringify(res.body));
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

forEachBackend('organisation invitations (FAPI)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  it('an admin invites an address: wrapped invitation JSON, a stored ticket hash and a mailed link', async () => {
    const { org, admin, adminId } = await team(h);
    const invitee = uniqueEmail('Invitee');
    const res = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: invitee,
      role: 'org:member',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const inv = res.body.response;
    assert.equal(inv.object, 'organization_invitation');
    assert.match(inv.id, /^orginv_/);
    assert.equal(inv.email_address, invitee.toLowerCase());
    assert.equal(inv.role, 'org:member');
    assert.equal(inv.role_name, 'Member');
    assert.equal(inv.organization_id, org.id);
    assert.equal(inv.status, 'pending');
    assert.deepEqual(inv.public_metadata, {});
    assert.equal(inv.private_metadata, undefined);
    assert.equal(inv.url, undefined, 'the ticket never reaches the admin');
    assert.deepEqual(inv.public_organization_data, {
      id: org.id,
      name: org.name,
      slug: org.slug,
      image_url: '',
      has_image: false,
    });
    assert.equal(inv.expires_at - inv.created_at, 30 * DAY_MS);
    assert.equal(inv.created_at, h.clock.now.getTime());
    assert.ok(res.body.client, 'the client is piggy-backed');

    const [mail] = await h.mail(invitee);
    assert.ok(mail);
    assert.equal(mail.subject, 'You have been invited to an organization on Qoala');
    assert.match(
      mail.text,
      /“Grace Hopper” has invited you to join the organization “Acme” on Qoala as Member\./,
    );
    const link = mail.text.match(LINK_RE)![1]!;
    assert.ok(link.startsWith(`${PUBLIC_URL}${FAPI}/v1/tickets/accept?ticket=`), link);
    assert.ok(mail.html.includes(link));
    const ticket = ticketOf(link);
    assert.ok(ticket.length >= 40);
    const [row] = await h.db.query<{ ticket_hash: string; inviter_user_id: string }>(
      'SELECT ticket_hash, inviter_user_id FROM organization_invitations WHERE id = $1',
      [inv.id],
    );
    assert.equal(row!.ticket_hash, sha256(ticket), 'only the SHA-256 of the ticket is stored');
    assert.equal(row!.inviter_user_id, adminId);

    // The link works: a new address lands on the sign-up page with the ticket.
    const landing = await follow(h.browser(), link);
    assert.equal(landing.status, 303);
    assert.equal(
      landing.headers.location,
      `${PUBLIC_URL}/sign-up?__clerk_ticket=${ticket}&__clerk_status=sign_up`,
    );
  });

  it('bulk invitations: repeated email_address, one role, a wrapped array and one mail each', async () => {
    const { org, admin } = await team(h);
    const a = uniqueEmail('bulk-a');
    const b = uniqueEmail('bulk-b');
    const res = await admin.raw('POST', `${FAPI}/v1/organizations/${org.id}/invitations/bulk`, undefined);
    assert.equal(res.status, 422, 'no addresses at all');
    assert.equal(res.body.errors[0].code, 'form_param_nil');

    const body = new URLSearchParams([
      ['email_address', a],
      ['email_address', ` ${b} `],
      ['email_address', ''],
      ['role', 'org:vciso'],
    ]);
    const created = await h.app.inject({
      method: 'POST',
      url: `${FAPI}/v1/organizations/${org.id}/invitations/bulk?__clerk_api_version=2025-04-10`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        origin: PUBLIC_URL,
      },
      payload: body.toString(),
    });
    assert.equal(created.statusCode, 200, created.body);
    const json = created.json();
    assert.ok(Array.isArray(json.response));
    assert.deepEqual(
      json.response.map((i: Json) => [i.email_address, i.role, i.role_name, i.status]),
      [
        [a, 'org:vciso', 'Virtual security officer', 'pending'],
        [b, 'org:vciso', 'Virtual security officer', 'pending'],
      ],
    );
    await mailedLink(h, a);
    await mailedLink(h, b);
  });

  it('validation: email format, missing and unknown role, already a member; nothing is written', async () => {
    const { org, admin, adminEmail } = await team(h);
    const before = await h.count('organization_invitations', 'organization_id = $1', [org.id]);

    assertError(
      await admin.post(`/organizations/${org.id}/invitations`, {
        email_address: 'not-an-email',
        role: 'org:member',
      }),
      422,
      'form_param_format_invalid',
      'email_address',
    );
    assertError(
      await admin.post(`/organizations/${org.id}/invitations`, { email_address: '', role: 'org:member' }),
      422,
      'form_param_nil',
      'email_address',
    );
    assertError(
      await admin.post(`/organizations/${org.id}/invitations`, {
        email_address: uniqueEmail(),
        role: 'org:owner',
      }),
      422,
      'form_param_value_invalid',
      'role',
    );
    assertError(
      await admin.post(`/organizations/${org.id}/invitations`, { email_address: uniqueEmail() }),
      422,
      'form_param_nil',
      'role',
    );
    const already = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: adminEmail.toUpperCase(),
      role: 'org:member',
    });
    assertError(already, 422, 'already_a_member_in_organization');
    // InviteMembersForm extracts the address from long_message and drops meta.email_addresses from its input.
    assert.match(already.body.errors[0].long_message, new RegExp(adminEmail.replace(/[.+]/g, '\\$&')));
    assert.deepEqual(already.body.errors[0].meta.email_addresses, [adminEmail]);

    // One bad address fails the whole bulk request.
    const fresh = uniqueEmail('fresh');
    const bulk = await h.app.inject({
      method: 'POST',
      url: `${FAPI}/v1/organizations/${org.id}/invitations/bulk`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      payload: `email_address=${encodeURIComponent(fresh)}&email_address=bad%40&role=org%3Amember`,
    });
    assert.equal(bulk.statusCode, 422);
    assert.equal(bulk.json().errors[0].code, 'form_param_format_invalid');
    assert.deepEqual(bulk.json().errors[0].meta.email_addresses, ['bad@']);
    assert.equal(await h.count('organization_invitations', 'organization_id = $1', [org.id]), before);
    assert.equal((await h.mail(fresh)).length, 0);
  });

  it('inviting a pending address again refreshes the same invitation and replaces its link', async () => {
    const { org, admin } = await team(h);
    const invitee = uniqueEmail('again');
    const first = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: invitee,
      role: 'org:member',
    });
    const oldLink = await mailedLink(h, invitee);
    h.clock.advance(60);
    const second = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: invitee.toUpperCase(),
      role: 'org:vciso',
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.response.id, first.body.response.id);
    assert.equal(second.body.response.role, 'org:vciso');
    assert.equal(second.body.response.created_at, first.body.response.created_at);
    assert.equal(second.body.response.updated_at, h.clock.now.getTime());
    assert.equal(second.body.response.expires_at, h.clock.now.getTime() + 30 * DAY_MS);
    assert.equal(await h.count('organization_invitations', 'organization_id = $1', [org.id]), 1);
    assert.equal((await h.mail(invitee)).length, 2);
    const newLink = await mailedLink(h, invitee);
    assert.notEqual(newLink, oldLink);
    assert.match((await follow(h.browser(), oldLink)).headers.location as string, /__clerk_status=expired/);
    assert.match((await follow(h.browser(), newLink)).headers.location as string, /__clerk_status=sign_up/);
  });

  it('lists invitations with the status filter, pagination and expiry after 30 days', async () => {
    const { org, admin, adminEmail } = await team(h);
    const emails = [uniqueEmail('l1'), uniqueEmail('l2'), uniqueEmail('l3')];
    const ids: string[] = [];
    for (const email of emails) {
      h.clock.advance(1);
      const res = await admin.post(`/organizations/${org.id}/invitations`, {
        email_address: email,
        role: 'org:member',
      });
      ids.push(res.body.response.id);
    }
    const revoked = await admin.post(`/organizations/${org.id}/invitations/${ids[0]}/revoke`);
    assert.equal(revoked.status, 200);

    const all = await admin.get(`/organizations/${org.id}/invitations`);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body.response.total_count, 3);
    assert.deepEqual(
      all.body.response.data.map((i: Json) => i.id),
      [...ids].reverse(),
      'newest first',
    );
    const pending = await admin.get(`/organizations/${org.id}/invitations`, {
      status: 'pending',
      limit: '1',
    });
    assert.equal(pending.body.response.total_count, 2);
    assert.deepEqual(
      pending.body.response.data.map((i: Json) => i.id),
      [ids[2]],
    );
    const page2 = await admin.get(`/organizations/${org.id}/invitations`, {
      status: 'pending',
      limit: '1',
      offset: '1',
    });
    assert.deepEqual(
      page2.body.response.data.map((i: Json) => i.id),
      [ids[1]],
    );
    const search = new URLSearchParams([
      ['status', 'pending'],
      ['status', 'revoked'],
    ]);
    const both = await admin.raw('GET', `${FAPI}/v1/organizations/${org.id}/invitations?${search}`);
    assert.equal(both.body.response.total_count, 3);
    assertError(
      await admin.get(`/organizations/${org.id}/invitations`, { status: 'bogus' }),
      422,
      'form_param_value_invalid',
      'status',
    );

    // 31 days on, the pending ones read as expired (the admin signs in again: sessions last a week).
    h.clock.advance(31 * 24 * 3600);
    const again = h.browser();
    await signInWithPassword(again, adminEmail);
    const expired = await again.get(`/organizations/${org.id}/invitations`, { status: 'expired' });
    assert.deepEqual(
      expired.body.response.data.map((i: Json) => [i.id, i.status]),
      [
        [ids[2], 'expired'],
        [ids[1], 'expired'],
      ],
    );
    assert.equal(
      (await again.get(`/organizations/${org.id}/invitations`, { status: 'pending' })).body.response
        .total_count,
      0,
    );
    assertError(
      await again.post(`/organizations/${org.id}/invitations/${ids[1]}/revoke`),
      422,
      'organization_invitation_not_pending',
    );

    // Inviting an expired address again issues a new invitation; the old one stays expired.
    const renewed = await again.post(`/organizations/${org.id}/invitations`, {
      email_address: emails[1]!,
      role: 'org:member',
    });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.notEqual(renewed.body.response.id, ids[1]);
    assert.equal(renewed.body.response.status, 'pending');
    const [old] = await h.db.query<{ status: string }>(
      'SELECT status FROM organization_invitations WHERE id = $1',
      [ids[1]],
    );
    assert.equal(old!.status, 'expired');
  });

  it('revokes a pending invitation once; its link then lands as expired', async () => {
    const { org, admin } = await team(h);
    const invitee = uniqueEmail('revoked');
    const created = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: invitee,
      role: 'org:member',
    });
    const id = created.body.response.id;
    const revoked = await admin.post(`/organizations/${org.id}/invitations/${id}/revoke`);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal(revoked.body.response.status, 'revoked');
    assert.equal(revoked.body.response.id, id);
    assertError(
      await admin.post(`/organizations/${org.id}/invitations/${id}/revoke`),
      422,
      'organization_invitation_not_pending',
    );
    assertError(
      await admin.post(`/organizations/${org.id}/invitations/orginv_doesnotexist/revoke`),
      404,
      'resource_not_found',
    );
    const landing = await follow(h.browser(), await mailedLink(h, invitee));
    assert.equal(landing.status, 303);
    assert.match(
      landing.headers.location as string,
      /^http:\/\/localhost:3000\/sign-in\?.*__clerk_status=expired/,
    );
  });

  it('permissions: members may list but not invite or revoke; outsiders see no organisation', async () => {
    const { org, admin } = await team(h);
    const created = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: uniqueEmail(),
      role: 'org:member',
    });
    const { browser: plain } = await member(h, org, 'org:member');
    const list = await plain.get(`/organizations/${org.id}/invitations`);
    assert.equal(list.status, 200, 'org:member holds org:sys_memberships:read');
    assertError(
      await plain.post(`/organizations/${org.id}/invitations`, {
        email_address: uniqueEmail(),
        role: 'org:member',
      }),
      403,
      'not_allowed_access',
    );
    assertError(
      await plain.post(`/organizations/${org.id}/invitations/bulk`, {
        email_address: uniqueEmail(),
        role: 'org:member',
      }),
      403,
      'not_allowed_access',
    );
    assertError(
      await plain.post(`/organizations/${org.id}/invitations/${created.body.response.id}/revoke`),
      403,
      'not_allowed_access',
    );
    // The vCISO role manages memberships.
    const { browser: vciso } = await member(h, org, 'org:vciso');
    const byVciso = await vciso.post(`/organizations/${org.slug}/invitations`, {
      email_address: uniqueEmail(),
      role: 'org:member',
    });
    assert.equal(byVciso.status, 200, 'the path takes a slug too');

    const outsider = h.browser();
    await signUp(h, outsider, uniqueEmail('outsider'));
    assertError(await outsider.get(`/organizations/${org.id}/invitations`), 404, 'resource_not_found');
    assertError(
      await outsider.post(`/organizations/${org.id}/invitations`, {
        email_address: uniqueEmail(),
        role: 'org:member',
      }),
      404,
      'resource_not_found',
    );
    assertError(await h.browser().get(`/organizations/${org.id}/invitations`), 404, 'resource_not_found');
  });

  it('Clerk test-mode addresses get no mail on a development instance', async () => {
    const { org, admin } = await team(h);
    const testAddress = `tester+clerk_test-${randomBytes(3).toString('hex')}@example.com`;
    const res = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: testAddress,
      role: 'org:member',
    });
    assert.equal(res.status, 200);
    assert.equal((await h.mail(testAddress)).length, 0);
  });

  it('max_allowed_memberships counts members and open invitations', async () => {
    const { org, admin } = await team(h);
    await h.db.query('UPDATE organizations SET max_allowed_memberships = 2 WHERE id = $1', [org.id]);
    const ok = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: uniqueEmail(),
      role: 'org:member',
    });
    assert.equal(ok.status, 200);
    assertError(
      await admin.post(`/organizations/${org.id}/invitations`, {
        email_address: uniqueEmail(),
        role: 'org:member',
      }),
      422,
      'organization_membership_quota_exceeded',
    );
  });

  it('an invitation sent before sign-up is listed and accepted after a normal verified sign-up', async () => {
    const { org, admin } = await team(h, 'Globex');
    const other = await team(h, 'Initech');
    const invitee = uniqueEmail('later');
    const inv = (
      await admin.post(`/organizations/${org.id}/invitations`, { email_address: invitee, role: 'org:vciso' })
    ).body.response;
    const inv2 = (
      await other.admin.post(`/organizations/${other.org.id}/invitations`, {
        email_address: invitee,
        role: 'org:member',
      })
    ).body.response;

    // The invitee ignores the link and signs up the usual way (email code).
    const browser = h.browser();
    await signUp(h, browser, invitee);
    const list = await browser.get('/me/organization_invitations', { limit: '10', offset: '0' });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.response.total_count, 2);
    const mine = list.body.response.data.find((i: Json) => i.id === inv.id);
    assert.deepEqual(
      { ...mine, created_at: 0, updated_at: 0 },
      {
        object: 'organization_invitation',
        id: inv.id,
        email_address: invitee,
        role: 'org:vciso',
        public_organization_data: {
          id: org.id,
          name: 'Globex',
          slug: org.slug,
          image_url: '',
          has_image: false,
        },
        public_metadata: {},
        status: 'pending',
        created_at: 0,
        updated_at: 0,
      },
    );

    const accepted = await browser.post(`/me/organization_invitations/${inv.id}/accept`);
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.response.status, 'accepted');
    assert.equal(accepted.body.response.public_organization_data.id, org.id);
    const user = accepted.body.client.sessions[0].user;
    const membership = user.organization_memberships.find((m: Json) => m.organization.id === org.id);
    assert.ok(membership, 'the piggy-backed client carries the new membership');
    assert.equal(membership.role, 'org:vciso');
    assert.ok(membership.permissions.includes('org:sys_memberships:manage'));

    assertError(
      await browser.post(`/me/organization_invitations/${inv.id}/accept`),
      422,
      'organization_invitation_not_pending',
    );
    const left = await browser.get('/me/organization_invitations');
    assert.deepEqual(
      left.body.response.data.map((i: Json) => i.id),
      [inv2.id],
    );
    const acceptedList = await browser.get('/me/organization_invitations', { status: 'accepted' });
    assert.deepEqual(
      acceptedList.body.response.data.map((i: Json) => i.id),
      [inv.id],
    );
    const adminView = await admin.get(`/organizations/${org.id}/invitations`, { status: 'accepted' });
    assert.deepEqual(
      adminView.body.response.data.map((i: Json) => i.id),
      [inv.id],
    );

    // Nobody else can see or accept it.
    const stranger = h.browser();
    await signUp(h, stranger, uniqueEmail('stranger'));
    assert.equal((await stranger.get('/me/organization_invitations')).body.response.total_count, 0);
    assertError(
      await stranger.post(`/me/organization_invitations/${inv2.id}/accept`),
      404,
      'resource_not_found',
    );
    assertError(await h.browser().get('/me/organization_invitations'), 404, 'resource_not_found');
    // The link of an accepted invitation no longer works.
    const landing = await follow(h.browser(), await mailedLink(h, invitee, 'Globex'));
    assert.match(landing.headers.location as string, /__clerk_status=expired/);
    // The other organisation's link still signs them in.
    const other2 = await follow(h.browser(), await mailedLink(h, invitee, 'Initech'));
    assert.match(other2.headers.location as string, /\/sign-in\?__clerk_ticket=.*&__clerk_status=sign_in$/);
  });

  it('accepting an invitation to an organisation the user already belongs to keeps the membership', async () => {
    const { org, admin } = await team(h);
    const invitee = uniqueEmail('dup');
    const inv = (
      await admin.post(`/organizations/${org.id}/invitations`, { email_address: invitee, role: 'org:admin' })
    ).body.response;
    const browser = h.browser();
    const { userId } = await signUp(h, browser, invitee);
    await insertMembership(h.db, { organizationId: org.id, userId, role: 'org:member', now: h.clock.now });
    const accepted = await browser.post(`/me/organization_invitations/${inv.id}/accept`);
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.response.status, 'accepted');
    const [m] = await h.db.query<{ role: string }>(
      'SELECT role FROM organization_memberships WHERE organization_id = $1 AND user_id = $2',
      [org.id, userId],
    );
    assert.equal(m!.role, 'org:member');
  });
});
