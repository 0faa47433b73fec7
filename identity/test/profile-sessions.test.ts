import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { assertError } from './support/organizations.ts';
import { signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Json } from './support/harness.ts';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

forEachBackend('active devices (/me/sessions)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  it('lists each signed-in session with its browser, OS, device, IP and last activity', async () => {
    const email = uniqueEmail('devices');
    const laptop = h.browser({ ip: '203.0.113.7', headers: { 'user-agent': CHROME_LINUX } });
    const { sessionId: laptopSession } = await signUp(h, laptop, email);
    h.clock.advance(5);
    const phone = h.browser({ ip: '198.51.100.9', headers: { 'user-agent': SAFARI_IPHONE } });
    const { sessionId: phoneSession } = await signInWithPassword(phone, email);

    const res = await laptop.get('/me/sessions/active');
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body), 'a bare array, as SessionWithActivities.retrieve reads it');
    const byId = new Map<string, Json>(res.body.map((s: Json) => [s.id, s]));
    assert.deepEqual([...byId.keys()], [phoneSession, laptopSession], 'most recently active first');
    const phoneJson = byId.get(phoneSession)!;
    assert.equal(phoneJson.user, null);
    assert.deepEqual(
      { ...phoneJson.latest_activity, id: undefined },
      {
        object: 'session_activity',
        id: undefined,
        device_type: 'iPhone',
        is_mobile: true,
        browser_name: 'Safari',
        browser_version: '17.0',
        ip_address: '198.51.100.9',
        city: null,
        country: null,
      },
    );
    const laptopActivity = byId.get(laptopSession)!.latest_activity;
    assert.equal(laptopActivity.device_type, 'Linux');
    assert.equal(laptopActivity.is_mobile, false);
    assert.equal(laptopActivity.browser_name, 'Chrome');
    assert.equal(laptopActivity.browser_version, '140.0.0.0');
    assert.equal(laptopActivity.ip_address, '203.0.113.7');
    const [row] = await h.db.query<{ os_name: string }>(
      'SELECT os_name FROM session_activities WHERE session_id = $1',
      [phoneSession],
    );
    assert.equal(row!.os_name, 'iOS');
  });

  it('a touch records where the session is used from now, and its last activity', async () => {
    const browser = h.browser({ headers: { 'user-agent': CHROME_LINUX } });
    const { sessionId } = await signUp(h, browser, uniqueEmail('touch'));
    h.clock.advance(30);
    const moved = h.browser({ ip: '192.0.2.44', headers: { 'user-agent': SAFARI_IPHONE } });
    for (const [k, v] of browser.jar) moved.jar.set(k, v);
    assert.equal((await moved.post(`/client/sessions/${sessionId}/touch`, {})).status, 200);
    const [session] = (await moved.get('/me/sessions/active')).body;
    assert.equal(session.latest_activity.ip_address, '192.0.2.44');
    assert.equal(session.latest_activity.device_type, 'iPhone');
    assert.equal(session.last_active_at, h.clock.now.getTime());
  });

  it('without a User-Agent the device is unknown (the UI then says "Desktop device")', async () => {
    const browser = h.browser();
    await signUp(h, browser, uniqueEmail('noua'));
    const [session] = (await browser.get('/me/sessions/active')).body;
    assert.equal(session.latest_activity.browser_name, null);
    assert.equal(session.latest_activity.is_mobile, false);
  });

  it('revoking another device ends that session there; the other user’s sessions are not found', async () => {
    const email = uniqueEmail('revoke');
    const here = h.browser();
    const { sessionId: hereSession } = await signUp(h, here, email);
    const there = h.browser();
    const { sessionId: thereSession } = await signInWithPassword(there, email);

    const res = await here.post(`/me/sessions/${thereSession}/revoke`, {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.id, thereSession);
    assert.equal(res.body.response.status, 'revoked');
    assert.deepEqual(
      res.body.client.sessions.map((s: Json) => s.id),
      [hereSession],
      'this browser stays signed in',
    );
    assertError(
      await there.post(`/client/sessions/${thereSession}/tokens`, { organization_id: '' }),
      404,
      'resource_not_found',
    );
    assert.deepEqual((await there.get('/client')).body.response.sessions, []);
    assert.deepEqual(
      (await here.get('/me/sessions/active')).body.map((s: Json) => s.id),
      [hereSession],
    );
    assertError(await here.post(`/me/sessions/${thereSession}/revoke`, {}), 404, 'resource_not_found');

    const stranger = h.browser();
    const { sessionId: strangerSession } = await signUp(h, stranger, uniqueEmail('stranger'));
    assertError(await here.post(`/me/sessions/${strangerSession}/revoke`, {}), 404, 'resource_not_found');
    assert.equal(
      (await stranger.post(`/client/sessions/${strangerSession}/tokens`, { organization_id: '' })).status,
      200,
    );
  });

  it('revoking this browser’s own session signs it out here', async () => {
    const browser = h.browser();
    const { sessionId } = await signUp(h, browser, uniqueEmail('self'));
    const res = await browser.post(`/me/sessions/${sessionId}/revoke`, {});
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.client.sessions, []);
    assert.equal(res.body.client.last_active_session_id, null);
    assert.equal(res.setCookies.get('__client_uat')?.value, '0');
  });

  it('a session revoked while its browser switches organisation stays revoked (no write of `active` back)', async () => {
    const email = uniqueEmail('race');
    await signUp(h, h.browser(), email);
    const phone = h.browser();
    const { sessionId } = await signInWithPassword(phone, email);
    const created = await phone.post('/organizations', { name: 'Race Org' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const [before] = await h.db.query<{ last_active_organization_id: string | null }>(
      'SELECT last_active_organization_id FROM sessions WHERE id = $1',
      [sessionId],
    );
    const switchTo = before!.last_active_organization_id ? '' : (created.body.response.id as string);

    // Another device's revocation is written and held uncommitted while this browser's switch reads the
    // session (still active to it) and waits on the row; then the revocation commits.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    const revoking = h.db.transaction(async (tx) => {
      await tx.query(`UPDATE sessions SET status = 'revoked' WHERE id = $1`, [sessionId]);
      await held;
    });
    const switching = phone.post(`/client/sessions/${sessionId}/touch`, { active_organization_id: switchTo });
    if (backend.name === 'postgres') {
      // PostgreSQL: until the switch's write waits on the revocation's lock.
      for (let i = 0; i < 200; i++) {
        const [waiting] = await h.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (waiting!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } else {
      // PGlite runs one transaction at a time: the switch waits for the revocation's end whatever it does.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    commit();
    await revoking;
    assertError(await switching, 404, 'resource_not_found');
    const [after] = await h.db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [
      sessionId,
    ]);
    assert.equal(after!.status, 'revoked');
  });
});

forEachBackend('active devices behind a reverse proxy (TRUST_PROXY)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { trustProxy: 1 } });
  });
  after(() => h.close());

  it('the IP is the forwarded client address', async () => {
    const browser = h.browser({ ip: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.50' } });
    await signUp(h, browser, uniqueEmail('proxied'));
    const [session] = (await browser.get('/me/sessions/active')).body;
    assert.equal(session.latest_activity.ip_address, '203.0.113.50');
  });
});
