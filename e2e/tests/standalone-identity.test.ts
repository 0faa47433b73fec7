import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createIdentity, identityConfigFromEnv, type Identity } from '@app/identity';
import { launchBrowser, newContext } from '../support/browser.ts';
import { startServer, removeDataDir, freePort, type TestServer } from '../support/server.ts';
import { sessionToken, signUp, uniqueEmail } from '../support/flows.ts';
import { openDiagnostics } from '../support/diagnostics.ts';

/**
 * The provider as a separate service and the product in "hosted" mode pointed at it, as it would be at
 * hosted Clerk: only environment variables differ, no code.
 */
describe('the identity provider on its own, used as a hosted instance', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-idp-'));
  let identity: Identity | undefined;
  let idpApp: ReturnType<typeof Fastify> | undefined;
  let product: TestServer | undefined;
  after(async () => {
    await product?.stop();
    await idpApp?.close();
    await identity?.close();
    removeDataDir(dataDir);
  });

  test('sign up through the Clerk UI and call the product API', async () => {
    const productPort = await freePort();
    const productOrigin = `http://localhost:${productPort}`;
    const config = identityConfigFromEnv({
      PUBLIC_URL: productOrigin,
      DATA_DIR: dataDir,
      TRUST_PROXY: 'true',
    });
    identity = await createIdentity(config, { dataDir: join(dataDir, 'pglite') });
    idpApp = Fastify({ trustProxy: true });
    await identity.register(idpApp, { bapiPath: '/__clerk_backend' });
    const idpOrigin = await idpApp.listen({ port: 0, host: '127.0.0.1' });

    product = await startServer({
      port: productPort,
      env: {
        CLERK_PUBLISHABLE_KEY: identity.publishableKey,
        CLERK_SECRET_KEY: identity.secretKey,
        CLERK_API_URL: `${idpOrigin}/__clerk_backend`,
        CLERK_PROXY_URL: '/__clerk',
        FAPI_PROXY_TARGET: `${idpOrigin}/__clerk`,
      },
    });
    const appConfig = (await (await fetch(`${product.origin}/app-config.json`)).json()) as {
      identity: string;
    };
    assert.equal(appConfig.identity, 'hosted');
    assert.equal(product.app.identity, null, 'the product did not start an embedded provider');

    const browser = await launchBrowser();
    try {
      const page = await (await newContext(browser)).newPage();
      // Codes are read from the provider's own outbox.
      await signUp(page, product.origin, uniqueEmail('standalone'), undefined, idpOrigin);
      await openDiagnostics(page);
      const res = await fetch(`${product.origin}/api/me`, {
        headers: { authorization: `Bearer ${await sessionToken(page)}` },
      });
      assert.equal(res.status, 200);
    } finally {
      await browser.close();
    }
  });
});
