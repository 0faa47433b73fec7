import { createClerkClient, type ClerkClient } from '@clerk/backend';
import type { Backend } from './backends.ts';
import { BAPI, FAPI, Harness } from './harness.ts';
import { freePort } from './wire-browser.ts';

/**
 * The provider listening on a loopback port whose origin is its public URL (what redirects, the OAuth
 * issuer and discovery documents are built from), with a `@clerk/backend` client on its Backend API:
 * for the tests whose clients are real HTTP libraries (openid-client), not Fastify's inject.
 */
export async function listeningProvider(
  backend: Backend,
): Promise<{ h: Harness; origin: string; issuer: string; clerk: ClerkClient }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const h = await Harness.start(backend, { config: { publicUrl: origin } });
  await h.app.listen({ host: '127.0.0.1', port });
  const clerk = createClerkClient({
    apiUrl: `${origin}${BAPI}`,
    secretKey: h.identity.secretKey,
    publishableKey: h.identity.publishableKey,
  });
  return { h, origin, issuer: `${origin}${FAPI}`, clerk };
}
