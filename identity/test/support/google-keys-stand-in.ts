import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

/**
 * Google's side of One Tap on this machine: an issuer with OpenID Connect discovery and a JWKS holding
 * one RS256 key (made by jose), served by a bare HTTP server on a free loopback port. `sign` makes ID
 * tokens with that key, as Google's prompt hands them to the page; `foreignKey` signs the same way with
 * a key the JWKS does not hold (a forged signature under the real key's id).
 */
export interface GoogleKeysStandIn {
  issuer: string;
  jwksUri: string;
  /** How many times the JWKS was asked for. */
  jwksRequests(): number;
  /** An ID token (RS256, the stand-in's key id) with the standard claims filled in from `claims`. */
  sign(
    claims: JWTPayload,
    opts?: { key?: 'own' | 'foreign'; header?: Record<string, unknown> },
  ): Promise<string>;
  stop(): Promise<void>;
}

export async function startGoogleKeysStandIn(): Promise<GoogleKeysStandIn> {
  const own = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const kid = 'stand-in-key-1';
  const jwk = { ...(await exportJWK(own.publicKey)), kid, alg: 'RS256', use: 'sig' };
  let jwksRequests = 0;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/.well-known/openid-configuration') {
      json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    } else if (path === '/jwks') {
      jwksRequests++;
      json({ keys: [jwk] });
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    jwksRequests: () => jwksRequests,
    async sign(claims, opts = {}) {
      const key: CryptoKey = opts.key === 'foreign' ? foreign.privateKey : own.privateKey;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iat: now, exp: now + 3600, iss: issuer, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT', ...opts.header })
        .sign(key);
    },
    stop: () =>
      new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
