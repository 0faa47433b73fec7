import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { runCli } from '../src/cli/run-cli.ts';
import { databaseWaitlistAdmin } from '../src/cli/waitlist-admin.ts';
import { BAPI, Harness, PUBLIC_URL, uniqueEmail, type Browser, type Json } from './support/harness.ts';

/**
 * The waitlist (docs/sign-up-modes.md): clerk-js's `POST /waitlist`, the Backend API's
 * `waitlistEntries` as @clerk/backend 2.10.1 calls them (plus invite and reject), the invitation's
 * ticket opening sign-up in waitlist mode, and the entry's statuses with their webhook events.
 */

type Entry = Awaited<ReturnType<ClerkClient['waitlistEntries']['create']>>;

const LINK_RE = /(https?:\/\/\S+\/v1\/tickets\/accept\?ticket=[A-Za-z0-9_-]+)/;

forEachBackend('the waitlist', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    await h.identity.settings.set({ ...h.identity.settings.settings, signUp: { mode: 'waitlist' } });
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  /** `waitlistEntries.list`; 2.10.1 types its `data` as one entry, while it is (and parses) an array. */
  const list = async (params: Parameters<ClerkClient['waitlistEntries']['list']>[0]) =>
    (await clerk.waitlistEntries.list(params)) as unknown as { data: Entry[]; totalCount: number };
  const join = (browser: Browser, email: string) => browser.post('/waitlist', { email_address: email });
  const events = (entryId: string) =>
    h.db.query<{ type: string; payload: Json }>(
      `SELECT type, payload FROM webhook_events WHERE payload->'data'->>'id' = $1 ORDER BY created_at, id`,
      [entryId],
    );
  /** A BAPI POST as @clerk/backend 2.33 sends invite/reject (2.10.1 has no method for them). */
  const bapiPost = (path: string, payload: Record<string, unknown> = {}) =>
    h.app.inject({
      method: 'POST',
      url: `${BAPI}${path}`,
      headers: { authorization: `Bearer ${h.identity.secretKey}` },
      payload,
    });

  it('the environment says waitlist mode and where the waitlist page is', async () => {
    const env = (await h.browser().get('/environment')).body;
    assert.equal(env.user_settings.sign_up.mode, 'waitlist');
    assert.equal(env.display_config.waitlist_url, `${PUBLIC_URL}/waitlist`);
  });

  it('POST /waitlist answers WaitlistJSON wrapped with the client; an address joins once', async () => {
    const email = uniqueEmail('wait');
    const first = await join(h.browser(), email);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const w = first.body.response;
    assert.equal(w.object, 'waitlist');
    assert.match(w.id, /^wle_/);
    assert.equal(typeof w.created_at, 'number');
    assert.equal(typeof w.updated_at, 'number');
    assert.ok('client' in first.body);
    // Again (another browser, other case): the same entry, nothing new, one `created` event.
    const again = await join(h.browser(), email.toUpperCase());
    assert.equal(again.status, 200);
    assert.equal(again.body.response.id, w.id);
    assert.equal(await h.count('waitlist_entries', 'lower(email_address) = $1', [email]), 1);
    const recorded = await events(w.id);
    assert.deepEqual(
      recorded.map((e) => e.type),
      ['waitlistEntry.created'],
    );
    const data = recorded[0]!.payload.data;
    assert.equal(data.object, 'waitlist_entry');
    assert.equal(data.email_address, email);
    assert.equal(data.status, 'pending');
    assert.equal(data.invitation, null);
    assert.equal(data.is_locked, false);
  });

  it('an address with an account gets the same answer (no account-existence leak)', async () => {
    const email = uniqueEmail('member');
    await h.identity.settings.set({ ...h.identity.settings.settings, signUp: { mode: 'public' } });
    try {
      await signUp(h, h.browser(), email);
    } finally {
      await h.identity.settings.set({ ...h.identity.settings.settings, signUp: { mode: 'waitlist' } });
    }
    const res = await join(h.browser(), email);
    assert.equal(res.status, 200);
    assert.equal(res.body.response.object, 'waitlist');
  });

  it('malformed, missing and oversized addresses are refused with nothing written', async () => {
    const before = await h.count('waitlist_entries');
    const browser = h.browser();
    for (const bad of ['not-an-address', 'a@b', 'x y@example.com', `${'a'.repeat(250)}@example.com`]) {
      const res = await join(browser, bad);
      assert.equal(res.status, 422, bad);
      assert.equal(res.body.errors[0].code, 'form_param_format_invalid');
      assert.equal(res.body.errors[0].meta.param_name, 'email_address');
    }
    const missing = await browser.post('/waitlist', {});
    assert.equal(missing.status, 422);
    assert.equal(missing.body.errors[0].code, 'form_param_nil');
    assert.equal(await h.count('waitlist_entries'), before);
  });

  it('floods are limited per address and per network address (429, counted across requests)', async () => {
    const email = uniqueEmail('flood');
    let last;
    for (let i = 0; i < 6; i++) last = await join(h.browser(), email);
    assert.equal(last!.status, 429);
    assert.equal(last!.body.errors[0].code, 'too_many_requests');
    const browser = h.browser();
    for (let i = 0; i < 20; i++) assert.equal((await join(browser, uniqueEmail('ip'))).status, 200);
    const over = await join(browser, uniqueEmail('ip'));
    assert.equal(over.status, 429);
  });

  it('Backend API: create (idempotent), list with query, status, order and paging', async () => {
    const a = uniqueEmail('bapi-a');
    const b = uniqueEmail('bapi-b');
    const created = await clerk.waitlistEntries.create({ emailAddress: a, notify: false });
    assert.match(created.id, /^wle_/);
    assert.equal(created.emailAddress, a);
    assert.equal(created.status, 'pending');
    assert.equal(created.invitation, null);
    assert.equal((await clerk.waitlistEntries.create({ emailAddress: a })).id, created.id);
    await clerk.waitlistEntries.create({ emailAddress: b });

    const found = await list({ query: a });
    assert.equal(found.totalCount, 1);
    assert.equal(found.data[0]!.id, created.id);
    assert.equal((await list({ query: created.id })).totalCount, 1);
    const pending = await list({ status: 'pending', limit: 1, offset: 0 });
    assert.equal(pending.data.length, 1);
    assert.ok(pending.totalCount >= 2);
    const byEmail = await list({ query: 'bapi-', orderBy: '+email_address' });
    const emails = byEmail.data.map((e) => e.emailAddress);
    assert.deepEqual(emails, [...emails].sort());
    const past = await list({ query: a, offset: 5 });
    assert.deepEqual(past.data, []);
    assert.equal(past.totalCount, 1);

    await rejectsWith(
      clerk.waitlistEntries.create({ emailAddress: 'nope' }),
      422,
      'form_param_format_invalid',
    );
    const badStatus = await h.bapi('/v1/waitlist_entries?status=bogus');
    assert.equal(badStatus.statusCode, 422);
    assert.equal(badStatus.json().errors[0].code, 'form_param_value_invalid');
    const badOrder = await h.bapi('/v1/waitlist_entries?order_by=password');
    assert.equal(badOrder.statusCode, 422);
    const noKey = await h.bapi('/v1/waitlist_entries', null);
    assert.equal(noKey.statusCode, 401);
  });

  it('invited → the mail’s ticket opens sign-up in waitlist mode → completed', async () => {
    const email = uniqueEmail('invitee');
    const joined = await join(h.browser(), email);
    const id: string = joined.body.response.id;
    // Without the invitation, sign-up stays closed.
    const closed = await h.browser().post('/client/sign_ups', { email_address: email, password: PASSWORD });
    assert.equal(closed.status, 403);
    assert.equal(closed.body.errors[0].code, 'sign_up_restricted_waitlist');

    const invited = await bapiPost(`/v1/waitlist_entries/${id}/invite`);
    assert.equal(invited.statusCode, 200, invited.body);
    const entry = invited.json();
    assert.equal(entry.status, 'invited');
    assert.equal(entry.invitation.object, 'invitation');
    assert.match(entry.invitation.id, /^inv_/);
    assert.equal(entry.invitation.status, 'pending');
    assert.match(entry.invitation.url, LINK_RE);
    // Invited again: refused, unless the caller says an open invitation is fine.
    const twice = await bapiPost(`/v1/waitlist_entries/${id}/invite`);
    assert.equal(twice.statusCode, 422);
    assert.equal(twice.json().errors[0].code, 'form_param_value_invalid');
    const ignored = await bapiPost(`/v1/waitlist_entries/${id}/invite`, { ignore_existing: true });
    assert.equal(ignored.statusCode, 200);
    assert.equal(ignored.json().invitation.id, entry.invitation.id);

    const mail = (await h.mail(email)).find((m) => LINK_RE.test(m.text));
    assert.ok(mail, 'the invitation was mailed');
    const link = mail.text.match(LINK_RE)![1]!;
    const browser = h.browser();
    const landed = await browser.raw('GET', new URL(link).pathname + new URL(link).search);
    assert.equal(landed.status, 303);
    const ticket = new URL(link).searchParams.get('ticket')!;
    assert.equal(
      landed.headers.location,
      `${PUBLIC_URL}/sign-up?__clerk_ticket=${ticket}&__clerk_status=sign_up`,
    );

    const created = await browser.post('/client/sign_ups', { strategy: 'ticket', ticket });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.response.email_address, email);
    assert.deepEqual(created.body.response.missing_fields, ['password']);
    const done = await browser.patch(`/client/sign_ups/${created.body.response.id}`, {
      password: PASSWORD,
      ticket,
      strategy: 'ticket',
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');

    const [after] = (await list({ query: id })).data;
    assert.equal(after!.status, 'completed');
    assert.equal(after!.invitation!.status, 'accepted');
    // One event per change, each with the entry as it became (the test clock stands still: no order).
    assert.deepEqual((await events(id)).map((e) => `${e.type}:${e.payload.data.status}`).sort(), [
      'waitlistEntry.created:pending',
      'waitlistEntry.updated:completed',
      'waitlistEntry.updated:invited',
    ]);
    // The ticket worked once; a completed entry is not invited again.
    const replay = await h.browser().post('/client/sign_ups', { strategy: 'ticket', ticket });
    assert.equal(replay.status, 422);
    assert.equal(replay.body.errors[0].code, 'ticket_invalid_code');
    assert.equal((await bapiPost(`/v1/waitlist_entries/${id}/invite`)).statusCode, 422);
  });

  it('rejected: the entry says so and its invitation no longer opens sign-up', async () => {
    const email = uniqueEmail('rejected');
    const entry = await clerk.waitlistEntries.create({ emailAddress: email });
    const invited = (await bapiPost(`/v1/waitlist_entries/${entry.id}/invite`)).json();
    const ticket = new URL(invited.invitation.url).searchParams.get('ticket')!;
    const rejected = await bapiPost(`/v1/waitlist_entries/${entry.id}/reject`);
    assert.equal(rejected.statusCode, 200, rejected.body);
    assert.equal(rejected.json().status, 'rejected');
    assert.equal(rejected.json().invitation.status, 'revoked');
    const refused = await h.browser().post('/client/sign_ups', { strategy: 'ticket', ticket });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].code, 'ticket_invalid_code');
    assert.equal(
      await h.count('users u JOIN email_addresses e ON e.user_id = u.id', 'e.email_address = $1', [email]),
      0,
    );
  });

  it('unknown entries: 404 for invite and reject', async () => {
    for (const action of ['invite', 'reject']) {
      const res = await bapiPost(`/v1/waitlist_entries/wle_doesnotexist/${action}`);
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().errors[0].code, 'resource_not_found');
    }
  });

  it('the CLI: waitlist list, invite (mailed) and reject, by address or id; mistakes exit 1 or 2', async () => {
    const email = uniqueEmail('cli');
    const entry = await clerk.waitlistEntries.create({ emailAddress: email });
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const status = await runCli(argv, {
        env: {},
        out: (l) => out.push(l),
        err: (l) => err.push(l),
        openWaitlist: async () => ({
          ...(await databaseWaitlistAdmin(h.db, h.config, 'the test database')),
          close: async () => {},
        }),
      });
      return { status, out: out.join('\n'), err: err.join('\n') };
    };
    const listed = await run('waitlist', 'list', '--query', email);
    assert.equal(listed.status, 0, listed.err);
    assert.match(listed.out, new RegExp(`${entry.id}\\s+pending`));
    const invited = await run('waitlist', 'invite', email);
    assert.equal(invited.status, 0, invited.err);
    assert.match(invited.out, /invited/);
    assert.ok(
      (await h.mail(email)).some((m) => LINK_RE.test(m.text)),
      'the invitation was mailed',
    );
    const rejected = await run('waitlist', 'reject', entry.id);
    assert.equal(rejected.status, 0, rejected.err);
    assert.match(rejected.out, /rejected/);
    const unknown = await run('waitlist', 'invite', uniqueEmail('nobody'));
    assert.equal(unknown.status, 1);
    assert.match(unknown.err, /no waitlist entry/);
    assert.equal((await run('waitlist', 'list', '--status', 'bogus')).status, 2);
    assert.equal((await run('waitlist', 'frobnicate')).status, 2);
  });
});
