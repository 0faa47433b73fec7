import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import * as oidc from 'openid-client';
import type { Backend } from './backends.ts';
import { FAPI, type Harness, type Json } from './harness.ts';
import { listeningProvider } from './listening-provider.ts';

/**
 * RFC 7591 dynamic client registration for the OAuth provider tests (docs/oauth-provider.md): the
 * registered clients' redirect and logo, the instance setting that turns registration on, the request.
 */

export const REDIRECT = 'http://127.0.0.1:9/callback';
export const LOGO = 'https://tools.example.com/logo.png';
/** openid-client's leave to speak plain HTTP to the provider on the loopback. */
/** An authorization request with PKCE (S256) and a state, as a relying party builds it. */
export async function pkceAuthorizationUrl(
  config: oidc.Configuration,
  scope: string,
  redirectUri = REDIRECT,
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url, verifier, state };
}

export const insecure = { execute: [oidc.allowInsecureRequests] };

/** Sets the instance settings' `oauthProvider` slice (the rest as it is). */
export const setOAuthProvider = (h: Harness, oauthProvider: Json) =>
  h.identity.settings.set({ ...h.identity.settings.settings, oauthProvider });

export type ListeningProvider = Awaited<ReturnType<typeof listeningProvider>>;

/**
 * The suite's listening provider, started before its tests (with `oauthProvider` as its setting when
 * given: registration is off by default) and closed after them; its fields are there from the first test.
 */
export function providerOfSuite(backend: Backend, oauthProvider?: Json): ListeningProvider {
  const provider = {} as ListeningProvider;
  before(async () => {
    Object.assign(provider, await listeningProvider(backend));
    if (oauthProvider) await setOAuthProvider(provider.h, oauthProvider);
  });
  after(() => provider.h?.close());
  return provider;
}

/** POST /oauth/register, from `address` when given (Fastify's inject: the address is the client's). */
export const postRegistration = (
  h: Harness,
  body: unknown,
  address?: string,
  contentType = 'application/json',
) =>
  h.app.inject({
    method: 'POST',
    url: `${FAPI}/oauth/register`,
    ...(address === undefined ? {} : { remoteAddress: address }),
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** Registers a client, which must succeed: the registration response. */
export async function register(h: Harness, body: Json): Promise<Json> {
  const res = await postRegistration(h, body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as Json;
}
