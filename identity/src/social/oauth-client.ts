import * as client from 'openid-client';
import { isLoopbackHost } from '../dev/loopback.ts';
import { secretFromEnv } from '../instance/settings/schema.ts';
import type { SocialProvider } from './providers.ts';

/** How long a provider may take to answer discovery, the token exchange or userinfo. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** What a provider told us about the person who came back from it. */
export interface ExternalIdentity {
  strategy: string;
  providerUserId: string;
  email: string | null;
  /** Only an explicit assertion by the provider counts; an account is never linked on anything less. */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  imageUrl: string | null;
  approvedScopes: string;
}

/** The tokens a provider issued with an identity (connected accounts keep them, sealed). */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  /** `expires_in` of the token response (seconds from when it was answered), if the provider said. */
  expiresInSeconds: number | null;
  /** The scopes the provider says it granted, when it says (`scope` of the token response). */
  scope: string | null;
}

// The tokens of each identity exchangeCode answered, beside it rather than in it: an ExternalIdentity is
// kept on sign-ins and sign-ups (their `external_identity`) and must never carry a token there.
const issuedTokens = new WeakMap<ExternalIdentity, ProviderTokens>();

/** The tokens issued with `identity` by the code exchange that produced it (none for any other object). */
export const providerTokensOf = (identity: ExternalIdentity): ProviderTokens | undefined =>
  issuedTokens.get(identity);

/** What a token endpoint answered, as the tokens to keep. */
function tokensOf(response: client.TokenEndpointResponse): ProviderTokens {
  return {
    accessToken: response.access_token,
    refreshToken: typeof response.refresh_token === 'string' ? response.refresh_token : null,
    expiresInSeconds: typeof response.expires_in === 'number' ? response.expires_in : null,
    scope: typeof response.scope === 'string' ? response.scope : null,
  };
}

/** A new access token for a refresh token (openid-client's refresh_token grant). */
export async function refreshProviderTokens(
  provider: SocialProvider,
  refreshToken: string,
): Promise<ProviderTokens> {
  const config = await providerConfiguration(provider);
  const tokens = tokensOf(await client.refreshTokenGrant(config, refreshToken));
  // A provider that does not rotate refresh tokens answers none: the one we have stays good.
  return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
}

/** The secrets of one redirect: sent to the provider (state, nonce, PKCE challenge) and kept to check its answer. */
export interface RedirectSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

// Discovery is done once per provider settings object: a settings change replaces the object, and with it
// the cached configuration. A failed discovery is not kept, so the next sign-in tries again.
const configurations = new WeakMap<SocialProvider['source'], Promise<client.Configuration>>();

export function providerConfiguration(provider: SocialProvider): Promise<client.Configuration> {
  const cached = configurations.get(provider.source);
  if (cached) return cached;
  const made = makeConfiguration(provider);
  configurations.set(provider.source, made);
  made.catch(() => configurations.delete(provider.source));
  return made;
}

async function makeConfiguration(provider: SocialProvider): Promise<client.Configuration> {
  const secret = secretFromEnv(provider.clientSecret);
  const urls = [
    provider.issuer,
    provider.authorizationEndpoint,
    provider.tokenEndpoint,
    provider.userinfoEndpoint,
    provider.jwksUri,
  ].filter((u): u is string => u !== undefined);
  // Plain http only for a stand-in on this machine (tests, local development); a real provider is https.
  const insecure = urls.some((u) => new URL(u).protocol === 'http:');
  if (insecure && !urls.every((u) => isLoopbackHost(new URL(u).hostname.replace(/^\[|\]$/g, '')))) {
    throw new Error(`${provider.strategy}: plain http endpoints are only allowed on this machine.`);
  }
  const execute = insecure ? [client.allowInsecureRequests] : [];
  let config: client.Configuration;
  if (provider.authorizationEndpoint && provider.tokenEndpoint) {
    config = new client.Configuration(
      {
        // Without an issuer (plain OAuth 2) no ID token is expected, so no `iss` is ever compared to this.
        issuer: provider.issuer ?? new URL(provider.authorizationEndpoint).origin,
        authorization_endpoint: provider.authorizationEndpoint,
        token_endpoint: provider.tokenEndpoint,
        userinfo_endpoint: provider.userinfoEndpoint,
        jwks_uri: provider.jwksUri,
      },
      provider.clientId,
      secret,
    );
    for (const apply of execute) apply(config);
  } else if (provider.issuer) {
    config = await client.discovery(new URL(provider.issuer), provider.clientId, secret, undefined, {
      execute,
      timeout: PROVIDER_TIMEOUT_SECONDS,
    });
  } else {
    throw new Error(`${provider.strategy}: neither an issuer nor endpoints are configured.`);
  }
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  return config;
}

export function newRedirectSecrets(): RedirectSecrets {
  return {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
}

/** The provider's authorization URL for one redirect (authorization code flow, PKCE S256, nonce). */
export async function authorizationUrl(
  provider: SocialProvider,
  secrets: RedirectSecrets,
  redirectUri: string,
  hints: { prompt?: string; loginHint?: string },
): Promise<string> {
  const config = await providerConfiguration(provider);
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: provider.scopes.join(' '),
    state: secrets.state,
    code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
    code_challenge_method: 'S256',
  };
  if (provider.oidc) params.nonce = secrets.nonce;
  if (hints.prompt) params.prompt = hints.prompt;
  if (hints.loginHint) params.login_hint = hints.loginHint;
  return client.buildAuthorizationUrl(config, params).href;
}

/**
 * Exchanges the code the provider sent back and answers who signed in. For an OpenID Connect provider
 * openid-client verifies the ID token (signature against the provider's JWKS, iss, aud, exp, nonce);
 * a plain OAuth 2 provider is asked its userinfo endpoint with the access token.
 */
export async function exchangeCode(
  provider: SocialProvider,
  callbackUrl: URL,
  secrets: RedirectSecrets,
): Promise<ExternalIdentity> {
  const config = await providerConfiguration(provider);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: secrets.codeVerifier,
    expectedState: secrets.state,
    ...(provider.oidc ? { expectedNonce: secrets.nonce, idTokenExpected: true } : {}),
  });
  const scopes = typeof tokens.scope === 'string' ? tokens.scope : provider.scopes.join(' ');
  const identity = await identityFromTokens(provider, config, tokens, scopes);
  issuedTokens.set(identity, tokensOf(tokens));
  return identity;
}

async function identityFromTokens(
  provider: SocialProvider,
  config: client.Configuration,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  scopes: string,
): Promise<ExternalIdentity> {
  if (provider.oidc) {
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider sent no ID token');
    let profile: Record<string, unknown> = claims;
    // Some providers keep the email or the names out of the ID token: ask userinfo for the same subject.
    if (!claims.email && config.serverMetadata().userinfo_endpoint) {
      profile = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    }
    return identityOf(provider.strategy, claims.sub, profile, scopes);
  }
  const endpoint = config.serverMetadata().userinfo_endpoint;
  if (!endpoint) throw new Error('the provider has no userinfo endpoint');
  const response = await client.fetchProtectedResource(config, tokens.access_token, new URL(endpoint), 'GET');
  if (!response.ok) throw new Error(`the provider's userinfo endpoint answered ${response.status}`);
  const profile = (await response.json()) as Record<string, unknown>;
  // GitHub names its users by a numeric `id`; OpenID-style providers by `sub`.
  const subject = profile.sub ?? profile.id;
  if (typeof subject !== 'string' && typeof subject !== 'number') {
    throw new Error('the provider did not name the user');
  }
  return identityOf(provider.strategy, String(subject), profile, scopes);
}

function identityOf(
  strategy: string,
  subject: string,
  profile: Record<string, unknown>,
  approvedScopes: string,
): ExternalIdentity {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const email = text(profile.email)?.toLowerCase() ?? null;
  const [first, ...rest] = (text(profile.name) ?? '').split(/\s+/);
  return {
    strategy,
    providerUserId: subject,
    email,
    // Some providers send the boolean as a string ("true").
    emailVerified: email !== null && (profile.email_verified === true || profile.email_verified === 'true'),
    firstName: text(profile.given_name) ?? (first || null),
    lastName: text(profile.family_name) ?? (rest.join(' ') || null),
    username: text(profile.preferred_username) ?? text(profile.login),
    imageUrl: text(profile.picture) ?? text(profile.avatar_url),
    approvedScopes,
  };
}
