import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { insertMembership, insertOrganization } from '../src/store/organizations.ts';
import type { OrganizationRow } from '../src/store/rows.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, PUBLIC_URL, uniqueEmail, type Browser, type Json } from './support/harness.ts';

const LINK_RE = /(https?:\/\/\S+\/v1\/tickets\/accept\?ticket=[A-Za-z0-9_-]+)/;

interface Team {
  org: OrganizationRow;
  admin: Browser;
}

async function team(h: Harness, name = 'Acme'): Promise<Team> {
  const admin = h.browser();
  const { userId } = await signUp(h, admin, uniqueEmail('admin'));
  const org = await insertOrganization(h.db, {
    name,
    slug: `${name.toLowerCase()}-${randomBytes(4).toString('hex')}`,
    createdBy: userId,
    now: h.clock.now,
  });
  await insertMembership(h.db, { organizationId: org.id, userId, role: 'org:admin', now: h.clock.now });
  return { org, admin };
}

/** Invites `email` and returns the ticket from the mailed link. */
async function invite(h: Harness, t: Team, email: string, role = 'org:member') {
  const res = await t.admin.post(`/organizations/${t.org.id}/invitations`, { email_address: email, role });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const mail = (await h.mail(email)).find((m) => LINK_RE.test(m.text));
  const link = mail!.text.match(LINK_RE)![1]!;
  return { invitation: res.body.response as Json, link, ticket: new URL(link).searchParams.get('ticket')! };
}

async function follow(browser: Browser, link: string) {
  const url = new URL(link);
  return browser.raw('GET', url.pathname + url.search);
}

function assertError(res: { status: number; body: Json }, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code, JSON.stringify(res.body));
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

async function invitationStatus(h: Harness, id: string): Promise<string> {
  const [row] = await h.db.query<{ status: string }>(
    'SELECT status FROM organization_invitations WHERE id = $1',
    [id],
  );
  return row!.status;
}

async function roleIn(h: Harness, orgId: string, userId: string): Promise<string | null> {
  const [row] = await h.db.query<{ role: string }>(
    'SELECT role FROM organization_memberships WHERE organization_id = $1 AND user_id = $2',
    [orgId, userId],
  );
  return row?.role ?? null;
}

forEachBackend('invitation tickets', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  it('GET /tickets/accept sends a new address to sign-up and an existing account to sign-in (303)', async () => {
    const t = await team(h);
    const fresh = uniqueEmail('fresh');
    const { ticket, link } = await invite(h, t, fresh);
    const clients = await h.count('clients');
    const landing = await follow(h.browser(), link);
    assert.equal(landing.status, 303);
    assert.equal(
      landing.headers.location,
      `${PUBLIC_URL}/sign-up?__clerk_ticket=${ticket}&__clerk_status=sign_up`,
    );
    assert.equal(landing.setCookies.size, 0, 'a navigation sets no cookie');
    assert.equal(await h.count('clients'), clients, 'and creates no client');

    const existing = uniqueEmail('existing');
    await signUp(h, h.browser(), existing);
    const second = await invite(h, t, existing);
    const toSignIn = await follow(h.browser(), second.link);
    assert.equal(toSignIn.status, 303);
    assert.equal(
      toSignIn.headers.location,
      `${PUBLIC_URL}/sign-in?__clerk_ticket=${second.ticket}&__clerk_status=sign_in`,
    );
    // Following the link redeems nothing.
    assert.equal(await invitationStatus(h, second.invitation.id), 'pending');
  });

  it('unusable tickets land on sign-in with __clerk_status=expired (and the ticket, for SignIn to explain)', async () => {
    const t = await team(h);
    const browser = h.browser();
    const none = await browser.raw('GET', '/__clerk/v1/tickets/accept');
    assert.equal(none.status, 303);
    assert.equal(none.headers.location, `${PUBLIC_URL}/sign-in?__clerk_status=expired`);

    const bogus = await browser.raw('GET', '/__clerk/v1/tickets/accept?ticket=nonsense');
    assert.equal(
      bogus.headers.location,
      `${PUBLIC_URL}/sign-in?__clerk_ticket=nonsense&__clerk_status=expired`,
    );

    const revoked = await invite(h, t, uniqueEmail('revoked'));
    await t.admin.post(`/organizations/${t.org.id}/invitations/${revoked.invitation.id}/revoke`);
    assert.equal(
      (await follow(browser, revoked.link)).headers.location,
      `${PUBLIC_URL}/sign-in?__clerk_ticket=${revoked.ticket}&__clerk_status=expired`,
    );

    const expired = await invite(h, t, uniqueEmail('expired'));
    await h.db.query(`UPDATE organization_invitations SET expires_at = $2 WHERE id = $1`, [
      expired.invitation.id,
      new Date(h.clock.now.getTime() - 1000),
    ]);
    assert.equal(
      (await follow(browser, expired.link)).headers.location,
      `${PUBLIC_URL}/sign-in?__clerk_ticket=${expired.ticket}&__clerk_status=expired`,
    );
  });

  it('sign-up by ticket: verified address, password missing, then complete with the membership', async () => {
    const t = await team(h);
    const email = uniqueEmail('newcomer');
    const { ticket, invitation } = await invite(h, t, email, 'org:vciso');
    const browser = h.browser();

    // SignUpStart's handleTokenFlow: signUp.create({strategy: 'ticket', ticket}).
    const created = await browser.post('/client/sign_ups', { strategy: 'ticket', ticket });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const su = created.body.response;
    assert.equal(su.status, 'missing_requirements');
    assert.equal(su.email_address, email);
    assert.deepEqual(su.missing_fields, ['password']);
    assert.deepEqual(su.unverified_fields, []);
    assert.equal(su.verifications.email_address.status, 'verified');
    assert.equal(su.verifications.email_address.strategy, 'ticket');
    assert.equal(su.verifications.email_address.invitation_id, undefined, 'the link stays server-side');
    assert.deepEqual(created.body.client.sign_up, su);
    assert.equal(await invitationStatus(h, invitation.id), 'pending');
    assert.equal((await h.mail(email)).length, 1, 'no verification code is sent');

    // The form's submit: signUp.upsert → PATCH with the (disabled) email, password, names, ticket, strategy.
    const done = await browser.patch(`/client/sign_ups/${su.id}`, {
      email_address: email,
      password: PASSWORD,
      first_name: 'Ada',
      last_name: '',
      ticket,
      strategy: 'ticket',
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    const sessionId = done.body.response.created_session_id;
    const userId = done.body.response.created_user_id;
    const session = done.body.client.sessions.find((s: Json) => s.id === sessionId);
    assert.ok(session, 'the new session is in the piggy-backed client');
    assert.ok(session.last_active_token.jwt);
    assert.equal(session.user.first_name, 'Ada');
    assert.equal(session.user.email_addresses[0].verification.status, 'verified');
    assert.equal(session.user.email_addresses[0].verification.strategy, 'ticket');
    const membership = session.user.organization_memberships.find(
      (m: Json) => m.organization.id === t.org.id,
    );
    assert.ok(membership, 'the membership is in the piggy-backed client');
    assert.equal(membership.role, 'org:vciso');
    assert.equal(await roleIn(h, t.org.id, userId), 'org:vciso');
    assert.equal(await invitationStatus(h, invitation.id), 'accepted');

    // One-time: the same ticket now fails everywhere.
    const again = h.browser();
    assertError(
      await again.post('/client/sign_ups', { strategy: 'ticket', ticket }),
      422,
      'ticket_invalid_code',
    );
    assertError(
      await again.post('/client/sign_ins', { strategy: 'ticket', ticket }),
      422,
      'ticket_invalid_code',
    );
    // The password works for a normal sign-in later.
    const later = h.browser();
    const si = await later.post('/client/sign_ins', {
      identifier: email,
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(si.body.response.status, 'complete');
  });

  it('a ticket sign-up completed without the ticket on the PATCH (SignUpContinue) still joins', async () => {
    const t = await team(h);
    const email = uniqueEmail('continue');
    const { ticket, invitation } = await invite(h, t, email);
    const browser = h.browser();
    const created = await browser.post('/client/sign_ups', { strategy: 'ticket', ticket, first_name: 'Lin' });
    const done = await browser.patch(`/client/sign_ups/${created.body.response.id}`, { password: PASSWORD });
    assert.equal(done.body.response.status, 'complete', JSON.stringify(done.body));
    assert.equal(await roleIn(h, t.org.id, done.body.response.created_user_id), 'org:member');
    assert.equal(await invitationStatus(h, invitation.id), 'accepted');
  });

  it('a ticket with the password in one request completes at once', async () => {
    const t = await team(h);
    const email = uniqueEmail('oneshot');
    const { ticket } = await invite(h, t, email);
    const res = await h
      .browser()
      .post('/client/sign_ups', { strategy: 'ticket', ticket, password: PASSWORD });
    assert.equal(res.body.response.status, 'complete', JSON.stringify(res.body));
    assert.equal(await roleIn(h, t.org.id, res.body.response.created_user_id), 'org:member');
  });

  it('a ticket revoked between the two sign-up steps is refused, and no membership is made', async () => {
    const t = await team(h);
    const email = uniqueEmail('between');
    const { ticket, invitation } = await invite(h, t, email);
    const browser = h.browser();
    const created = await browser.post('/client/sign_ups', { strategy: 'ticket', ticket });
    await t.admin.post(`/organizations/${t.org.id}/invitations/${invitation.id}/revoke`);
    assertError(
      await browser.patch(`/client/sign_ups/${created.body.response.id}`, {
        email_address: email,
        password: PASSWORD,
        ticket,
        strategy: 'ticket',
      }),
      422,
      'ticket_invalid_code',
    );
    // Without the ticket the address is still proven (the ticket reached its mailbox), but nobody joins.
    const done = await browser.patch(`/client/sign_ups/${created.body.response.id}`, { password: PASSWORD });
    assert.equal(done.body.response.status, 'complete');
    assert.equal(await roleIn(h, t.org.id, done.body.response.created_user_id), null);
    assert.equal(await invitationStatus(h, invitation.id), 'revoked');
  });

  it('sign-up ticket errors: expired, revoked, bogus, missing, other address, taken address, signed in', async () => {
    const t = await team(h);
    const browser = h.browser();
    const expired = await invite(h, t, uniqueEmail('exp'));
    await h.db.query(`UPDATE organization_invitations SET expires_at = $2 WHERE id = $1`, [
      expired.invitation.id,
      h.clock.now,
    ]);
    const res = await browser.post('/client/sign_ups', { strategy: 'ticket', ticket: expired.ticket });
    assertError(res, 422, 'ticket_expired_code');
    assert.equal(res.body.errors[0].meta.param_name, undefined, 'shown as the card error, not under a field');

    const revoked = await invite(h, t, uniqueEmail('rev'));
    await t.admin.post(`/organizations/${t.org.id}/invitations/${revoked.invitation.id}/revoke`);
    assertError(
      await browser.post('/client/sign_ups', { strategy: 'ticket', ticket: revoked.ticket }),
      422,
      'ticket_invalid_code',
    );
    assertError(
      await browser.post('/client/sign_ups', { strategy: 'ticket', ticket: 'x'.repeat(43) }),
      422,
      'ticket_invalid_code',
    );
    assertError(
      await browser.post('/client/sign_ups', { strategy: 'ticket' }),
      422,
      'form_param_nil',
      'ticket',
    );
    assertError(
      await browser.post('/client/sign_ups', { strategy: 'oauth_google' }),
      422,
      'form_param_value_invalid',
      'strategy',
    );

    const valid = await invite(h, t, uniqueEmail('valid'));
    assertError(
      await browser.post('/client/sign_ups', {
        strategy: 'ticket',
        ticket: valid.ticket,
        email_address: uniqueEmail('someone-else'),
      }),
      422,
      'form_param_value_invalid',
      'email_address',
    );

    // The invited address signed up meanwhile (the link would have gone to sign-in).
    const taken = uniqueEmail('taken');
    const takenInv = await invite(h, t, taken);
    await signUp(h, h.browser(), taken);
    assertError(
      await browser.post('/client/sign_ups', { strategy: 'ticket', ticket: takenInv.ticket }),
      422,
      'form_identifier_exists',
      'email_address',
    );

    // Single-session: a signed-in browser is refused before the ticket is looked at.
    const signedIn = h.browser();
    await signUp(h, signedIn, uniqueEmail('busy'));
    assertError(
      await signedIn.post('/client/sign_ups', { strategy: 'ticket', ticket: valid.ticket }),
      422,
      'session_exists',
    );
    assert.equal(await invitationStatus(h, valid.invitation.id), 'pending');
  });

  it('sign-in by ticket: an existing account is signed in at once and joins the organisation', async () => {
    const t = await team(h);
    const email = uniqueEmail('member-to-be');
    const { userId } = await signUp(h, h.browser(), email, { firstName: 'Alan' });
    const { ticket, invitation } = await invite(h, t, email, 'org:admin');
    const browser = h.browser();
    // SignInStart with __clerk_ticket: signIn.create({strategy: 'ticket', ticket}).
    const res = await browser.post('/client/sign_ins', { strategy: 'ticket', ticket });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const si = res.body.response;
    assert.equal(si.status, 'complete');
    assert.equal(si.identifier, email);
    assert.equal(si.first_factor_verification.status, 'verified');
    assert.equal(si.first_factor_verification.strategy, 'ticket');
    const session = res.body.client.sessions.find((s: Json) => s.id === si.created_session_id);
    assert.ok(session, 'the session is in the piggy-backed client');
    assert.equal(session.user.id, userId);
    assert.ok(session.last_active_token.jwt);
    const membership = session.user.organization_memberships.find(
      (m: Json) => m.organization.id === t.org.id,
    );
    assert.equal(membership.role, 'org:admin');
    assert.ok(res.setCookies.has('__client'));
    assert.ok(res.setCookies.has('__client_uat'));
    assert.equal(await invitationStatus(h, invitation.id), 'accepted');

    // Used ticket, already signed-in browser.
    assertError(
      await h.browser().post('/client/sign_ins', { strategy: 'ticket', ticket }),
      422,
      'ticket_invalid_code',
    );
    assertError(
      await browser.post('/client/sign_ins', { strategy: 'ticket', ticket }),
      422,
      'session_exists',
    );
  });

  it('sign-in ticket errors: no account yet, expired, missing ticket; nothing is redeemed', async () => {
    const t = await team(h);
    const nobody = await invite(h, t, uniqueEmail('nobody'));
    const browser = h.browser();
    const res = await browser.post('/client/sign_ins', { strategy: 'ticket', ticket: nobody.ticket });
    assertError(res, 422, 'invitation_account_not_exists');
    assert.equal(await invitationStatus(h, nobody.invitation.id), 'pending');

    const email = uniqueEmail('late');
    await signUp(h, h.browser(), email);
    const expired = await invite(h, t, email);
    await h.db.query(`UPDATE organization_invitations SET expires_at = $2 WHERE id = $1`, [
      expired.invitation.id,
      h.clock.now,
    ]);
    assertError(
      await browser.post('/client/sign_ins', { strategy: 'ticket', ticket: expired.ticket }),
      422,
      'ticket_expired_code',
    );
    assertError(
      await browser.post('/client/sign_ins', { strategy: 'ticket' }),
      422,
      'form_param_nil',
      'ticket',
    );
    assert.equal(
      await h.count('sessions', 'client_id IN (SELECT id FROM clients WHERE sign_in_id IS NOT NULL)'),
      0,
    );
  });

  it('a ticket can be used after the 30 days only if the invitation is sent again', async () => {
    const t = await team(h);
    const email = uniqueEmail('month');
    const first = await invite(h, t, email);
    h.clock.advance(30 * 24 * 3600 + 1);
    assertError(
      await h.browser().post('/client/sign_ups', { strategy: 'ticket', ticket: first.ticket }),
      422,
      'ticket_expired_code',
    );
    // The admin (signed in again: sessions last a week) re-invites; the fresh link works.
    const admin = h.browser();
    const adminEmail = (
      await h.db.query<{ email_address: string }>(
        `SELECT e.email_address FROM email_addresses e JOIN organization_memberships m ON m.user_id = e.user_id
         WHERE m.organization_id = $1`,
        [t.org.id],
      )
    )[0]!.email_address;
    const si = await admin.post('/client/sign_ins', {
      identifier: adminEmail,
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(si.body.response.status, 'complete');
    const second = await invite(h, { org: t.org, admin }, email);
    const res = await h
      .browser()
      .post('/client/sign_ups', { strategy: 'ticket', ticket: second.ticket, password: PASSWORD });
    assert.equal(res.body.response.status, 'complete', JSON.stringify(res.body));
    assert.equal(await roleIn(h, t.org.id, res.body.response.created_user_id), 'org:member');
  });

  it('one ticket redeemed by two browsers at once: exactly one wins', async () => {
    const t = await team(h);
    const email = uniqueEmail('race');
    await signUp(h, h.browser(), email);
    const { ticket, invitation } = await invite(h, t, email);
    const results = await Promise.all(
      [h.browser(), h.browser()].map((b) => b.post('/client/sign_ins', { strategy: 'ticket', ticket })),
    );
    assert.deepEqual(
      results.map((r) => r.status).sort(),
      [200, 422],
      JSON.stringify(results.map((r) => r.body)),
    );
    assert.equal(results.find((r) => r.status === 422)!.body.errors[0].code, 'ticket_invalid_code');
    assert.equal(await invitationStatus(h, invitation.id), 'accepted');
    assert.equal(await h.count('organization_memberships', 'organization_id = $1', [t.org.id]), 2);
  });

  it('the same address invited twice at once yields one pending invitation', async () => {
    const t = await team(h);
    // Two admins on two browsers: one browser's writes would queue on its client row.
    const second = h.browser();
    const { userId } = await signUp(h, second, uniqueEmail('admin2'));
    await insertMembership(h.db, { organizationId: t.org.id, userId, role: 'org:admin', now: h.clock.now });
    const email = uniqueEmail('twice');
    const results = await Promise.all(
      [
        [t.admin, 'org:member'],
        [second, 'org:vciso'],
      ].map(([browser, role]) =>
        (browser as Browser).post(`/organizations/${t.org.id}/invitations`, {
          email_address: email,
          role: role as string,
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200],
      JSON.stringify(results.map((r) => r.body)),
    );
    assert.equal(results[0]!.body.response.id, results[1]!.body.response.id);
    assert.equal(
      await h.count('organization_invitations', `lower(email_address) = lower($1) AND status = 'pending'`, [
        email,
      ]),
      1,
    );
  });
});
