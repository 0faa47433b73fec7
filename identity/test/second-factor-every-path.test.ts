import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, it } from 'node:test';
import { insertMembership, insertOrganization } from '../src/store/organizations.ts';
import { forEachBackend } from './support/backends.ts';
import { latestLink, openLink } from './support/email-links.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, PUBLIC_URL, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';
import { enrolTotp, totpCode } from './support/second-factors.ts';
import { addVerifiedPhone, latestSmsCode, uniquePhone } from './support/sms.ts';

const TICKET_RE = /https?:\/\/\S+\/v1\/tickets\/accept\?ticket=([A-Za-z0-9_-]+)/;
const NEW_PASSWORD = 'purple elephants dance quietly';

/**
 * Every way of proving a first factor ends at `needs_second_factor` for a user with an authenticator
 * app, and only the app's code opens the session (issue #11, item 1: an invitation ticket used to sign
 * such a user in at once, with `fva` claiming the second factor).
 */
forEachBackend('a second factor after every first factor', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  // A new 30 s step (no code reuse) and a fresh rate-limit window.
  beforeEach(() => h.clock.advance(61));

  interface MfaUser {
    email: string;
    userId: string;
    emailId: string;
    secret: string;
    phone: string;
    phoneId: string;
  }

  /** A user with a verified phone number (not a second factor) and an authenticator app. */
  async function mfaUser(): Promise<MfaUser> {
    const email = uniqueEmail('every-path');
    const browser = h.browser();
    const { userId, client } = await signUp(h, browser, email);
    const phone = uniquePhone();
    const added = await addVerifiedPhone(h, browser, phone);
    const { secret } = await enrolTotp(h, browser);
    h.clock.advance(61);
    const emailId = client.sessions[0].user.email_addresses[0].id;
    return { email, userId, emailId, secret, phone, phoneId: added.id };
  }

  const sessionsOf = (userId: string) => h.count('sessions', 'user_id = $1', [userId]);

  /** The sign-in waits for the second factor, with no session anywhere for the user. */
  async function assertWaiting(browser: Browser, signInId: string, user: MfaUser, sessionsBefore: number) {
    const client = (await browser.get('/client')).body.response;
    assert.equal(client.sign_in?.id, signInId);
    assert.equal(client.sign_in.status, 'needs_second_factor');
    assert.equal(client.sign_in.created_session_id, null);
    assert.deepEqual(client.sessions, []);
    assert.equal(await sessionsOf(user.userId), sessionsBefore);
  }

  /** The authenticator code completes the sign-in; the session records the second factor as proven now. */
  async function completeWithTotp(browser: Browser, signInId: string, user: MfaUser): Promise<FapiResponse> {
    const res = await browser.post(`/client/sign_ins/${signInId}/attempt_second_factor`, {
      strategy: 'totp',
      code: totpCode(user.secret, h.clock.now),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'complete');
    const sessionId = res.body.response.created_session_id;
    const session = res.body.client.sessions.find((s: { id: string }) => s.id === sessionId);
    assert.equal(session.user.id, user.userId);
    assert.deepEqual(session.factor_verification_age, [0, 0]);
    const [row] = await h.db.query<{ second_factor_verified_at: Date | null }>(
      'SELECT second_factor_verified_at FROM sessions WHERE id = $1',
      [sessionId],
    );
    assert.equal(row!.second_factor_verified_at?.getTime(), h.clock.now.getTime());
    return res;
  }

  /** Someone (anyone may) creates an organisation and invites `email`: the organisation, invitation, ticket. */
  async function inviteFromNewOrganization(email: string) {
    const admin = h.browser();
    const { userId: adminId } = await signUp(h, admin, uniqueEmail('inviter'));
    const org = await insertOrganization(h.db, {
      name: 'Lure',
      slug: `lure-${randomBytes(4).toString('hex')}`,
      createdBy: adminId,
      now: h.clock.now,
    });
    await insertMembership(h.db, {
      organizationId: org.id,
      userId: adminId,
      role: 'org:admin',
      now: h.clock.now,
    });
    const invited = await admin.post(`/organizations/${org.id}/invitations`, {
      email_address: email,
      role: 'org:member',
    });
    assert.equal(invited.status, 200, JSON.stringify(invited.body));
    const ticket = (await h.mail(email)).map((m) => m.text.match(TICKET_RE)?.[1]).find(Boolean)!;
    const membership = (userId: string) =>
      h.count('organization_memberships', 'organization_id = $1 AND user_id = $2', [org.id, userId]);
    return { admin, org, invitationId: invited.body.response.id as string, ticket, membership };
  }

  async function identify(browser: Browser, identifier: string): Promise<string> {
    const res = await browser.post('/client/sign_ins', { identifier });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.response.id;
  }

  it('password', async () => {
    const user = await mfaUser();
    const browser = h.browser();
    const before = await sessionsOf(user.userId);
    const id = await identify(browser, user.email);
    const res = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await assertWaiting(browser, id, user, before);
    await completeWithTotp(browser, id, user);
  });

  it('email code', async () => {
    const user = await mfaUser();
    const browser = h.browser();
    const before = await sessionsOf(user.userId);
    const id = await identify(browser, user.email);
    await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'email_code',
      email_address_id: user.emailId,
    });
    const res = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'email_code',
      code: await h.latestCode(user.email),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await assertWaiting(browser, id, user, before);
    await completeWithTotp(browser, id, user);
  });

  it('phone code', async () => {
    const user = await mfaUser();
    const browser = h.browser();
    const before = await sessionsOf(user.userId);
    const id = await identify(browser, user.phone);
    const prepared = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'phone_code',
      phone_number_id: user.phoneId,
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const res = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'phone_code',
      code: await latestSmsCode(h, user.phone),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await assertWaiting(browser, id, user, before);
    await completeWithTotp(browser, id, user);
  });

  it('email link', async () => {
    const user = await mfaUser();
    const browser = h.browser();
    const before = await sessionsOf(user.userId);
    const id = await identify(browser, user.email);
    const prepared = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'email_link',
      email_address_id: user.emailId,
      redirect_url: `${PUBLIC_URL}/sign-in#/verify`,
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const landing = await openLink(browser, await latestLink(h, user.email));
    assert.equal(landing.createdSession, null);
    await assertWaiting(browser, id, user, before);
    await completeWithTotp(browser, id, user);
  });

  it('reset password', async () => {
    const user = await mfaUser();
    const browser = h.browser();
    const before = await sessionsOf(user.userId);
    const id = await identify(browser, user.email);
    await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'reset_password_email_code',
      email_address_id: user.emailId,
    });
    const attempted = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'reset_password_email_code',
      code: await h.latestCode(user.email),
    });
    assert.equal(attempted.status, 200, JSON.stringify(attempted.body));
    assert.equal(attempted.body.response.status, 'needs_new_password');
    const reset = await browser.post(`/client/sign_ins/${id}/reset_password`, { password: NEW_PASSWORD });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    await assertWaiting(browser, id, user, before);
    await completeWithTotp(browser, id, user);
  });

  it('invitation ticket: a first factor only; the organisation is joined once the second factor is proven', async () => {
    const user = await mfaUser();
    const { ticket, invitationId, membership } = await inviteFromNewOrganization(user.email);
    const invitationStatus = async () =>
      (
        await h.db.query<{ status: string }>('SELECT status FROM organization_invitations WHERE id = $1', [
          invitationId,
        ])
      )[0]!.status;

    // Whoever holds the mailed ticket gets no further than the second factor, and joins nothing.
    const holder = h.browser();
    const before = await sessionsOf(user.userId);
    const res = await holder.post('/client/sign_ins', { strategy: 'ticket', ticket });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'needs_second_factor');
    assert.equal(res.body.response.first_factor_verification.strategy, 'ticket');
    assert.equal(res.body.response.first_factor_verification.invitation_id, undefined);
    assert.deepEqual(res.body.response.supported_second_factors, [
      { strategy: 'totp' },
      { strategy: 'backup_code' },
    ]);
    await assertWaiting(holder, res.body.response.id, user, before);
    assert.equal(await membership(user.userId), 0);
    assert.equal(await invitationStatus(), 'pending');

    // The user's own code completes it: a session whose fva reflects the code, and the membership.
    await completeWithTotp(holder, res.body.response.id, user);
    assert.equal(await membership(user.userId), 1);
    assert.equal(await invitationStatus(), 'accepted');
    h.clock.advance(3 * 60);
    const later = (await holder.get('/client')).body.response.sessions[0];
    assert.deepEqual(later.factor_verification_age, [3, 3]);
  });

  it('an invitation revoked before the second factor is proven is not joined', async () => {
    const user = await mfaUser();
    const { admin, org, invitationId, ticket, membership } = await inviteFromNewOrganization(user.email);
    const browser = h.browser();
    const res = await browser.post('/client/sign_ins', { strategy: 'ticket', ticket });
    assert.equal(res.body.response.status, 'needs_second_factor');
    const revoked = await admin.post(`/organizations/${org.id}/invitations/${invitationId}/revoke`);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    await completeWithTotp(browser, res.body.response.id, user);
    assert.equal(await membership(user.userId), 0);
  });
});
