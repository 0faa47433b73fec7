import { OAuth2Server } from 'oauth2-mock-server';

/**
 * A real OpenID Connect provider on this machine (oauth2-mock-server: discovery, JWKS-signed ID tokens,
 * PKCE, nonce) on a free loopback port, standing in for Google and the others. `sign` shapes each token's
 * payload as it is signed: who signs in, and how a test spoils it.
 */
export async function startOidcStandIn(
  sign: (payload: Record<string, unknown>) => void,
): Promise<OAuth2Server> {
  const provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) =>
    sign(token.payload),
  );
  return provider;
}
