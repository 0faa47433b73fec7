import { after, before } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * A real OpenID Connect provider on another loopback port (oauth2-mock-server: discovery, JWKS-signed ID
 * tokens, PKCE, nonce) playing Google through the instance settings' issuer override; its ID tokens name
 * `person`. Call it inside a `describe`, before `useSuite`: its `before` hook writes the settings file the
 * server reads when it starts (`env` of useSuite).
 *
 * `oneTap`: the provider also offers Google One Tap, and `googleIdToken` makes the credential Google's
 * prompt would hand the page: an ID token for the instance's client, signed by the stand-in's key.
 */
export function useGoogleStandIn(
  name: string,
  person: Record<string, unknown>,
  opts: { oneTap?: boolean } = {},
): {
  env: Record<string, string>;
  clientId: string;
  /** The stand-in's issuer URL (known once its `before` hook ran). */
  readonly issuer: string;
  googleIdToken(claims: Record<string, unknown>): Promise<string>;
} {
  const clientId = `e2e-${name}-client`;
  const secretEnv = `E2E_${name.toUpperCase()}_GOOGLE_SECRET`;
  const settingsDir = mkdtempSync(join(tmpdir(), `e2e-${name}-`));
  const settingsFile = join(settingsDir, 'settings.json');
  const provider = new OAuth2Server();
  // Its own HTTP server rather than provider.start(): provider.stop() waits for the browser's idle keep-alive
  // connections to time out (≈ 70 s a file), where this one closes them.
  const http = createServer(provider.service.requestHandler);
  before(async () => {
    process.env[secretEnv] = 'e2e-provider-secret';
    await provider.issuer.keys.generate('RS256');
    await new Promise<void>((resolve, reject) => http.listen(0, '127.0.0.1', resolve).once('error', reject));
    provider.issuer.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
      Object.assign(token.payload, person);
    });
    writeFileSync(
      settingsFile,
      JSON.stringify({
        social: {
          oauth_google: {
            clientId,
            clientSecret: { env: secretEnv },
            issuer: provider.issuer.url,
            ...(opts.oneTap ? { oneTap: true } : {}),
          },
        },
      }),
    );
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    rmSync(settingsDir, { recursive: true, force: true });
  });
  return {
    env: { IDENTITY_SETTINGS_FILE: settingsFile },
    clientId,
    get issuer() {
      return provider.issuer.url!;
    },
    googleIdToken: (claims) =>
      provider.issuer.buildToken({
        scopesOrTransform: (_header, payload) =>
          Object.assign(payload, { aud: clientId, jti: randomUUID() }, claims),
      }),
  };
}
