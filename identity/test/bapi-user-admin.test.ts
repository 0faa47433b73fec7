import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { Secret, TOTP } from 'otpauth';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail } from './support/harness.ts';
import { PNG } from './support/organizations.ts';

/** The routes this file is about, for the missing and wrong secret key checks. */
const NEW_ROUTES: [string, string][] = [
  ['POST', '/v1/users'],
  ['PATCH', '/v1/users/user_x'],
  ['DELETE', '/v1/users/user_x'],
  ['POST', '/v1/users/user_x/ban'],
  ['POST', '/v1/users/user_x/unban'],
  ['POST', '/v1/users/user_x/verify_password'],
  ['POST', '/v1/users/user_x/verify_totp'],
  ['DELETE', '/v1/users/user_x/mfa'],
  ['DELETE', '/v1/users/user_x/totp'],
  ['DELETE', '/v1/users/user_x/backup_code'],
  ['POST', '/v1/users/user_x/profile_image'],
  ['DELETE', '/v1/users/user_x/profile_image'],
  ['GET', '/v1/users/user_x/organization_memberships'],
  ['GET', '/v1/users/user_x/organization_invitations'],
];

const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

forEachBackend('Backend API users: create, update, delete, ban, verify, MFA', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  it('createUser makes a user with verified identifiers who signs in with the password', async () => {
    const email = uniqueEmail('created');
    const user = await clerk.users.createUser({
      emailAddress: [email],
      phoneNumber: ['+12015550123'],
      username: 'created_one',
      password: PASSWORD,
      firstName: 'Grace',
      lastName: 'Hopper',
      externalId: 'legacy-42',
      publicMetadata: { plan: 'pro' },
      privateMetadata: { crm: 7 },
    });
    assert.match(user.id, /^user_/);
    assert.equal(user.primaryEmailAddress?.emailAddress, email);
    assert.equal(user.primaryEmailAddress?.verification?.status, 'verified');
    assert.equal(user.primaryPhoneNumber?.phoneNumber, '+12015550123');
    assert.equal(user.username, 'created_one');
    assert.equal(user.externalId, 'legacy-42');
    assert.equal(user.passwordEnabled, true);
    assert.deepEqual(user.publicMetadata, { plan: 'pro' });
    assert.deepEqual(user.privateMetadata, { crm: 7 });
    const signedIn = await signInWithPassword(h.browser(), email);
    assert.equal(signedIn.userId, user.id);

    const byUsername = await clerk.users.getUserList({ username: ['created_one'] });
    assert.deepEqual(
      byUsername.data.map((u) => u.id),
      [user.id],
    );
    assert.equal((await clerk.users.getUserList({ phoneNumber: ['+12015550123'] })).totalCount, 1);
    assert.equal(await clerk.users.getCount({ externalId: ['legacy-42'] }), 1);
    assert.equal((await clerk.users.getUserList({ query: 'created_o' })).data[0]?.id, user.id);
    const ordered = await clerk.users.getUserList({ orderBy: '-username', limit: 1 });
    assert.equal(ordered.data.length, 1);
  });

  it('createUser refuses a taken address, a weak password and nothing to sign in with, writing nothing', async () => {
    const email = uniqueEmail('taken');
    await clerk.users.createUser({ emailAddress: [email], password: PASSWORD });
    const users = await h.count('users');
    await rejectsWith(
      clerk.users.createUser({ emailAddress: [email.toUpperCase()], password: PASSWORD }),
      422,
      'form_identifier_exists',
      'email_address',
    );
    await rejectsWith(
      clerk.users.createUser({ emailAddress: [uniqueEmail('weak')], password: 'short' }),
      422,
      'form_password_length_too_short',
      'password',
    );
    await rejectsWith(
      clerk.users.createUser({ firstName: 'Nobody' }),
      422,
      'form_param_nil',
      'email_address',
    );
    await rejectsWith(
      clerk.users.createUser({ emailAddress: ['not an address'], password: PASSWORD }),
      422,
      'form_param_format_invalid',
      'email_address',
    );
    assert.equal(await h.count('users'), users);
    // skip_password_checks lets a migrated plaintext password in as it is.
    const migrated = await clerk.users.createUser({
      emailAddress: [uniqueEmail('migrated')],
      password: 'short',
      skipPasswordChecks: true,
    });
    assert.equal(migrated.passwordEnabled, true);
    const noPassword = await clerk.users.createUser({
      emailAddress: [uniqueEmail('nopass')],
      skipPasswordRequirement: true,
    });
    assert.equal(noPassword.passwordEnabled, false);
  });

  it('updateUser changes the fields given; a new password signs the user out when asked', async () => {
    const email = uniqueEmail('update');
    const { userId } = await signUp(h, h.browser(), email);
    const updated = await clerk.users.updateUser(userId, {
      firstName: 'Ada',
      username: 'ada_updated',
      externalId: 'ext-ada',
      publicMetadata: { replaced: true },
      createOrganizationEnabled: false,
    });
    assert.equal(updated.firstName, 'Ada');
    assert.equal(updated.username, 'ada_updated');
    assert.equal(updated.externalId, 'ext-ada');
    assert.deepEqual(updated.publicMetadata, { replaced: true });
    assert.equal(updated.createOrganizationEnabled, false);
    await clerk.users.updateUser(userId, {
      password: 'a brand new passphrase',
      signOutOfOtherSessions: true,
    });
    assert.equal(await h.count('sessions', "user_id = $1 AND status = 'active'", [userId]), 0);
    await signInWithPassword(h.browser(), email, 'a brand new passphrase');
    const other = await clerk.users.createUser({ emailAddress: [uniqueEmail('other')], password: PASSWORD });
    await rejectsWith(
      clerk.users.updateUser(other.id, { username: 'ada_updated' }),
      422,
      'form_identifier_exists',
      'username',
    );
    await rejectsWith(clerk.users.updateUser('user_missing', { firstName: 'x' }), 404, 'resource_not_found');
  });

  it('banUser revokes the sessions and refuses sign-in with user_banned; unbanUser lets the user back', async () => {
    const email = uniqueEmail('banned');
    const browser = h.browser();
    const { userId, sessionId } = await signUp(h, browser, email);
    const banned = await clerk.users.banUser(userId);
    assert.equal(banned.banned, true);
    assert.equal(await h.count('sessions', "id = $1 AND status = 'revoked'", [sessionId]), 1);
    const token = await browser.post(`/client/sessions/${sessionId}/tokens`);
    assert.notEqual(token.status, 200, 'the existing session no longer mints tokens');
    const attempt = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
    assert.equal(attempt.status, 403, JSON.stringify(attempt.body));
    assert.equal(attempt.body.errors[0].code, 'user_banned');
    // Identifier first (then a code or any other strategy): refused at the first step.
    const identifierFirst = await h.browser().post('/client/sign_ins', { identifier: email });
    assert.equal(identifierFirst.status, 403);
    assert.equal(identifierFirst.body.errors[0].code, 'user_banned');
    const unbanned = await clerk.users.unbanUser(userId);
    assert.equal(unbanned.banned, false);
    await signInWithPassword(h.browser(), email);
  });

  it('lockUser answers user_locked at sign-in until unlockUser', async () => {
    const email = uniqueEmail('locked');
    const { userId } = await signUp(h, h.browser(), email);
    assert.equal((await clerk.users.lockUser(userId)).locked, true);
    const attempt = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
    assert.equal(attempt.body.errors[0].code, 'user_locked');
    assert.equal((await clerk.users.unlockUser(userId)).locked, false);
    await signInWithPassword(h.browser(), email);
  });

  it('verifyPassword and verifyTOTP check without signing in; a TOTP code is accepted once', async () => {
    const user = await clerk.users.createUser({
      emailAddress: [uniqueEmail('verify')],
      password: PASSWORD,
      totpSecret: TOTP_SECRET,
      backupCodes: ['abcd1234', 'efgh5678'],
    });
    assert.equal(user.totpEnabled, true);
    assert.equal(user.backupCodeEnabled, true);
    assert.deepEqual(await clerk.users.verifyPassword({ userId: user.id, password: PASSWORD }), {
      verified: true,
    });
    await rejectsWith(
      clerk.users.verifyPassword({ userId: user.id, password: 'wrong password' }),
      422,
      'form_password_incorrect',
    );
    const code = new TOTP({ secret: Secret.fromBase32(TOTP_SECRET) }).generate({
      timestamp: h.clock.now.getTime(),
    });
    const verified = await clerk.users.verifyTOTP({ userId: user.id, code });
    assert.equal(verified.verified, true);
    await rejectsWith(clerk.users.verifyTOTP({ userId: user.id, code }), 422, 'form_code_incorrect');

    // Clerk answers `{ user_id }`, which @clerk/backend passes through as it is.
    assert.deepEqual(await clerk.users.deleteUserBackupCodes(user.id), { user_id: user.id });
    assert.equal((await clerk.users.getUser(user.id)).backupCodeEnabled, false);
    await clerk.users.deleteUserTOTP(user.id);
    assert.equal((await clerk.users.getUser(user.id)).totpEnabled, false);
    await clerk.users.updateUser(user.id, { totpSecret: TOTP_SECRET, backupCodes: ['ijkl9012'] });
    await clerk.users.disableUserMFA(user.id);
    const after = await clerk.users.getUser(user.id);
    assert.equal(after.totpEnabled || after.backupCodeEnabled || after.twoFactorEnabled, false);
  });

  it('the profile image is set and removed', async () => {
    const user = await clerk.users.createUser({ emailAddress: [uniqueEmail('image')], password: PASSWORD });
    const withImage = await clerk.users.updateUserProfileImage(user.id, {
      file: new Blob([PNG], { type: 'image/png' }),
    });
    assert.equal(withImage.hasImage, true);
    const without = await clerk.users.deleteUserProfileImage(user.id);
    assert.equal(without.hasImage, false);
  });

  it("a user's organisation memberships and invitations; deleteUser removes them and emits user.deleted", async () => {
    const email = uniqueEmail('member');
    const browser = h.browser();
    const { userId, sessionId } = await signUp(h, browser, email);
    const org = await clerk.organizations.createOrganization({ name: 'Acme', createdBy: userId });
    const memberships = await clerk.users.getOrganizationMembershipList({ userId });
    assert.equal(memberships.totalCount, 1);
    assert.equal(memberships.data[0]!.organization.id, org.id);
    const other = await clerk.organizations.createOrganization({ name: 'Other', createdBy: userId });
    const owner = await clerk.users.createUser({ emailAddress: [uniqueEmail('owner')], password: PASSWORD });
    await clerk.organizations.createOrganizationMembership({
      organizationId: other.id,
      userId: owner.id,
      role: 'org:admin',
    });
    const third = await clerk.organizations.createOrganization({ name: 'Third', createdBy: owner.id });
    await clerk.organizations.createOrganizationInvitation({
      organizationId: third.id,
      emailAddress: email,
      inviterUserId: owner.id,
      role: 'org:member',
    });
    const invitations = await clerk.users.getOrganizationInvitationList({ userId, status: 'pending' });
    assert.equal(invitations.totalCount, 1);
    assert.equal(invitations.data[0]!.organizationId, third.id);

    const deleted = await clerk.users.deleteUser(userId);
    assert.equal(deleted.id, userId);
    await rejectsWith(clerk.users.getUser(userId), 404, 'resource_not_found');
    assert.equal(await h.count('organization_memberships', 'user_id = $1', [userId]), 0);
    assert.equal(await h.count('sessions', 'user_id = $1', [userId]), 0);
    const token = await browser.post(`/client/sessions/${sessionId}/tokens`);
    assert.notEqual(token.status, 200);
    assert.equal(
      await h.count('webhook_events', "type = 'user.deleted' AND payload->'data'->>'id' = $1", [userId]),
      1,
    );
    await rejectsWith(clerk.users.deleteUser(userId), 404, 'resource_not_found');
  });

  it('every new route refuses a missing or wrong secret key with 401', async () => {
    for (const [method, path] of NEW_ROUTES) {
      for (const headers of [{}, { authorization: 'Bearer sk_test_not_the_key' }]) {
        const res = await h.app.inject({ method: method as 'GET', url: `${BAPI}${path}`, headers });
        assert.equal(res.statusCode, 401, `${method} ${path}`);
        assert.match(res.json().errors[0].code, /^(clerk_key_invalid|authentication_invalid)$/);
      }
    }
  });
});
