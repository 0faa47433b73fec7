import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import { decodeJwt } from 'jose';
import { SessionActivityBatch } from '../src/sessions/activity-batch.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness } from './support/harness.ts';
import { activate, addMember, createOrganization, newMember, type Member } from './support/organizations.ts';

const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Token minting writes nothing itself: the session's use waits in memory (sessions/activity-batch.ts) and
 * is written in bulk. These check that it is written (periodically, on demand, on stop), that nothing a
 * check depends on waits with it, and that a write never waits on a row another transaction holds.
 */
forEachBackend('session activity written in bulk', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  const mint = (m: Member, form: Record<string, string> = {}) =>
    m.browser.post(`/client/sessions/${m.sessionId}/tokens`, form);

  async function stored(m: Member) {
    const [row] = await h.db.query<{
      session_last_active: Date;
      user_last_active: Date | null;
      ip_address: string | null;
      browser_name: string | null;
    }>(
      `SELECT s.last_active_at AS session_last_active, u.last_active_at AS user_last_active,
              a.ip_address, a.browser_name
       FROM sessions s JOIN users u ON u.id = s.user_id
       LEFT JOIN session_activities a ON a.session_id = s.id WHERE s.id = $1`,
      [m.sessionId],
    );
    return row!;
  }

  it("a token records the session's use in memory; the write moves session, user and device on", async () => {
    const m = await newMember(h, 'activity');
    const before = await stored(m);
    h.clock.advance(120);
    const res = await mint(m);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const used = h.clock.now;
    assert.deepEqual(h.identity.deps.activity.pendingLastActiveAt(m.sessionId), used);
    assert.deepEqual((await stored(m)).session_last_active, before.session_last_active, 'not written yet');

    await h.identity.deps.activity.flush();
    const after = await stored(m);
    assert.deepEqual(after.session_last_active, used);
    assert.deepEqual(after.user_last_active, used);
    assert.equal(h.identity.deps.activity.pendingLastActiveAt(m.sessionId), null);
  });

  it('the device and address of the latest use are written, and an older use never moves a time back', async () => {
    const m = await newMember(h, 'activity-device');
    h.clock.advance(60);
    await mint(m);
    await h.identity.deps.activity.flush();
    const first = await stored(m);
    // A use recorded late with an earlier time (another process's batch) changes nothing.
    h.identity.deps.activity.record({
      sessionId: m.sessionId,
      userId: m.userId,
      at: new Date(h.clock.now.getTime() - 30_000),
      request: { ip: '198.51.100.1', userAgent: USER_AGENT },
    });
    await h.identity.deps.activity.flush();
    const later = await stored(m);
    assert.deepEqual(later.session_last_active, first.session_last_active);
    assert.deepEqual(later.user_last_active, first.user_last_active);
    assert.equal(later.ip_address, '198.51.100.1', 'where it was used from is the latest report');
    assert.equal(later.browser_name, 'Chrome');
  });

  it('written periodically without being asked, so a crash loses at most one interval', async () => {
    const m = await newMember(h, 'activity-timer');
    const batch = new SessionActivityBatch(h.db, { intervalMs: 50, maxPending: 1000 });
    batch.start();
    try {
      const at = new Date(h.clock.now.getTime() + 3_600_000);
      batch.record({ sessionId: m.sessionId, userId: m.userId, at, request: { ip: '', userAgent: null } });
      // The queue empties when a write takes it, before that write commits: wait for the row itself.
      let written = (await stored(m)).session_last_active;
      for (let i = 0; i < 200 && written.getTime() !== at.getTime(); i++) {
        await sleep(25);
        written = (await stored(m)).session_last_active;
      }
      assert.deepEqual(written, at);
      assert.equal(batch.pendingCount, 0);
    } finally {
      await batch.stop();
    }
  });

  it('stopping writes what waits (a server stopping loses no activity)', async () => {
    const m = await newMember(h, 'activity-stop');
    const batch = new SessionActivityBatch(h.db, { intervalMs: 3_600_000, maxPending: 1000 });
    batch.start();
    const at = new Date(h.clock.now.getTime() + 7_200_000);
    batch.record({ sessionId: m.sessionId, userId: m.userId, at, request: { ip: '', userAgent: null } });
    await batch.stop();
    assert.deepEqual((await stored(m)).session_last_active, at);
  });

  it('a session ended with its activity still waiting is refused at once, and the write leaves it ended', async () => {
    const m = await newMember(h, 'activity-end');
    assert.equal((await mint(m)).status, 200);
    assert.ok(h.identity.deps.activity.pendingLastActiveAt(m.sessionId));
    const ended = await m.browser.post(`/client/sessions/${m.sessionId}/end`);
    assert.equal(ended.status, 200, JSON.stringify(ended.body));
    const refused = await mint(m);
    assert.equal(refused.status, 404, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].code, 'resource_not_found');
    await h.identity.deps.activity.flush();
    const [row] = await h.db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [
      m.sessionId,
    ]);
    assert.equal(row!.status, 'ended');
  });

  it('an expired session is refused whatever use waits', async () => {
    const m = await newMember(h, 'activity-expired');
    assert.equal((await mint(m)).status, 200);
    h.clock.advance(h.config.sessionLifetimeSeconds + 1);
    assert.equal((await mint(m)).status, 404);
  });

  it('a member removed from the active organisation gets no organisation claims in the next token', async () => {
    const admin = await newMember(h, 'activity-admin');
    const org = await createOrganization(admin, 'Activity Org');
    const m = await newMember(h, 'activity-member');
    await addMember(admin, org.id, m, 'org:member');
    await activate(m, org.id);
    assert.equal(decodeJwt((await mint(m)).body.jwt).org_id, org.id);
    const removed = await admin.browser.delete(`/organizations/${org.id}/memberships/${m.userId}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    for (const form of [{}, { organization_id: org.id as string }] as Record<string, string>[]) {
      const claims = decodeJwt((await mint(m, form)).body.jwt);
      for (const claim of ['org_id', 'org_slug', 'org_role', 'org_permissions']) {
        assert.equal(claim in claims, false, `${claim} after removal`);
      }
    }
  });

  if (backend.name === 'postgres') {
    it('a write skips a session another transaction holds, and writes it next time', async () => {
      const m = await newMember(h, 'activity-locked');
      const at = new Date(h.clock.now.getTime() + 10_800_000);
      const batch = new SessionActivityBatch(h.db, { intervalMs: 3_600_000, maxPending: 1000 });
      batch.record({ sessionId: m.sessionId, userId: m.userId, at, request: { ip: '', userAgent: null } });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = h.db.transaction(async (tx) => {
        await tx.query('SELECT id FROM sessions WHERE id = $1 FOR UPDATE', [m.sessionId]);
        locked();
        await held;
      });
      await isLocked;
      await batch.flush();
      assert.equal(batch.pendingCount, 1, 'kept for the next write');
      assert.notDeepEqual((await stored(m)).session_last_active, at);
      release();
      await holder;
      await batch.flush();
      assert.equal(batch.pendingCount, 0);
      assert.deepEqual((await stored(m)).session_last_active, at);
    });
  }
});
