import { after, before } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * A real OpenID Connect provider on another loopback port (oauth2-mock-server: discovery, JWKS-signed ID
 * tokens, PKCE, nonce) playing Google through the instance settings' issuer override; its ID tokens name
 * `person`. Call it inside a `describe`, before `useSuite`: its `before` hook writes the settings file the
 * server reads when it starts (`env` of useSuite).
 */
export function useGoogleStandIn(
  name: string,
  person: Record<string, unknown>,
): { env: Record<string, string> } {
  const secretEnv = `E2E_${name.toUpperCase()}_GOOGLE_SECRET`;
  const settingsDir = mkdtempSync(join(tmpdir(), `e2e-${name}-`));
  const settingsFile = join(settingsDir, 'settings.json');
  const provider = new OAuth2Server();
  before(async () => {
    process.env[secretEnv] = 'e2e-provider-secret';
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
      Object.assign(token.payload, person);
    });
    writeFileSync(
      settingsFile,
      JSON.stringify({
        social: {
          oauth_google: {
            clientId: `e2e-${name}-client`,
            clientSecret: { env: secretEnv },
            issuer: provider.issuer.url,
          },
        },
      }),
    );
  });
  after(async () => {
    await provider.stop();
    rmSync(settingsDir, { recursive: true, force: true });
  });
  return { env: { IDENTITY_SETTINGS_FILE: settingsFile } };
}
