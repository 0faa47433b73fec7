import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp, type SignedIn } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail } from './support/harness.ts';

const OTHER_SECRET_KEY = 'sk_live_otheridentifierskey000000000000000000';

forEachBackend('Backend API email addresses and phone numbers', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let alice: SignedIn & { email: string };
  let bob: SignedIn & { email: string };
  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
    const person = async (name: string) => {
      const email = uniqueEmail(name);
      return { ...(await signUp(h, h.browser(), email)), email };
    };
    alice = await person('alice');
    bob = await person('bob');
  });
  after(() => h.close());

  const userUpdated = (userId: string) =>
    h.count('webhook_events', "type = 'user.updated' AND payload->'data'->>'id' = $1", [userId]);

  it('a verified address added by the operator signs in at once; an unverified one does not', async () => {
    const events = await userUpdated(alice.userId);
    const verified = uniqueEmail('alice-work');
    const added = await clerk.emailAddresses.createEmailAddress({
      userId: alice.userId,
      emailAddress: verified,
      verified: true,
    });
    assert.match(added.id, /^idn_/);
    assert.equal(added.emailAddress, verified);
    assert.equal(added.verification?.status, 'verified');
    assert.equal(added.verification?.strategy, 'admin');
    assert.equal((await signInWithPassword(h.browser(), verified)).userId, alice.userId);
    assert.equal(await userUpdated(alice.userId), events + 1, 'one user.updated event');

    const pending = await clerk.emailAddresses.createEmailAddress({
      userId: alice.userId,
      emailAddress: uniqueEmail('alice-pending'),
    });
    assert.equal(pending.verification, null, 'no verification until one is prepared');
    const attempt = await h.browser().post('/client/sign_ins', { identifier: pending.emailAddress });
    assert.equal(attempt.status, 422);
    assert.equal(attempt.body.errors[0].code, 'form_identifier_not_found');
    // Still the user's primary address: a new verified one does not take over unless asked.
    assert.equal((await clerk.users.getUser(alice.userId)).primaryEmailAddress?.emailAddress, alice.email);
  });

  it('getEmailAddress, then updateEmailAddress verifies it and makes it primary', async () => {
    const created = await clerk.emailAddresses.createEmailAddress({
      userId: alice.userId,
      emailAddress: uniqueEmail('alice-next'),
    });
    assert.equal((await clerk.emailAddresses.getEmailAddress(created.id)).emailAddress, created.emailAddress);
    await rejectsWith(
      clerk.emailAddresses.updateEmailAddress(created.id, { primary: true }),
      422,
      'form_param_value_invalid',
      'primary',
    );
    const updated = await clerk.emailAddresses.updateEmailAddress(created.id, {
      verified: true,
      primary: true,
    });
    assert.equal(updated.verification?.status, 'verified');
    const user = await clerk.users.getUser(alice.userId);
    assert.equal(user.primaryEmailAddressId, created.id);
    // The primary address stays verified.
    await rejectsWith(
      clerk.emailAddresses.updateEmailAddress(created.id, { verified: false }),
      422,
      'form_param_value_invalid',
      'verified',
    );
    // Giving the primary role back.
    const first = user.emailAddresses.find((e) => e.emailAddress === alice.email)!;
    await clerk.emailAddresses.updateEmailAddress(first.id, { primary: true });
    assert.equal((await clerk.users.getUser(alice.userId)).primaryEmailAddressId, first.id);
    const unverified = await clerk.emailAddresses.updateEmailAddress(created.id, { verified: false });
    assert.equal(unverified.verification, null);
  });

  it('deleteEmailAddress removes an address, but never the primary one', async () => {
    const user = await clerk.users.getUser(bob.userId);
    await rejectsWith(
      clerk.emailAddresses.deleteEmailAddress(user.primaryEmailAddressId!),
      422,
      'identification_deletion_failed',
    );
    const extra = await clerk.emailAddresses.createEmailAddress({
      userId: bob.userId,
      emailAddress: uniqueEmail('bob-extra'),
      verified: true,
    });
    const deleted = await clerk.emailAddresses.deleteEmailAddress(extra.id);
    assert.deepEqual([deleted.object, deleted.id, deleted.deleted], ['email_address', extra.id, true]);
    await rejectsWith(clerk.emailAddresses.getEmailAddress(extra.id), 404, 'resource_not_found');
    await rejectsWith(clerk.emailAddresses.deleteEmailAddress(extra.id), 404, 'resource_not_found');
    const attempt = await h.browser().post('/client/sign_ins', { identifier: extra.emailAddress });
    assert.equal(attempt.status, 422);
    assert.equal((await signInWithPassword(h.browser(), bob.email)).userId, bob.userId);
  });

  it("createEmailAddress refuses another user's address, an unknown user and a malformed address", async () => {
    const before = await h.count('email_addresses');
    await rejectsWith(
      clerk.emailAddresses.createEmailAddress({
        userId: alice.userId,
        emailAddress: bob.email,
        verified: true,
      }),
      422,
      'form_identifier_exists',
    );
    await rejectsWith(
      clerk.emailAddresses.createEmailAddress({
        userId: 'user_2doesnotexist000000000',
        emailAddress: uniqueEmail(),
      }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.emailAddresses.createEmailAddress({ userId: alice.userId, emailAddress: 'not-an-address' }),
      422,
      'form_param_format_invalid',
    );
    await rejectsWith(
      clerk.emailAddresses.createEmailAddress({
        userId: alice.userId,
        emailAddress: `${'a'.repeat(300)}@example.com`,
      }),
      422,
      'form_param_format_invalid',
    );
    assert.equal(await h.count('email_addresses'), before);
  });

  it('phone numbers: create verified (primary), reserve for second factor, release, delete', async () => {
    const phone = await clerk.phoneNumbers.createPhoneNumber({
      userId: bob.userId,
      phoneNumber: '+12015550142',
      verified: true,
    });
    assert.equal(phone.phoneNumber, '+12015550142');
    assert.equal(phone.verification?.status, 'verified');
    assert.equal((await clerk.users.getUser(bob.userId)).primaryPhoneNumberId, phone.id);
    assert.equal((await clerk.phoneNumbers.getPhoneNumber(phone.id)).id, phone.id);

    const reserved = await clerk.phoneNumbers.updatePhoneNumber(phone.id, { reservedForSecondFactor: true });
    assert.equal(reserved.reservedForSecondFactor, true);
    assert.equal(reserved.defaultSecondFactor, true);
    let user = await clerk.users.getUser(bob.userId);
    assert.equal(user.twoFactorEnabled, true);
    assert.equal(user.primaryPhoneNumberId, null, 'a second factor only is no identifier');

    const released = await clerk.phoneNumbers.updatePhoneNumber(phone.id, {
      reservedForSecondFactor: false,
      primary: true,
    });
    assert.equal(released.reservedForSecondFactor, false);
    user = await clerk.users.getUser(bob.userId);
    assert.equal(user.twoFactorEnabled, false);
    assert.equal(user.primaryPhoneNumberId, phone.id);

    const deleted = await clerk.phoneNumbers.deletePhoneNumber(phone.id);
    assert.deepEqual([deleted.object, deleted.id, deleted.deleted], ['phone_number', phone.id, true]);
    assert.equal((await clerk.users.getUser(bob.userId)).primaryPhoneNumberId, null);
    await rejectsWith(clerk.phoneNumbers.getPhoneNumber(phone.id), 404, 'resource_not_found');
  });

  it('phone numbers: an unverified one is no second factor, a taken one is refused', async () => {
    const before = await h.count('phone_numbers');
    await rejectsWith(
      clerk.phoneNumbers.createPhoneNumber({
        userId: alice.userId,
        phoneNumber: '+12015550143',
        reservedForSecondFactor: true,
      }),
      422,
      'form_param_value_invalid',
      'reserved_for_second_factor',
    );
    assert.equal(await h.count('phone_numbers'), before);
    const unverified = await clerk.phoneNumbers.createPhoneNumber({
      userId: alice.userId,
      phoneNumber: '+12015550143',
    });
    assert.equal(unverified.verification, null);
    await rejectsWith(
      clerk.phoneNumbers.updatePhoneNumber(unverified.id, { reservedForSecondFactor: true }),
      422,
      'form_param_value_invalid',
    );
    await clerk.phoneNumbers.createPhoneNumber({
      userId: bob.userId,
      phoneNumber: '+12015550144',
      verified: true,
    });
    await rejectsWith(
      clerk.phoneNumbers.createPhoneNumber({ userId: alice.userId, phoneNumber: '+12015550144' }),
      422,
      'form_identifier_exists',
    );
    await rejectsWith(
      clerk.phoneNumbers.createPhoneNumber({ userId: alice.userId, phoneNumber: 'call me' }),
      422,
      'form_param_format_invalid',
    );
  });

  it('a phone number that is the last way to sign in is not deleted', async () => {
    const created = await clerk.users.createUser({
      phoneNumber: ['+12015550145'],
      skipPasswordRequirement: true,
    });
    await rejectsWith(
      clerk.phoneNumbers.deletePhoneNumber(created.phoneNumbers[0]!.id),
      422,
      'identification_deletion_failed',
    );
  });

  it('abuse: wrong types and oversized bodies are refused and change nothing', async () => {
    const [emails, phones] = [await h.count('email_addresses'), await h.count('phone_numbers')];
    const primary = (await clerk.users.getUser(alice.userId)).primaryEmailAddressId!;
    for (const [method, path, body] of [
      [
        'POST',
        '/v1/email_addresses',
        { user_id: alice.userId, email_address: uniqueEmail(), verified: 'yes' },
      ],
      ['POST', '/v1/email_addresses', { user_id: 42, email_address: uniqueEmail() }],
      ['POST', '/v1/email_addresses', { user_id: alice.userId }],
      ['POST', '/v1/email_addresses', { user_id: alice.userId, email_address: 'x'.repeat(2_000_000) }],
      ['PATCH', `/v1/email_addresses/${primary}`, { primary: 'true' }],
      ['DELETE', `/v1/email_addresses/${'x'.repeat(5000)}`],
      ['POST', '/v1/phone_numbers', { user_id: alice.userId, phone_number: ['+12015550146'] }],
      ['POST', '/v1/phone_numbers', { user_id: alice.userId }],
      ['PATCH', '/v1/phone_numbers/idn_2doesnotexist0000000000', { verified: true }],
    ] as const) {
      const res = await h.app.inject({
        method,
        url: `${BAPI}${path}`,
        headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.ok(
        res.statusCode >= 400 && res.statusCode < 500,
        `${method} ${path}: ${res.statusCode} ${res.body}`,
      );
      assert.ok(res.json().errors[0].code, `${method} ${path} answers Clerk's envelope`);
    }
    assert.equal(await h.count('email_addresses'), emails);
    assert.equal(await h.count('phone_numbers'), phones);
  });

  it("another instance's address and number ids are 404 there and change nothing here", async () => {
    const phone = await clerk.phoneNumbers.createPhoneNumber({
      userId: alice.userId,
      phoneNumber: '+12015550147',
      verified: true,
    });
    const email = (await clerk.users.getUser(alice.userId)).primaryEmailAddressId!;
    const other = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    try {
      const otherClerk = await backendApiClient(other);
      await rejectsWith(otherClerk.emailAddresses.getEmailAddress(email), 404, 'resource_not_found');
      await rejectsWith(
        otherClerk.emailAddresses.updateEmailAddress(email, { verified: false }),
        404,
        'resource_not_found',
      );
      await rejectsWith(otherClerk.emailAddresses.deleteEmailAddress(email), 404, 'resource_not_found');
      await rejectsWith(otherClerk.phoneNumbers.getPhoneNumber(phone.id), 404, 'resource_not_found');
      await rejectsWith(otherClerk.phoneNumbers.deletePhoneNumber(phone.id), 404, 'resource_not_found');
      await rejectsWith(
        otherClerk.emailAddresses.createEmailAddress({ userId: alice.userId, emailAddress: uniqueEmail() }),
        404,
        'resource_not_found',
      );
    } finally {
      await other.close();
    }
    assert.equal((await clerk.phoneNumbers.getPhoneNumber(phone.id)).verification?.status, 'verified');
    assert.equal((await signInWithPassword(h.browser(), alice.email, PASSWORD)).userId, alice.userId);
  });
});
