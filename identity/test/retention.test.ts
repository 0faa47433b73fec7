import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { purgeExpired } from '../src/retention/purge.ts';
import { RETENTION_RULES } from '../src/retention/rules.ts';
import { runCli } from '../src/cli/run-cli.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

const DAY = 24 * 3600;

/**
 * The scheduled purge deletes exactly the rows past their retention (issue #11, item 11: nothing ever
 * deleted expired clients, sign-ins, sign-ups, codes, rate-limit rows or outbox mail) and keeps the
 * rest; two instances purging at once share the work.
 */
forEachBackend('the retention of expired rows', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  const counts = async () => {
    const out: Record<string, number> = {};
    for (const { table } of RETENTION_RULES) out[table] = await h.count(table);
    return out;
  };

  it('deletes the stale rows and keeps the live ones, as time passes', async () => {
    // A signed-in user (session live for 7 days), a browser that only ever asked for a client, and a
    // browser midway through a sign-up (its code sent).
    const member = h.browser();
    const { userId } = await signUp(h, member, uniqueEmail('kept'));
    await h.browser().call('PUT', '/client');
    const visitor = h.browser();
    const started = await visitor.post('/client/sign_ups', { email_address: uniqueEmail('visitor') });
    await visitor.post(`/client/sign_ups/${started.body.response.id}/prepare_verification`, {
      strategy: 'email_code',
    });
    const fresh = await counts();
    assert.ok(fresh.verification_codes! >= 2 && fresh.rate_limits! > 0 && fresh.outbox! >= 2);

    // Nothing is stale yet.
    assert.deepEqual(
      Object.values(await purgeExpired(h.db, h.clock.now)).reduce((a, b) => a + b),
      0,
    );

    // Three days on: the codes, the idle browsers and their attempts, the rate-limit windows are gone;
    // the signed-in browser, its session and a week of outbox mail stay.
    h.clock.advance(3 * DAY);
    const threeDays = await purgeExpired(h.db, h.clock.now);
    assert.equal(threeDays.verification_codes, fresh.verification_codes);
    assert.equal(threeDays.rate_limits, fresh.rate_limits);
    assert.equal(threeDays.clients, 2);
    assert.equal(threeDays.sessions, 0);
    assert.equal(await h.count('verification_codes'), 0);
    assert.equal(await h.count('sign_ups', 'created_user_id IS NULL'), 0);
    assert.equal(await h.count('sessions', 'user_id = $1', [userId]), 1);
    assert.equal(await h.count('clients'), 1);
    assert.equal(await h.count('users', 'id = $1', [userId]), 1);

    // Forty days on: the session expired 33 days ago and goes, with its client and the outbox mail;
    // the user stays.
    h.clock.advance(37 * DAY);
    const later = await purgeExpired(h.db, h.clock.now);
    assert.equal(later.sessions, 1);
    assert.equal(later.clients, 1);
    assert.equal(await h.count('outbox'), 0);
    assert.equal(await h.count('session_activities'), 0);
    assert.equal(await h.count('users', 'id = $1', [userId]), 1);
  });

  it('two instances purging at once neither fail nor delete a row twice', async () => {
    for (let i = 0; i < 30; i++) await h.browser().call('PUT', '/client');
    const stale = await h.count('clients');
    h.clock.advance(2 * DAY);
    const twin = await h.twin();
    try {
      const [a, b] = await Promise.all([purgeExpired(h.db, h.clock.now), purgeExpired(twin.db, h.clock.now)]);
      assert.equal(a.clients! + b.clients!, stale);
      assert.equal(await h.count('clients'), 0);
    } finally {
      await twin.close();
    }
  });

  it('the scheduled job and `npm run identity -- purge` run the same purge', async () => {
    await h.browser().call('PUT', '/client');
    h.clock.advance(2 * DAY);
    const deleted = await h.identity.retention.runOnce();
    assert.equal(deleted.clients, 1);
    const out: string[] = [];
    const status = await runCli(['purge'], {
      env: {},
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      openDatabase: async () => ({ db: h.db, close: async () => {} }),
    });
    assert.equal(status, 0, out.join('\n'));
    assert.match(out.join('\n'), /clients: 0/);
  });
});
