import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestOriginGuard } from '../src/http/origins.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import {
  CLERK_QUERY,
  FAPI,
  Harness,
  PUBLIC_URL,
  uniqueEmail,
  type Browser,
  type FapiResponse,
  type Json,
} from './support/harness.ts';

const EVIL = 'https://evil.test';
const PARTNER = 'https://partner.example.org';

describe('request origin guard (cross-site request forgery)', () => {
  const allowed = requestOriginGuard({ publicUrl: PUBLIC_URL, allowedOrigins: [PARTNER, 'not a url'] });
  const post = (headers: Record<string, string | string[]>) => allowed({ method: 'POST', headers });

  it('state-changing calls from the product origin or an allowed origin pass', () => {
    assert.equal(post({ origin: PUBLIC_URL }), true);
    assert.equal(post({ origin: PARTNER }), true);
    assert.equal(post({ origin: 'HTTP://LOCALHOST:3000' }), true, 'an origin compares case-insensitively');
    assert.equal(post({ origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' }), true);
  });

  const refused: [string, Record<string, string | string[]>][] = [
    ['another site', { origin: EVIL }],
    ['another port', { origin: 'http://localhost:3001' }],
    ['another scheme', { origin: 'https://localhost:3000' }],
    ['a subdomain of the product (not listed)', { origin: 'http://app.localhost:3000' }],
    ['a subdomain of an allowed origin (not listed)', { origin: 'https://app.partner.example.org' }],
    ['a look-alike host', { origin: 'http://localhost:3000.evil.test' }],
    ['an origin with a path', { origin: `${PUBLIC_URL}/` }],
    ['the opaque origin of a sandboxed frame or file:', { origin: 'null' }],
    ['two Origin headers', { origin: [PUBLIC_URL, EVIL] }],
    ['an empty Origin', { origin: '' }],
    ['no Origin, cross-site fetch metadata', { 'sec-fetch-site': 'cross-site' }],
    ['no Origin, same-site fetch metadata (another origin on this site)', { 'sec-fetch-site': 'same-site' }],
    [
      'an allowed-looking Sec-Fetch-Site cannot rescue a foreign Origin',
      { origin: EVIL, 'sec-fetch-site': 'same-origin' },
    ],
  ];
  for (const [name, headers] of refused) {
    it(`refuses a POST from ${name}`, () => assert.equal(post(headers), false));
  }

  it('safe methods pass from anywhere; server-to-server calls (no Origin, no fetch metadata) pass', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) {
      assert.equal(allowed({ method, headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' } }), true);
    }
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      assert.equal(allowed({ method, headers: { origin: EVIL } }), false, method);
      assert.equal(allowed({ method, headers: {} }), true, `${method} without browser headers`);
      assert.equal(allowed({ method, headers: { 'sec-fetch-site': 'same-origin' } }), true);
      assert.equal(allowed({ method, headers: { 'sec-fetch-site': 'none' } }), true);
    }
  });
});

/** Every row of every table, sorted, so a refused call can be shown to have changed nothing. */
async function snapshot(h: Harness): Promise<string> {
  const tables = await h.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  assert.ok(tables.length >= 10, 'the identity tables are visible');
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await h.db.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${name} t`);
    parts.push(
      `${name}: ${rows
        .map((r) => r.row)
        .sort()
        .join('\n')}`,
    );
  }
  return parts.join('\n\n');
}

/** A page of `origin` (or a browser request without Origin but with `headers`) riding on `victim`'s cookies. */
function forger(h: Harness, victim: Browser, origin: string | null, headers: Record<string, string> = {}) {
  const browser = h.browser({ origin, headers });
  for (const [name, value] of victim.jar) browser.jar.set(name, value);
  return browser;
}

function assertRefused(res: FapiResponse) {
  assert.equal(res.status, 403, JSON.stringify(res.body));
  assert.deepEqual(res.body, {
    errors: [
      {
        code: 'origin_invalid',
        message: 'Invalid request origin',
        long_message:
          "The request's Origin header must be this application's origin or one of its allowed origins.",
        meta: {},
      },
    ],
    clerk_trace_id: res.headers['x-request-id'],
  });
  assert.equal(res.headers['set-cookie'], undefined, 'a refused call sets no cookie');
}

forEachBackend('cross-site request forgery on the Frontend API', (backend) => {
  let h: Harness;
  let victim: Browser;
  let email: string;
  let userId: string;
  let sessionId: string;

  before(async () => {
    h = await Harness.start(backend, { config: { allowedOrigins: [PARTNER] } });
    victim = h.browser();
    email = uniqueEmail('victim');
    ({ userId, sessionId } = await signUp(h, victim, email, { firstName: 'Vic' }));
  });
  after(() => h.close());

  /** The state-changing calls a forging page would try with the victim's cookie. */
  const attacks: [string, (b: Browser) => Promise<FapiResponse>][] = [
    ['start a sign-in', (b) => b.post('/client/sign_ins', { identifier: email, password: PASSWORD })],
    ['start a sign-up', (b) => b.post('/client/sign_ups', { email_address: uniqueEmail('forged') })],
    ['sign out of every session', (b) => b.delete('/client/sessions')],
    ['end the session', (b) => b.post(`/client/sessions/${sessionId}/end`)],
    ['create an organisation', (b) => b.post('/organizations', { name: 'Forged Org' })],
    ['update the profile', (b) => b.patch('/me', { first_name: 'Pwned' })],
    ['add an email address', (b) => b.post('/me/email_addresses', { email_address: uniqueEmail('pwned') })],
    ['delete the account', (b) => b.delete('/me')],
    ['mint a session token (with the forger as azp)', (b) => b.post(`/client/sessions/${sessionId}/tokens`)],
    ['create a client', (b) => b.call('PUT', '/client')],
  ];

  const forgers: [string, (v: Browser) => Browser][] = [
    ['another origin', (v) => forger(h, v, EVIL)],
    ['a look-alike origin', (v) => forger(h, v, 'http://localhost:3000.evil.test')],
    ['a sandboxed frame (Origin: null)', (v) => forger(h, v, 'null')],
    ['a subdomain', (v) => forger(h, v, 'http://app.localhost:3000')],
    [
      'no Origin but Sec-Fetch-Site: cross-site',
      (v) => forger(h, v, null, { 'sec-fetch-site': 'cross-site' }),
    ],
  ];

  for (const [who, make] of forgers) {
    it(`from ${who}, every state-changing call is 403 origin_invalid and changes nothing`, async () => {
      const before = await snapshot(h);
      const attacker = make(victim);
      for (const [what, attack] of attacks) {
        const res = await attack(attacker);
        assert.equal(res.status, 403, `${what}: ${JSON.stringify(res.body)}`);
        assertRefused(res);
      }
      assert.equal(await snapshot(h), before, 'no row changed, not even a rate-limit counter');
    });
  }

  it('real PATCH, PUT and DELETE requests (not tunnelled through POST) are refused the same way', async () => {
    const before = await snapshot(h);
    const cookie = [...victim.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const [method, path] of [
      ['PATCH', '/me'],
      ['DELETE', '/me'],
      ['DELETE', '/client/sessions'],
      ['PUT', '/client'],
    ] as const) {
      const res = await h.app.inject({
        method,
        url: `${FAPI}/v1${path}?${new URLSearchParams(CLERK_QUERY)}`,
        headers: { origin: EVIL, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: method === 'PATCH' ? 'first_name=Pwned' : undefined,
      });
      assertRefused({
        status: res.statusCode,
        headers: res.headers,
        body: res.json(),
        setCookies: new Map(),
      });
    }
    // A POST that names a safe method still goes through the guard (it is a POST on the wire).
    const tunnelledGet = await forger(h, victim, EVIL).post('/client', {}, { _method: 'GET' });
    assertRefused(tunnelledGet);
    assert.equal(await snapshot(h), before);
  });

  it('a refused upload is turned away before its body is read', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: `${FAPI}/v1/me/profile_image?${new URLSearchParams(CLERK_QUERY)}`,
      headers: {
        origin: EVIL,
        cookie: [...victim.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'content-type': 'multipart/form-data; boundary=x',
      },
      payload: 'not even multipart',
    });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().errors[0].code, 'origin_invalid');
  });

  it('reads (GET) from another origin still answer, and the victim is still signed in', async () => {
    const res = await forger(h, victim, EVIL, { 'sec-fetch-site': 'cross-site' }).get('/client');
    assert.equal(res.status, 200);
    const own = await victim.get('/client');
    assert.equal(own.body.response.last_active_session_id, sessionId);
    const session = own.body.response.sessions.find((s: Json) => s.id === sessionId);
    assert.equal(session.status, 'active');
    assert.equal(session.user.first_name, 'Vic');
    assert.equal(await h.count('organization_memberships', 'user_id = $1', [userId]), 0);
  });

  it('an email link opened from a mail client (a cross-site GET navigation) still lands', async () => {
    const res = await forger(h, h.browser(), null, { 'sec-fetch-site': 'cross-site' }).get('/verify', {
      token: 'not-a-real-token',
    });
    assert.equal(res.status, 303, 'a redirect, not origin_invalid');
    assert.match(String(res.headers.location), /^http:\/\/localhost:3000\/sign-in\?__clerk_status=failed/);
  });

  it('the same calls from the product origin (and from an allowed origin) succeed', async () => {
    const updated = await victim.patch('/me', { first_name: 'Victoria' });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.response.first_name, 'Victoria');

    const partner = forger(h, victim, PARTNER);
    const org = await partner.post('/organizations', { name: 'Partner Org' });
    assert.equal(org.status, 200, JSON.stringify(org.body));
    assert.equal(await h.count('organization_memberships', 'user_id = $1', [userId]), 1);

    const token = await victim.post(`/client/sessions/${sessionId}/tokens`);
    assert.equal(token.status, 200);

    const signedOut = await victim.delete('/client/sessions');
    assert.equal(signedOut.status, 200, JSON.stringify(signedOut.body));
    assert.equal(await h.count('sessions', "id = $1 AND status = 'active'", [sessionId]), 0);
  });

  it('server-to-server calls without Origin or fetch metadata keep working (the CLI, curl, tests)', async () => {
    const plain = h.browser({ origin: null });
    const res = await plain.post('/client/sign_ins', { identifier: email });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
});

forEachBackend('cross-site request forgery with development keys', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { instanceKeys: 'development' } });
  });
  after(() => h.close());

  it("the dev-browser token (clerk-js's __clerk_db_jwt cookie on the app origin) is no way around the guard", async () => {
    const page = h.browser();
    const token: string = (await page.post('/dev_browser')).body.id;
    assert.ok(token);
    page.jar.set('__clerk_db_jwt', token);
    const email = uniqueEmail('dev-victim');
    const started = await page.post('/client/sign_ups', { email_address: email, password: PASSWORD });
    assert.equal(started.status, 200, JSON.stringify(started.body));

    const before = await snapshot(h);
    const attacker = forger(h, page, EVIL);
    assertRefused(await attacker.post('/client/sign_ins', { identifier: email }));
    assertRefused(await attacker.post('/client/sign_ins', { identifier: email }, { __clerk_db_jwt: token }));
    assertRefused(await attacker.post('/dev_browser'));
    assert.equal(await snapshot(h), before);

    // The page itself goes on with the same token.
    const named = await page.patch(`/client/sign_ups/${started.body.response.id}`, { first_name: 'Dev' });
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.equal(named.body.response.first_name, 'Dev');
  });
});
