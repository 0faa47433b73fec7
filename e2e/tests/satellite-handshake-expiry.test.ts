import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backendClient, createOrganizationFor, createUser, type TestUser } from '../support/backend.ts';
import { signInUntilSettled } from '../support/flows.ts';
import { openSatellite, startDeclaredSatellite, type RunningSatellite } from '../support/satellite.ts';
import { useSuite } from '../support/suite.ts';

// A test setting, not a long wait: session tokens of this server live 20 s (session-refresh.test.ts too).
const TOKEN_LIFETIME_MS = 20_000;

/** A session token's `exp` (seconds). */
function expiresAt(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    exp: number;
  };
  return payload.exp;
}

// Issue #31: the satellite's server (@clerk/express 1.7.26, unmodified) whose session cookie has expired
// sends the page through the Frontend API's /v1/client/handshake and sees the user again, nothing typed,
// with either kind of keys.
for (const keys of ['production', 'development'] as const) {
  describe(`the example satellite after its session token expires (the handshake, ${keys} keys)`, () => {
    const suite = useSuite({
      env: {
        IDENTITY_KEYS: keys,
        IDENTITY_TEST_SESSION_TOKEN_TTL_SECONDS: String(TOKEN_LIFETIME_MS / 1000),
      },
    });
    let satellite: RunningSatellite;
    let user: TestUser;
    let orgId: string;

    before(async () => {
      satellite = await startDeclaredSatellite(suite.server);
      user = await createUser(suite.server, `satellite-expiry-${keys}`);
      orgId = (await createOrganizationFor(backendClient(suite.server), user, 'Expiry team')).id;
    });
    after(async () => {
      await satellite?.close();
    });

    test('past the token’s lifetime, a satellite page goes through the handshake and its server sees the user', async () => {
      const { page, context } = await suite.newPage();
      await signInUntilSettled(page, suite.server.origin, user.email);
      assert.deepEqual(await openSatellite(page, satellite.origin), { userId: user.id, orgId });
      const sessionCookie = async () =>
        (await context.cookies(satellite.origin)).find((c) => c.name === '__session')?.value ?? '';
      const before = await sessionCookie();
      assert.ok(before, 'the satellite holds a session cookie');

      // No page of either origin stays open (clerk-js would refresh the cookie): the token just expires.
      await page.goto('about:blank');
      await page.waitForTimeout(TOKEN_LIFETIME_MS + 5_000);

      assert.ok(expiresAt(before) * 1000 < Date.now(), 'the satellite’s session token has expired');

      const handshakes: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.endsWith('/v1/client/handshake')) handshakes.push(r.url());
      });
      const landed = await page.goto(`${satellite.origin}/?lang=en`);
      assert.equal(landed?.status(), 200);
      await page.getByTestId('user-id').waitFor();
      assert.ok(handshakes.length > 0, 'the expired token sent the page through the handshake');
      // @clerk/backend 2.10.1 sends every page navigation of a satellite through a sync before it looks at
      // the token: with production keys the handshake itself (its reason says so); with development keys the
      // product's /sign-in, whose dev-browser token then takes the page through the handshake. The expired
      // token is replaced there.
      const reason = new URL(handshakes[0]!).searchParams.get('__clerk_hs_reason');
      assert.equal(reason, keys === 'production' ? 'satellite-needs-syncing' : 'dev-browser-sync');
      // Its server and its clerk-js agree.
      assert.deepEqual(await openSatellite(page, satellite.origin), { userId: user.id, orgId });
      const after = await sessionCookie();
      assert.ok(after && after !== before, 'the handshake set a fresh session cookie');
      assert.ok(expiresAt(after) * 1000 > Date.now(), 'a valid one');
    });
  });
}
