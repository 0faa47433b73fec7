import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createIdentity, identityConfigFromEnv } from '@app/identity';
import { mintSessionToken } from '../../identity/src/instance/session-token.ts';
import { bareTokenInput } from '../../identity/test/support/token-input.ts';
import { forEachBackend } from '../../identity/test/support/backends.ts';
import { FORGERIES, parts, type ForgeryContext } from '../../identity/test/support/forged-tokens.ts';
import {
  sessionToken,
  signUpWithOrganization,
  startEmbeddedServer,
  type EmbeddedServer,
  type User,
} from './support/embedded-server.ts';

/**
 * The product API behind @clerk/backend on the real server with the embedded provider: a genuine session
 * token, obtained as clerk-js obtains it, is accepted; every forgery of it is 401 in the product's shape.
 */
forEachBackend('product API: forged session tokens', (backend) => {
  let server: EmbeddedServer;
  let victimIds: User & { organizationId: string };
  let ctx: Omit<ForgeryContext, 'genuine'>;

  before(async () => {
    server = await startEmbeddedServer(
      backend.name === 'postgres' ? { databaseUrl: process.env.TEST_DATABASE_URL } : {},
    );
    victimIds = await signUpWithOrganization(server, 'victim', 'Victim Org');
    const other = await signUpWithOrganization(server, 'other', 'Other Org');

    // A second, independent provider for the same product URL: its own database and signing key.
    const config = identityConfigFromEnv({ PUBLIC_URL: server.origin, IDENTITY_MODE: 'development' });
    const otherInstance = await createIdentity({ ...config, secretKeyFile: null }, { memory: true });
    const otherInstanceToken = await mintSessionToken(
      otherInstance.deps.tokens,
      bareTokenInput({
        sessionId: victimIds.sessionId,
        userId: victimIds.userId,
        azp: server.origin,
        now: new Date(),
      }),
    );
    await otherInstance.close();

    ctx = {
      instanceKey: server.app.identity!.deps.signingKey,
      otherInstanceToken,
      other: { userId: other.userId, sessionId: other.sessionId, organizationId: other.organizationId },
    };
  });
  after(() => server?.stop());

  const me = (token: string) =>
    fetch(`${server.origin}/api/me`, { headers: { authorization: `Bearer ${token}` } });

  async function assertAccepted(token: string) {
    const res = await me(token);
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as { userId: string; sessionId: string; orgId: string; orgRole: string };
    assert.equal(body.userId, victimIds.userId);
    assert.equal(body.sessionId, victimIds.sessionId);
    assert.equal(body.orgId, victimIds.organizationId);
    assert.equal(body.orgRole, 'org:admin');
  }

  it('the genuine token passes, with its organisation and azp = the product origin', async () => {
    const token = await sessionToken(victimIds, victimIds.organizationId);
    assert.equal(parts(token).payload.azp, server.origin);
    await assertAccepted(token);
  });

  for (const forgery of FORGERIES) {
    it(`401: ${forgery.name}`, async () => {
      const genuine = await sessionToken(victimIds, victimIds.organizationId);
      await assertAccepted(genuine);
      const forged = await forgery.forge({ ...ctx, genuine });
      assert.notEqual(forged, genuine);
      const res = await me(forged);
      assert.equal(res.status, 401, `${forgery.name}: ${await res.clone().text()}`);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      const body = (await res.json()) as { errors: { code: string; message: string }[] };
      assert.equal(body.errors.length, 1);
      assert.equal(body.errors[0]!.code, 'unauthenticated');
      // Refused for the reason @clerk/backend itself gives (identity/test/security-tokens.test.ts).
      assert.match(body.errors[0]!.message, forgery.because, forgery.name);
      // The request id as Clerk's trace id, and nothing about the user.
      assert.deepEqual(Object.keys(body), ['errors', 'clerk_trace_id'], 'nothing about the user leaks');
    });
  }
});
