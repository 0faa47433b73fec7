import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, PUBLIC_URL, uniqueEmail } from './support/harness.ts';

const OTHER_SECRET_KEY = 'sk_live_otherlistsinstancekey0000000000000000';

/** An address at a domain of its own, so that a domain entry names nobody else of the file. */
const emailAt = (domain: string, name = 'user') => `${name}-${randomBytes(4).toString('hex')}@${domain}`;

forEachBackend('Backend API allowlist, blocklist and redirect URLs', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  const startSignUp = (email: string) =>
    h.browser().post('/client/sign_ups', { email_address: email, password: PASSWORD });

  it('allowlist: create (address, domain, phone, wallet), list, delete through the SDK', async () => {
    const email = uniqueEmail('listed');
    const created = await clerk.allowlistIdentifiers.createAllowlistIdentifier({
      identifier: email,
      notify: false,
    });
    assert.match(created.id, /^alid_/);
    assert.equal(created.identifier, email);
    assert.equal(created.identifierType, 'email_address');
    assert.equal(created.invitationId, null);
    assert.equal(typeof created.createdAt, 'number');
    const domain = await clerk.allowlistIdentifiers.createAllowlistIdentifier({
      identifier: '@Partner.Example.org',
      notify: false,
    });
    assert.equal(domain.identifier, '*@partner.example.org');
    assert.equal(domain.identifierType, 'email_address');
    const phone = await clerk.allowlistIdentifiers.createAllowlistIdentifier({
      identifier: '+1 201-555-0147',
      notify: false,
    });
    assert.equal(phone.identifier, '+12015550147');
    assert.equal(phone.identifierType, 'phone_number');
    const wallet = await clerk.allowlistIdentifiers.createAllowlistIdentifier({
      identifier: '0x52908400098527886e0f7030069857d2e4169ee7',
      notify: false,
    });
    assert.equal(wallet.identifier, '0x52908400098527886E0F7030069857D2E4169EE7');
    assert.equal(wallet.identifierType, 'web3_wallet');

    const list = await clerk.allowlistIdentifiers.getAllowlistIdentifierList();
    assert.equal(list.totalCount, 4);
    // Oldest first; entries made in the same millisecond in no particular order.
    assert.deepEqual(list.data.map((i) => i.id).sort(), [created.id, domain.id, phone.id, wallet.id].sort());
    const page = await clerk.allowlistIdentifiers.getAllowlistIdentifierList({ limit: 1, offset: 1 });
    assert.deepEqual(
      page.data.map((i) => i.id),
      [list.data[1]!.id],
    );
    assert.equal(page.totalCount, 4);

    for (const entry of [created, domain, phone, wallet]) {
      const deleted = await clerk.allowlistIdentifiers.deleteAllowlistIdentifier(entry.id);
      assert.deepEqual(
        { id: deleted.id, deleted: deleted.deleted, object: deleted.object },
        {
          id: entry.id,
          deleted: true,
          object: 'allowlist_identifier',
        },
      );
    }
    await rejectsWith(
      clerk.allowlistIdentifiers.deleteAllowlistIdentifier(created.id),
      404,
      'resource_not_found',
    );
    assert.equal((await clerk.allowlistIdentifiers.getAllowlistIdentifierList()).totalCount, 0);
  });

  it('both lists refuse a malformed, oversized or duplicate identifier and change nothing', async () => {
    for (const api of ['allowlist', 'blocklist'] as const) {
      const create = (identifier: string) =>
        api === 'allowlist'
          ? clerk.allowlistIdentifiers.createAllowlistIdentifier({ identifier, notify: false })
          : clerk.blocklistIdentifiers.createBlocklistIdentifier({ identifier });
      for (const bad of [
        'not an identifier',
        'a@b',
        '@',
        '*@',
        '+12',
        'x@exa mple.com',
        '0x1234',
        'a@@b.com',
      ])
        await rejectsWith(create(bad), 422, 'form_param_format_invalid', 'identifier');
      await rejectsWith(create(''), 422, 'form_param_nil', 'identifier');
      await rejectsWith(
        create(`${'a'.repeat(300)}@example.com`),
        422,
        'form_param_max_length_exceeded',
        'identifier',
      );
      const email = uniqueEmail('dup');
      await create(email);
      await rejectsWith(create(email.toUpperCase()), 422, 'duplicate_record', 'identifier');
      await create('*@dup.example.net');
      await rejectsWith(create('@DUP.example.net'), 422, 'duplicate_record', 'identifier');
    }
    const allow = await clerk.allowlistIdentifiers.getAllowlistIdentifierList();
    const block = await clerk.blocklistIdentifiers.getBlocklistIdentifierList();
    assert.equal(allow.totalCount, 2);
    assert.equal(block.totalCount, 2);
    for (const e of allow.data) await clerk.allowlistIdentifiers.deleteAllowlistIdentifier(e.id);
    for (const e of block.data) await clerk.blocklistIdentifiers.deleteBlocklistIdentifier(e.id);
  });

  it('a non-empty allowlist lets in only its addresses and domains; emptied, it lets everyone in', async () => {
    const listed = emailAt('members.example.org', 'listed');
    const single = await clerk.allowlistIdentifiers.createAllowlistIdentifier({
      identifier: listed,
      notify: false,
    });
    const domain = await clerk.allowlistIdentifiers.createAllowlistIdentifier({
      identifier: '*@staff.example.org',
      notify: false,
    });
    const users = await h.count('users');
    const refused = await startSignUp(emailAt('members.example.org', 'stranger'));
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].code, 'not_allowed_access');
    assert.equal(await h.count('users'), users);

    assert.ok((await signUp(h, h.browser(), listed)).userId);
    assert.ok((await signUp(h, h.browser(), emailAt('staff.example.org'))).userId);
    // An address of a subdomain is not the domain's.
    assert.equal((await startSignUp(emailAt('eu.staff.example.org'))).status, 403);

    await clerk.allowlistIdentifiers.deleteAllowlistIdentifier(single.id);
    await clerk.allowlistIdentifiers.deleteAllowlistIdentifier(domain.id);
    assert.ok((await signUp(h, h.browser(), uniqueEmail('anyone'))).userId);
  });

  it('the blocklist refuses sign-up and sign-in to an address or a domain; removed, both work again', async () => {
    const email = uniqueEmail('blocked');
    const user = await signUp(h, h.browser(), email);
    const blocked = await clerk.blocklistIdentifiers.createBlocklistIdentifier({ identifier: email });
    assert.match(blocked.id, /^blid_/);
    assert.equal(blocked.identifierType, 'email_address');
    const list = await clerk.blocklistIdentifiers.getBlocklistIdentifierList();
    assert.deepEqual(
      list.data.map((b) => b.identifier),
      [email],
    );

    const signIn = await h.browser().post('/client/sign_ins', { identifier: email.toUpperCase() });
    assert.equal(signIn.status, 403, JSON.stringify(signIn.body));
    assert.equal(signIn.body.errors[0].code, 'not_allowed_access');
    const instant = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
    assert.equal(instant.status, 403);

    const spam = await clerk.blocklistIdentifiers.createBlocklistIdentifier({
      identifier: '*@spam.example.org',
    });
    const refused = await startSignUp(emailAt('spam.example.org'));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.errors[0].code, 'not_allowed_access');

    await clerk.blocklistIdentifiers.deleteBlocklistIdentifier(blocked.id);
    await clerk.blocklistIdentifiers.deleteBlocklistIdentifier(spam.id);
    await rejectsWith(
      clerk.blocklistIdentifiers.deleteBlocklistIdentifier(spam.id),
      404,
      'resource_not_found',
    );
    assert.equal((await signInWithPassword(h.browser(), email)).userId, user.userId);
    assert.ok((await signUp(h, h.browser(), emailAt('spam.example.org'))).userId);
  });

  it('redirect URLs: a listed URL becomes an allowed redirect; deleted, it is refused again', async () => {
    const target = 'https://native.example.org/callback/done?x=1';
    const attempt = () => h.browser().post('/client/sign_ins', { redirect_url: target });
    const before = await attempt();
    assert.equal(before.status, 422);
    assert.equal(before.body.errors[0].code, 'form_param_value_invalid');

    const created = await clerk.redirectUrls.createRedirectUrl({
      url: 'https://native.example.org/callback',
    });
    assert.match(created.id, /^ru_/);
    assert.equal(created.url, 'https://native.example.org/callback');
    assert.equal((await clerk.redirectUrls.getRedirectUrl(created.id)).url, created.url);
    const list = await clerk.redirectUrls.getRedirectUrlList();
    assert.equal(list.totalCount, 1);
    assert.equal(list.data[0]!.id, created.id);
    assert.equal((await attempt()).status, 200);
    // Beside the path, or on another host, nothing is allowed.
    for (const other of ['https://native.example.org/callbackx', 'https://evil.example.org/callback'])
      assert.equal((await h.browser().post('/client/sign_ins', { redirect_url: other })).status, 422, other);

    await rejectsWith(
      clerk.redirectUrls.createRedirectUrl({ url: 'https://native.example.org/callback' }),
      422,
      'duplicate_record',
      'url',
    );
    for (const bad of [
      'javascript:alert(1)',
      'not a url',
      '/relative',
      'https://user:pw@x.example.org/',
      'data:text/html,x',
    ])
      await rejectsWith(
        clerk.redirectUrls.createRedirectUrl({ url: bad }),
        422,
        'form_param_format_invalid',
        'url',
      );
    await rejectsWith(
      clerk.redirectUrls.createRedirectUrl({ url: `https://x.example.org/${'a'.repeat(2100)}` }),
      422,
      'form_param_max_length_exceeded',
      'url',
    );

    const deleted = await clerk.redirectUrls.deleteRedirectUrl(created.id);
    assert.equal(deleted.id, created.id);
    assert.equal((await attempt()).status, 422);
    await rejectsWith(clerk.redirectUrls.getRedirectUrl(created.id), 404, 'resource_not_found');
    // The instance's own origin stays allowed with no URL listed.
    assert.equal(
      (await h.browser().post('/client/sign_ins', { redirect_url: `${PUBLIC_URL}/dashboard` })).status,
      200,
    );
  });

  it("another instance finds none of this instance's entries", async () => {
    const allow = await clerk.allowlistIdentifiers.createAllowlistIdentifier({
      identifier: uniqueEmail('mine'),
      notify: false,
    });
    const block = await clerk.blocklistIdentifiers.createBlocklistIdentifier({
      identifier: uniqueEmail('mine'),
    });
    const url = await clerk.redirectUrls.createRedirectUrl({ url: 'https://mine.example.org/' });
    const other = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    try {
      const otherClerk = await backendApiClient(other);
      await rejectsWith(
        otherClerk.allowlistIdentifiers.deleteAllowlistIdentifier(allow.id),
        404,
        'resource_not_found',
      );
      await rejectsWith(
        otherClerk.blocklistIdentifiers.deleteBlocklistIdentifier(block.id),
        404,
        'resource_not_found',
      );
      await rejectsWith(otherClerk.redirectUrls.getRedirectUrl(url.id), 404, 'resource_not_found');
      await rejectsWith(otherClerk.redirectUrls.deleteRedirectUrl(url.id), 404, 'resource_not_found');
      assert.equal((await otherClerk.allowlistIdentifiers.getAllowlistIdentifierList()).totalCount, 0);
      assert.equal((await otherClerk.redirectUrls.getRedirectUrlList()).totalCount, 0);
    } finally {
      await other.close();
    }
    assert.equal((await clerk.redirectUrls.getRedirectUrl(url.id)).id, url.id);
    await clerk.allowlistIdentifiers.deleteAllowlistIdentifier(allow.id);
    await clerk.blocklistIdentifiers.deleteBlocklistIdentifier(block.id);
    await clerk.redirectUrls.deleteRedirectUrl(url.id);
  });
});
