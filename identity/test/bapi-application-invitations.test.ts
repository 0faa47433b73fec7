import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { sha256 } from '../src/crypto/secrets.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { BAPI, FAPI, Harness, PUBLIC_URL, uniqueEmail, type Json } from './support/harness.ts';

/**
 * Invitations to the application through @clerk/backend 2.10.1 (`invitations`), the bulk route of later
 * versions, the ticket opening sign-up in restricted mode, and the routes of what only Clerk's hosted
 * service does (docs/backend-api.md).
 */

const DAY_MS = 24 * 3600 * 1000;
const OTHER_SECRET_KEY = 'sk_live_otherinstancekey000000000000000000000';

forEachBackend('invitations to the application through @clerk/backend 2.10.1', (backend) => {
  let h: Harness;
  let other: Harness;
  let clerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    await h.identity.settings.set({ ...h.identity.settings.settings, signUp: { mode: 'restricted' } });
    other = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    clerk = await backendApiClient(h);
  });
  after(async () => {
    await other.close();
    await h.close();
  });
  // A fresh sending-limit window for each test.
  beforeEach(() => h.clock.advance(3600));

  const bapiPost = (path: string, payload: unknown, key = h.identity.secretKey) =>
    h.app.inject({
      method: 'POST',
      url: `${BAPI}${path}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  const ticketOf = (url: string) => new URL(url).searchParams.get('ticket')!;

  it('createInvitation answers Clerk’s Invitation with its link, keeps only the ticket’s hash, and mails it', async () => {
    const email = uniqueEmail('inv');
    const created = await clerk.invitations.createInvitation({
      emailAddress: email,
      publicMetadata: { plan: 'gold' },
    });
    assert.match(created.id, /^inv_/);
    assert.equal(created.emailAddress, email);
    assert.equal(created.status, 'pending');
    assert.equal(created.revoked, false);
    assert.deepEqual(created.publicMetadata, { plan: 'gold' });
    assert.equal(created.createdAt, h.clock.now.getTime());
    const ticket = ticketOf(created.url!);
    assert.equal(created.url, `${PUBLIC_URL}${FAPI}/v1/tickets/accept?ticket=${ticket}`);
    const raw = (created as unknown as { raw: Json }).raw;
    assert.equal(raw.object, 'invitation');
    assert.equal(raw.expires_at, h.clock.now.getTime() + 30 * DAY_MS, '30 days by default');
    const [row] = await h.db.query<Json>('SELECT * FROM instance_invitations WHERE id = $1', [created.id]);
    assert.equal(row.ticket_hash, sha256(ticket));
    assert.ok(!JSON.stringify(row).includes(ticket), 'the ticket itself is nowhere in the row');

    const [mail] = await h.mail(email);
    assert.ok(mail, 'the invitation was mailed');
    assert.match(mail.subject, /Votre invitation à rejoindre/, 'French by default');
    assert.ok(mail.text.includes(created.url!));
  });

  it('the mail speaks the language of public_metadata.uiLanguage; the waitlist template and notify:false', async () => {
    const en = uniqueEmail('inv-en');
    await clerk.invitations.createInvitation({ emailAddress: en, publicMetadata: { uiLanguage: 'EN' } });
    assert.match((await h.mail(en))[0]!.subject, /^You're invited to join/);
    assert.match((await h.mail(en))[0]!.text, /invited to create an account/);

    const wl = uniqueEmail('inv-wl');
    const res = await bapiPost('/v1/invitations', {
      email_address: wl,
      template_slug: 'waitlist_invitation',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match((await h.mail(wl))[0]!.text, /liste d'attente/);

    const quiet = uniqueEmail('inv-quiet');
    const silent = await clerk.invitations.createInvitation({ emailAddress: quiet, notify: false });
    assert.equal(silent.status, 'pending');
    assert.ok(silent.url, 'the link is answered for the caller to send');
    assert.equal((await h.mail(quiet)).length, 0);
  });

  it('the ticket opens sign-up in restricted mode once; the metadata becomes the user’s', async () => {
    const email = uniqueEmail('invitee');
    const closed = await h.browser().post('/client/sign_ups', { email_address: email, password: PASSWORD });
    assert.equal(closed.status, 403);
    assert.equal(closed.body.errors[0].code, 'sign_up_mode_restricted');

    const created = await clerk.invitations.createInvitation({
      emailAddress: email,
      publicMetadata: { plan: 'gold' },
      redirectUrl: `${PUBLIC_URL}/welcome`,
    });
    const ticket = ticketOf(created.url!);
    assert.equal(new URL(created.url!).searchParams.get('redirect_url'), `${PUBLIC_URL}/welcome`);
    const browser = h.browser();
    const landed = await browser.get('/tickets/accept', { ticket, redirect_url: `${PUBLIC_URL}/welcome` });
    assert.equal(landed.status, 303);
    assert.equal(
      landed.headers.location,
      `${PUBLIC_URL}/welcome?__clerk_ticket=${ticket}&__clerk_status=sign_up`,
    );
    const started = await browser.post('/client/sign_ups', { strategy: 'ticket', ticket });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.response.email_address, email);
    const done = await browser.patch(`/client/sign_ups/${started.body.response.id}`, {
      password: PASSWORD,
      strategy: 'ticket',
      ticket,
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    const user = await clerk.users.getUser(done.body.response.created_user_id);
    assert.deepEqual(user.publicMetadata, { plan: 'gold' });
    assert.equal(user.emailAddresses[0]!.verification?.strategy, 'ticket');

    const { data } = await clerk.invitations.getInvitationList({ query: created.id });
    assert.equal(data[0]!.status, 'accepted');
    // Replayed: refused, no second account.
    const replay = await h.browser().post('/client/sign_ups', { strategy: 'ticket', ticket });
    assert.equal(replay.status, 422);
    assert.equal(replay.body.errors[0].code, 'ticket_invalid_code');
    await rejectsWith(clerk.invitations.revokeInvitation(created.id), 400, 'invitation_not_pending');
  });

  it('a revoked or expired invitation opens nothing; revoking twice is refused', async () => {
    const revokedEmail = uniqueEmail('revoked');
    const toRevoke = await clerk.invitations.createInvitation({ emailAddress: revokedEmail });
    const revoked = await clerk.invitations.revokeInvitation(toRevoke.id);
    assert.equal(revoked.status, 'revoked');
    assert.equal(revoked.revoked, true);
    const refused = await h.browser().post('/client/sign_ups', {
      strategy: 'ticket',
      ticket: ticketOf(toRevoke.url!),
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].code, 'ticket_invalid_code');
    await rejectsWith(clerk.invitations.revokeInvitation(toRevoke.id), 400, 'invitation_not_pending');

    const expiring = await clerk.invitations.createInvitation({
      emailAddress: uniqueEmail('expiring'),
      expiresInDays: 1,
    } as Parameters<ClerkClient['invitations']['createInvitation']>[0]);
    h.clock.advance(DAY_MS / 1000 + 1);
    const expired = await h.browser().post('/client/sign_ups', {
      strategy: 'ticket',
      ticket: ticketOf(expiring.url!),
    });
    assert.equal(expired.status, 422);
    assert.equal(expired.body.errors[0].code, 'ticket_expired_code');
    const { data } = await clerk.invitations.getInvitationList({ query: expiring.id });
    assert.equal(data[0]!.status, 'expired');
    await rejectsWith(clerk.invitations.revokeInvitation(expiring.id), 400, 'invitation_not_pending');
    assert.equal(
      await h.count('email_addresses', 'lower(email_address) = lower($1)', [revokedEmail]),
      0,
      'no account was made',
    );
  });

  it('an address invited twice, or with an account, is duplicate_record unless ignore_existing', async () => {
    const email = uniqueEmail('dup');
    const first = await clerk.invitations.createInvitation({ emailAddress: email });
    h.clock.advance(1);
    const before = await h.count('instance_invitations');
    await rejectsWith(clerk.invitations.createInvitation({ emailAddress: email }), 400, 'duplicate_record');
    await rejectsWith(
      clerk.invitations.createInvitation({ emailAddress: email.toUpperCase() }),
      400,
      'duplicate_record',
    );
    assert.equal(await h.count('instance_invitations'), before);
    const again = await clerk.invitations.createInvitation({ emailAddress: email, ignoreExisting: true });
    assert.notEqual(again.id, first.id);
    const { data } = await clerk.invitations.getInvitationList({ query: email, orderBy: '+created_at' } as {
      query: string;
    });
    assert.deepEqual(
      data.map((i) => [i.id, i.status]),
      [
        [first.id, 'revoked'],
        [again.id, 'pending'],
      ],
      'the earlier link stops working: one live link per address',
    );

    const member = uniqueEmail('member');
    await h.identity.settings.set({ ...h.identity.settings.settings, signUp: { mode: 'public' } });
    try {
      await signUp(h, h.browser(), member);
    } finally {
      await h.identity.settings.set({ ...h.identity.settings.settings, signUp: { mode: 'restricted' } });
    }
    await rejectsWith(clerk.invitations.createInvitation({ emailAddress: member }), 400, 'duplicate_record');
    const forced = await clerk.invitations.createInvitation({ emailAddress: member, ignoreExisting: true });
    assert.equal(forced.status, 'pending');
  });

  it('the same address invited several times at once: one invitation, the others duplicate_record', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => clerk.invitations.createInvitation({ emailAddress: email })),
    );
    const created = results.filter((r) => r.status === 'fulfilled');
    assert.equal(created.length, 1, JSON.stringify(results));
    for (const r of results.filter((r) => r.status === 'rejected')) {
      assert.equal((r.reason as { errors: { code: string }[] }).errors[0]!.code, 'duplicate_record');
    }
    assert.equal(await h.count('instance_invitations', 'lower(email_address) = lower($1)', [email]), 1);
    assert.equal((await h.mail(email)).length, 1);
  });

  it('a blocklisted address (or domain) is refused, and nothing is written or mailed', async () => {
    const domain = `blocked-${Date.now()}.example.com`;
    await clerk.blocklistIdentifiers.createBlocklistIdentifier({ identifier: `*@${domain}` });
    const email = `someone@${domain}`;
    const before = await h.count('instance_invitations');
    await rejectsWith(clerk.invitations.createInvitation({ emailAddress: email }), 403, 'not_allowed_access');
    await rejectsWith(
      clerk.invitations.createInvitation({ emailAddress: email, ignoreExisting: true }),
      403,
      'not_allowed_access',
    );
    assert.equal(await h.count('instance_invitations'), before);
    assert.equal((await h.mail(email)).length, 0);
  });

  it('bulk: all or nothing, as Invitation[]', async () => {
    const a = uniqueEmail('bulk-a');
    const b = uniqueEmail('bulk-b');
    const res = await bapiPost('/v1/invitations/bulk', [
      { email_address: a, public_metadata: { n: 1 } },
      { email_address: b, notify: false },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const created = res.json() as Json[];
    assert.deepEqual(
      created.map((i) => [i.object, i.email_address, i.status]),
      [
        ['invitation', a, 'pending'],
        ['invitation', b, 'pending'],
      ],
    );
    assert.equal((await h.mail(a)).length, 1);
    assert.equal((await h.mail(b)).length, 0);

    const before = await h.count('instance_invitations');
    const c = uniqueEmail('bulk-c');
    const cases: [unknown, number, string][] = [
      [[{ email_address: c }, { email_address: a }], 400, 'duplicate_record'],
      [[{ email_address: c }, { email_address: c }], 422, 'form_param_value_invalid'],
      [[{ email_address: c }, { email_address: 'nope' }], 422, 'form_param_format_invalid'],
      [[], 422, 'form_param_nil'],
      [
        Array.from({ length: 11 }, () => ({ email_address: uniqueEmail('many') })),
        422,
        'form_param_value_invalid',
      ],
      [{ email_address: c }, 400, 'request_body_invalid'],
    ];
    for (const [payload, status, code] of cases) {
      const refused = await bapiPost('/v1/invitations/bulk', payload);
      assert.equal(refused.statusCode, status, refused.body);
      assert.equal(refused.json().errors[0].code, code, refused.body);
    }
    assert.equal(await h.count('instance_invitations'), before);
    assert.equal((await h.mail(c)).length, 0);
  });

  it('getInvitationList: status filter, query, order, limit/offset, {data, total_count}', async () => {
    const tag = `list${Date.now()}`;
    const made = [];
    for (const n of [3, 1, 2]) {
      made.push(await clerk.invitations.createInvitation({ emailAddress: `${tag}-${n}@example.com` }));
      h.clock.advance(1);
    }
    await clerk.invitations.revokeInvitation(made[2]!.id);
    const all = await clerk.invitations.getInvitationList({ query: tag });
    assert.equal(all.totalCount, 3);
    assert.deepEqual(
      all.data.map((i) => i.id),
      [made[2]!.id, made[1]!.id, made[0]!.id],
      'newest first by default',
    );
    const byEmail = await clerk.invitations.getInvitationList({ query: tag, orderBy: 'email_address' } as {
      query: string;
    });
    assert.deepEqual(
      byEmail.data.map((i) => i.emailAddress),
      [1, 2, 3].map((n) => `${tag}-${n}@example.com`),
    );
    const pending = await clerk.invitations.getInvitationList({ query: tag, status: 'pending' });
    assert.equal(pending.totalCount, 2);
    const revoked = await clerk.invitations.getInvitationList({ query: tag, status: 'revoked' });
    assert.deepEqual(
      revoked.data.map((i) => i.id),
      [made[2]!.id],
    );
    const page = await clerk.invitations.getInvitationList({ query: tag, limit: 1, offset: 1 });
    assert.equal(page.totalCount, 3);
    assert.deepEqual(
      page.data.map((i) => i.id),
      [made[1]!.id],
    );
    const past = await clerk.invitations.getInvitationList({ query: tag, offset: 10 });
    assert.equal(past.totalCount, 3);
    assert.equal(past.data.length, 0);
    assert.equal(all.data[0]!.url, null, 'the link is shown only when made');
    // Without paginated=true: Clerk's bare array.
    const bare = await h.bapi(`/v1/invitations?query=${tag}`);
    assert.equal(bare.statusCode, 200);
    assert.equal((bare.json() as Json[]).length, 3);

    for (const q of [
      'status=bogus',
      'order_by=ticket_hash',
      'limit=abc',
      'limit=0',
      `query=${'x'.repeat(300)}`,
    ]) {
      const res = await h.bapi(`/v1/invitations?${q}`);
      assert.equal(res.statusCode, 422, q);
    }
  });

  it('bad input is refused with Clerk’s codes and creates nothing', async () => {
    const before = await h.count('instance_invitations');
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{}, 422, 'form_param_nil', 'email_address'],
      [{ email_address: 'not-an-email' }, 422, 'form_param_format_invalid', 'email_address'],
      [{ email_address: 42 }, 422, 'form_param_format_invalid', 'email_address'],
      [
        { email_address: uniqueEmail(), expires_in_days: 0 },
        422,
        'form_param_value_invalid',
        'expires_in_days',
      ],
      [
        { email_address: uniqueEmail(), expires_in_days: 1.5 },
        422,
        'form_param_value_invalid',
        'expires_in_days',
      ],
      [
        { email_address: uniqueEmail(), expires_in_days: 366 },
        422,
        'form_param_value_invalid',
        'expires_in_days',
      ],
      [
        { email_address: uniqueEmail(), redirect_url: 'https://evil.example' },
        422,
        'form_param_value_invalid',
        'redirect_url',
      ],
      [
        { email_address: uniqueEmail(), template_slug: 'other' },
        422,
        'form_param_value_invalid',
        'template_slug',
      ],
      [
        { email_address: uniqueEmail(), public_metadata: 'x' },
        422,
        'form_param_format_invalid',
        'public_metadata',
      ],
      [{ email_address: uniqueEmail(), notify: 'yes' }, 422, 'form_param_format_invalid', 'notify'],
    ];
    for (const [payload, status, code, param] of cases) {
      const res = await bapiPost('/v1/invitations', payload);
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`);
      const [error] = res.json().errors;
      assert.equal(error.code, code, res.body);
      if (param) assert.equal(error.meta.param_name, param, res.body);
    }
    const wrongKey = await bapiPost('/v1/invitations', { email_address: uniqueEmail() }, 'sk_live_wrong');
    assert.equal(wrongKey.statusCode, 401);
    assert.equal(await h.count('instance_invitations'), before);
  });

  it('another instance: its invitation ids are unknown (404), its list empty, its key refused', async () => {
    const mine = await clerk.invitations.createInvitation({ emailAddress: uniqueEmail('iso') });
    const foreign = await bapiPost(`/v1/invitations/${mine.id}/revoke`, {}, OTHER_SECRET_KEY);
    assert.equal(foreign.statusCode, 401, 'the other instance’s key is not this one’s');
    const otherRevoke = await other.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/invitations/${mine.id}/revoke`,
      headers: { authorization: `Bearer ${OTHER_SECRET_KEY}` },
    });
    assert.equal(otherRevoke.statusCode, 404);
    assert.equal(otherRevoke.json().errors[0].code, 'resource_not_found');
    const otherList = await other.bapi(`/v1/invitations?query=${mine.id}&paginated=true`, OTHER_SECRET_KEY);
    assert.deepEqual(otherList.json(), { data: [], total_count: 0 });
    // Its ticket opens nothing on the other instance either.
    const otherSignUp = await other.browser().post('/client/sign_ups', {
      strategy: 'ticket',
      ticket: ticketOf(mine.url!),
    });
    assert.equal(otherSignUp.status, 422);
    const { data } = await clerk.invitations.getInvitationList({ query: mine.id });
    assert.equal(data[0]!.status, 'pending');
    await rejectsWith(clerk.invitations.revokeInvitation('inv_doesnotexist'), 404, 'resource_not_found');
  });

  it('what only Clerk’s cloud does answers 422 not_supported_by_this_provider, naming the feature', async () => {
    const calls: [string, () => Promise<unknown>][] = [
      [
        'accountless_applications',
        () => clerk.__experimental_accountlessApplications.createAccountlessApplication(),
      ],
      [
        'accountless_applications',
        () => clerk.__experimental_accountlessApplications.completeAccountlessApplicationOnboarding(),
      ],
      [
        'proxy_checks',
        () => clerk.proxyChecks.verify({ domainId: 'dmn_1', proxyUrl: 'https://example.com/__clerk' }),
      ],
      ['beta_features', () => clerk.betaFeatures.changeDomain({ homeUrl: 'https://example.com' })],
      ['svix', () => clerk.webhooks.createSvixApp()],
      ['svix', () => clerk.webhooks.generateSvixAuthURL()],
      ['svix', () => clerk.webhooks.deleteSvixApp()],
    ];
    for (const [feature, call] of calls) {
      await assert.rejects(
        call(),
        (err: { status: number; errors: { code: string; longMessage: string; meta: Json }[] }) => {
          assert.equal(err.status, 422);
          assert.equal(err.errors[0]!.code, 'not_supported_by_this_provider');
          assert.match(err.errors[0]!.longMessage, /hosted/);
          return true;
        },
        feature,
      );
    }
    const raw = await h.app.inject({
      method: 'PATCH',
      url: `${BAPI}/v1/beta_features/instance_settings`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ restricted_to_allowlist: true }),
    });
    assert.equal(raw.statusCode, 422);
    assert.equal(raw.json().errors[0].meta.feature, 'beta_features');
    const noKey = await h.app.inject({ method: 'POST', url: `${BAPI}/v1/webhooks/svix` });
    assert.equal(noKey.statusCode, 401);
  });
});
