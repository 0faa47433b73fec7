import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD } from './support/flows.ts';
import { uploadImage, PNG } from './support/images.ts';
import { addMember, createOrganization, newMember, type Member } from './support/organizations.ts';
import { enrolTotp } from './support/second-factors.ts';
import { addVerifiedPhone, reserveForSecondFactor, uniquePhone } from './support/sms.ts';
import { Harness, uniqueEmail, type FapiResponse, type Json } from './support/harness.ts';

/**
 * clerk-js replaces its copy of the user only when `updated_at` grows (`memoizeStateListenerCallback.ts`),
 * so every change must move it, strictly, even when the clock has not moved: the test clock stands still.
 */
forEachBackend('updated_at moves with every change', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  async function userUpdatedAt(member: Member): Promise<number> {
    const res = await member.browser.get('/me');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.response.updated_at;
  }

  /** Runs `change`, asserts it succeeded and that the user's `updated_at`, as served, grew. */
  async function movesUser(member: Member, what: string, change: () => Promise<FapiResponse | Json>) {
    const before = await userUpdatedAt(member);
    const res = await change();
    if (res && typeof res.status === 'number')
      assert.ok(res.status < 300, `${what}: ${JSON.stringify(res.body)}`);
    const afterwards = await userUpdatedAt(member);
    assert.ok(afterwards > before, `${what} left updated_at at ${before} (now ${afterwards})`);
  }

  it('moves for addresses, phone numbers, second factors, image, password, names and metadata', async () => {
    const member = await newMember(h, 'moves');
    const b = member.browser;
    const email = uniqueEmail('second');
    let emailId = '';
    await movesUser(member, 'adding an address', async () => {
      const res = await b.post('/me/email_addresses/', { email_address: email });
      emailId = res.body.response.id;
      return res;
    });
    await movesUser(member, 'sending its code', () =>
      b.post(`/me/email_addresses/${emailId}/prepare_verification`, { strategy: 'email_code' }),
    );
    await movesUser(member, 'verifying it', async () =>
      b.post(`/me/email_addresses/${emailId}/attempt_verification`, { code: await h.latestCode(email) }),
    );
    // The verified address appears in the very answer clerk-js keeps.
    const shown = await b.get('/me');
    assert.ok(
      shown.body.response.email_addresses.some(
        (e: Json) => e.id === emailId && e.verification.status === 'verified',
      ),
    );
    await movesUser(member, 'making it primary', () => b.patch('/me', { primary_email_address_id: emailId }));
    await movesUser(member, 'removing the old one', async () => {
      const old = shown.body.response.email_addresses.find((e: Json) => e.id !== emailId);
      return b.delete(`/me/email_addresses/${old.id}`);
    });
    await movesUser(member, 'names', () => b.patch('/me', { first_name: 'Ada', last_name: 'Lovelace' }));
    await movesUser(member, 'username', () => b.patch('/me', { username: `ada${Date.now()}` }));
    await movesUser(member, 'unsafe metadata', () => b.patch('/me', { unsafe_metadata: '{"theme":"dark"}' }));

    let phoneId = '';
    const phone = uniquePhone();
    await movesUser(member, 'adding and verifying a phone number', async () => {
      phoneId = (await addVerifiedPhone(h, b, phone)).id;
    });
    await movesUser(member, 'reserving it for two-step verification', () =>
      reserveForSecondFactor(b, phoneId),
    );
    await movesUser(member, 'enrolling an authenticator app', () => enrolTotp(h, b));
    await movesUser(member, 'new backup codes', () => b.post('/me/backup_codes'));
    await movesUser(member, 'removing the authenticator app', () => b.delete('/me/totp'));
    await movesUser(member, 'removing the phone number', () => b.delete(`/me/phone_numbers/${phoneId}`));

    await movesUser(member, 'a profile image', () =>
      uploadImage(h, b, '/me/profile_image', { file: PNG, type: 'image/png' }),
    );
    await movesUser(member, 'removing it', () => b.delete('/me/profile_image'));
    await movesUser(member, 'a new password', () =>
      b.post('/me/change_password', { current_password: PASSWORD, new_password: 'another horse battery' }),
    );

    const clerk = await backendApiClient(h);
    await movesUser(member, 'metadata through the Backend API', () =>
      clerk.users.updateUserMetadata(member.userId, { publicMetadata: { plan: 'pro' } }),
    );
    await movesUser(member, 'a lock through the Backend API', () => clerk.users.lockUser(member.userId));
  });

  it('moves for a membership added, changed and removed, and for the organisation and membership themselves', async () => {
    const admin = await newMember(h, 'org-admin');
    const member = await newMember(h, 'org-member');
    const org = await createOrganization(admin, 'Moving Ltd');
    let membership: Json;
    await movesUser(member, 'joining', async () => {
      membership = await addMember(admin, org.id, member, 'org:member');
    });

    const orgBefore = (await admin.browser.get(`/organizations/${org.id}`)).body.response.updated_at;
    const renamed = await admin.browser.patch(`/organizations/${org.id}`, { name: 'Moved Ltd' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.ok(renamed.body.response.updated_at > orgBefore);

    await movesUser(member, 'a new role', async () => {
      const res = await admin.browser.patch(`/organizations/${org.id}/memberships/${member.userId}`, {
        role: 'org:admin',
      });
      assert.ok(res.body.response.updated_at > membership.updated_at, 'the membership itself moves too');
      return res;
    });
    await movesUser(member, 'leaving', () =>
      admin.browser.delete(`/organizations/${org.id}/memberships/${member.userId}`),
    );
  });

  it('stays strictly increasing when two changes fall in the same millisecond', async () => {
    const member = await newMember(h, 'same-ms');
    const [row] = await h.db.query<{ updated_at: Date }>('SELECT updated_at FROM users WHERE id = $1', [
      member.userId,
    ]);
    // Both writes name the very same instant, as two requests within one millisecond would.
    const at = row!.updated_at;
    await h.db.query('UPDATE users SET first_name = $2, updated_at = $3 WHERE id = $1', [
      member.userId,
      'A',
      at,
    ]);
    const [one] = await h.db.query<{ updated_at: Date }>('SELECT updated_at FROM users WHERE id = $1', [
      member.userId,
    ]);
    await h.db.query('UPDATE users SET first_name = $2, updated_at = $3 WHERE id = $1', [
      member.userId,
      'B',
      at,
    ]);
    const [two] = await h.db.query<{ updated_at: Date }>('SELECT updated_at FROM users WHERE id = $1', [
      member.userId,
    ]);
    assert.ok(one!.updated_at.getTime() > at.getTime());
    assert.ok(two!.updated_at.getTime() > one!.updated_at.getTime());
    // An update that changes nothing is no change.
    await h.db.query('UPDATE users SET first_name = first_name WHERE id = $1', [member.userId]);
    const [three] = await h.db.query<{ updated_at: Date }>('SELECT updated_at FROM users WHERE id = $1', [
      member.userId,
    ]);
    assert.equal(three!.updated_at.getTime(), two!.updated_at.getTime());
  });
});
