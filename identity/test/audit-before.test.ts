// The audit log's `summary.before` (docs/audit-log.md): a Backend API update of a user, an organisation or a
// membership keeps the previous values of the fields it keeps in `after`, read in the change's transaction
// with the row locked (two concurrent changes chain), never a secret, nothing for a change that failed.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { bapiRoutes } from '../src/bapi/route-table.ts';
import { lockedRowValues } from '../src/store/audited-rows.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness, uniqueEmail, type Json } from './support/harness.ts';

const NEW_PASSWORD = 'Before-And-After-Passphrase!9';

forEachBackend('audit log: before and after', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  const bapi = async (
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    h.app.inject({
      method,
      url: `${BAPI}${path}`,
      headers: {
        authorization: `Bearer ${h.identity.secretKey}`,
        'content-type': 'application/json',
        ...headers,
      },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
  const ok = async (method: 'POST' | 'PATCH', path: string, payload: unknown): Promise<Json> => {
    const res = await bapi(method, path, payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  /** The events of `action` on `objectId`, in the order they were written. */
  const eventsOf = async (action: string, objectId: string): Promise<Json[]> => {
    const res = await bapi('GET', `/v1/audit_events?action=${action}&object_id=${objectId}&limit=500`);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json().data as Json[]).reverse();
  };
  const newUser = (firstName: string) =>
    ok('POST', '/v1/users', { email_address: [uniqueEmail('before')], first_name: firstName });

  it('keeps a user’s previous first and last names, and no value of the password', async () => {
    const user = await newUser('Grace');
    const res = await bapi('PATCH', `/v1/users/${user.id}`, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      password: NEW_PASSWORD,
      sign_out_of_other_sessions: false,
      private_metadata: { salary: 'secret-salary-value' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const [event, ...more] = await eventsOf('user.updated', user.id);
    assert.equal(more.length, 0);
    assert.deepEqual(event.summary.fields, [
      'first_name',
      'last_name',
      'password',
      'private_metadata',
      'sign_out_of_other_sessions',
    ]);
    assert.deepEqual(event.summary.after, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      sign_out_of_other_sessions: false,
    });
    // The fields of `after` that are the user's own state; an option of the call has no previous value.
    assert.deepEqual(event.summary.before, { first_name: 'Grace', last_name: null });
    const text = JSON.stringify(event);
    for (const secret of [NEW_PASSWORD, 'secret-salary-value', '$argon2']) {
      assert.ok(!text.includes(secret), `the event holds ${secret}`);
    }
    // A second change: its before is the first one's after.
    await ok('PATCH', `/v1/users/${user.id}`, { first_name: 'Augusta' });
    const second = (await eventsOf('user.updated', user.id))[1];
    assert.deepEqual(second.summary.before, { first_name: 'Ada' });
    assert.deepEqual(second.summary.after, { first_name: 'Augusta' });
  });

  it('keeps an organisation’s previous name, named by its slug or its id', async () => {
    const owner = await newUser('Owner');
    const org = await ok('POST', '/v1/organizations', { name: 'Old Name Co', created_by: owner.id });
    await ok('PATCH', `/v1/organizations/${org.slug}`, { name: 'New Name Co' });
    await ok('PATCH', `/v1/organizations/${org.id}`, { name: 'Newer Name Co', max_allowed_memberships: 9 });
    // The subject is the organisation as the path named it (its slug, then its id).
    const events = [
      ...(await eventsOf('organization.updated', org.slug)),
      ...(await eventsOf('organization.updated', org.id)),
    ];
    assert.equal(events.length, 2);
    assert.deepEqual(events[0].summary.before, { name: 'Old Name Co' });
    assert.deepEqual(events[0].summary.after, { name: 'New Name Co' });
    assert.deepEqual(events[1].summary.before, { name: 'New Name Co', max_allowed_memberships: 0 });
    assert.deepEqual(events[1].summary.after, { name: 'Newer Name Co', max_allowed_memberships: 9 });
  });

  it('keeps a membership’s previous role', async () => {
    const owner = await newUser('Owner');
    const member = await newUser('Member');
    const org = await ok('POST', '/v1/organizations', { name: 'Roles Co', created_by: owner.id });
    await ok('POST', `/v1/organizations/${org.id}/memberships`, { user_id: member.id, role: 'org:member' });
    await ok('PATCH', `/v1/organizations/${org.id}/memberships/${member.id}`, { role: 'org:admin' });
    const [event, ...more] = await eventsOf('membership.updated', member.id);
    assert.equal(more.length, 0);
    assert.deepEqual(event.subject, { type: 'membership', id: member.id });
    assert.deepEqual(event.summary.before, { role: 'org:member' });
    assert.deepEqual(event.summary.after, { role: 'org:admin' });
  });

  it('records nothing for a change of something that is not there', async () => {
    const owner = await newUser('Owner');
    const org = await ok('POST', '/v1/organizations', { name: 'Absent Co', created_by: owner.id });
    const db = h.identity.deps.db;
    const count = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events'))[0]!.n;
    const before = await count();
    for (const [path, body] of [
      ['/v1/users/user_doesnotexist', { first_name: 'Nobody' }],
      ['/v1/organizations/org_doesnotexist', { name: 'Nothing' }],
      ['/v1/organizations/no-such-slug', { name: 'Nothing' }],
      [`/v1/organizations/${org.id}/memberships/user_doesnotexist`, { role: 'org:admin' }],
      [`/v1/organizations/org_doesnotexist/memberships/${owner.id}`, { role: 'org:member' }],
    ] as const) {
      const res = await bapi('PATCH', path, body);
      assert.equal(res.statusCode, 404, `${path}: ${res.body}`);
    }
    assert.equal(await count(), before);
  });

  it('chains the previous values of concurrent changes of one row', async () => {
    const user = await newUser('Start');
    const names = ['One', 'Two', 'Three', 'Four'];
    const answers = await Promise.all(
      names.map((first_name) => bapi('PATCH', `/v1/users/${user.id}`, { first_name })),
    );
    for (const res of answers) assert.equal(res.statusCode, 200, res.body);
    const events = await eventsOf('user.updated', user.id);
    assert.equal(events.length, names.length);
    // Written in commit order: each change replaced what the one before it wrote.
    let previous = 'Start';
    for (const event of events) {
      assert.deepEqual(event.summary.before, { first_name: previous });
      previous = event.summary.after.first_name;
    }
    const now = await bapi('GET', `/v1/users/${user.id}`);
    assert.equal(now.json().first_name, previous);
    assert.deepEqual(new Set(events.map((e) => e.summary.after.first_name)), new Set(names));
  });

  it('keeps before and after for a console operator’s change too (a Backend API call)', async () => {
    const operator = await newUser('Operator');
    const user = await newUser('Before');
    const res = await bapi(
      'PATCH',
      `/v1/users/${user.id}`,
      { first_name: 'After' },
      { 'x-console-operator': operator.id },
    );
    assert.equal(res.statusCode, 200, res.body);
    const [event] = await eventsOf('user.updated', user.id);
    assert.deepEqual(event.actor, { type: 'operator', id: operator.id });
    assert.deepEqual(event.summary.before, { first_name: 'Before' });
    assert.deepEqual(event.summary.after, { first_name: 'After' });
  });

  it('declares only rows and columns that exist', async () => {
    const declared = bapiRoutes.filter((r) => r.audit && r.audit.before);
    assert.ok(declared.length >= 3);
    await h.identity.deps.db.transaction(async (tx) => {
      for (const route of declared) {
        const before = route.audit && route.audit.before;
        assert.ok(before);
        for (const column of before.columns) {
          assert.ok(route.input.body?.shape[column], `${route.path}: ${column} is not a body field`);
        }
        for (const param of before.params) assert.ok(route.path.includes(`:${param}`), route.path);
        const keys = before.params.map(() => 'org_absent');
        assert.equal(await lockedRowValues(tx, { kind: before.row, keys }, before.columns), null);
      }
    });
  });
});
