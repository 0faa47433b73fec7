import * as client from 'openid-client';
import { isLoopbackHost } from '../dev/loopback.ts';
import { secretFromEnv } from '../instance/settings/schema.ts';
import type { SocialProvider } from './providers.ts';
import type { ExternalIdentity } from './external-identity.ts';

export type { ExternalIdentity };

/** How long a provider may take to answer discovery, the token exchange or userinfo. */
const PROVIDER_TIMEOUT_SECONDS = 10;

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
// kept on sign-ins and sign-ups (their `external_identity`) and must never carry a token in clear there.
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
    scope: grantedScope(response),
  };
}

/** `scope` of a token response, space-separated as RFC 6749 says (GitHub separates them with commas). */
function grantedScope(response: client.TokenEndpointResponse): string | null {
  if (typeof response.scope !== 'string') return null;
  return response.scope
    .split(/[\s,]+/)
    .filter(Boolean)
    .join(' ');
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
// How each discovery ended, for readyConfiguration (a failure only briefly: see FAILURE_KEPT_MS).
const settled = new WeakMap<SocialProvider['source'], client.Configuration | { error: Error; at: number }>();

/**
 * How long a failed discovery answers for the provider: the request that asked for it (and ran again,
 * see readyConfiguration) hears the failure instead of asking again; after that the provider is tried anew.
 */
const FAILURE_KEPT_MS = 10_000;

export function providerConfiguration(provider: SocialProvider): Promise<client.Configuration> {
  const cached = configurations.get(provider.source);
  if (cached) return cached;
  const made = makeConfiguration(provider);
  configurations.set(provider.source, made);
  made.then(
    (config) => settled.set(provider.source, config),
    (err: unknown) => {
      configurations.delete(provider.source);
      settled.set(provider.source, { error: err as Error, at: Date.now() });
    },
  );
  return made;
}

/**
 * The provider's configuration as far as it is known without waiting: the configuration, the error its
 * discovery just ended with, or undefined when discovery has not finished (not asked yet, in progress, or
 * failed a while ago). A transaction must not wait for a provider: a route that gets undefined asks for
 * `discoverProvider` outside its transaction (fapi/work-outside-transaction.ts) and runs again.
 */
export function readyConfiguration(provider: SocialProvider): client.Configuration | Error | undefined {
  const known = settled.get(provider.source);
  if (known === undefined || known instanceof client.Configuration) return known;
  return Date.now() - known.at < FAILURE_KEPT_MS ? known.error : undefined;
}

/** Discovers the provider (network I/O, with no transaction open); how it ended is kept for readyConfiguration. */
export async function discoverProvider(provider: SocialProvider): Promise<void> {
  await providerConfiguration(provider).catch(() => undefined);
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
    const { server, fetchAs } = discoveryTarget(provider);
    config = await client.discovery(server, provider.clientId, secret, undefined, {
      execute,
      timeout: PROVIDER_TIMEOUT_SECONDS,
      ...(fetchAs ? { [client.customFetch]: fetchAs } : {}),
    });
  } else {
    throw new Error(`${provider.strategy}: neither an issuer nor endpoints are configured.`);
  }
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  return config;
}

const MICROSOFT = 'https://login.microsoftonline.com';

/**
 * Where discovery asks. Microsoft's multi-tenant issuers (`common`, `organizations`, `consumers`) publish
 * their issuer as a template, `https://login.microsoftonline.com/{tenantid}/v2.0`, and each ID token's
 * `iss` names the user's own tenant; Microsoft's documented check is the template filled with the token's
 * `tid` claim. openid-client applies exactly that check to what it discovers at login.microsoftonline.com
 * (its Entra ID rule), and a plain comparison to every other issuer. So a stand-in playing Microsoft (the
 * issuer overridden, e.g. to this machine) is asked in Microsoft's place: discovery names Microsoft's
 * address, and the request goes to the stand-in's. A single-tenant issuer, whose metadata names no
 * template, still has to match exactly.
 */
function discoveryTarget(provider: SocialProvider): {
  server: URL;
  fetchAs?: client.CustomFetch;
} {
  const issuer = new URL(provider.issuer!);
  if (provider.strategy !== 'oauth_microsoft' || issuer.origin === MICROSOFT) return { server: issuer };
  const server = new URL(`${issuer.pathname}${issuer.search}`, MICROSOFT);
  return {
    server,
    fetchAs: (url, options) =>
      fetch(
        url.startsWith(`${MICROSOFT}/`) ? `${issuer.origin}${url.slice(MICROSOFT.length)}` : url,
        options as RequestInit,
      ),
  };
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
  const scopes = grantedScope(tokens) ?? provider.scopes.join(' ');
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
  const email =
    provider.strategy === 'oauth_github'
      ? await githubEmail(config, tokens.access_token, endpoint, profile)
      : {};
  return identityOf(provider.strategy, String(subject), { ...profile, ...email }, scopes);
}

/** One entry of GitHub's `GET /user/emails`. */
interface GithubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

/**
 * GitHub's profile (`/user`) has only the public email, and says nothing of whether it is verified. With
 * the `user:email` scope, `/user/emails` lists every address with `primary` and `verified`: the primary
 * address is the user's email, verified when GitHub says so (and only then may it link to an existing
 * account). It lives beside the userinfo endpoint (`https://api.github.com/user/emails`), so overriding
 * that endpoint moves it too. Without the scope, or if GitHub does not answer, the public email stays,
 * unverified.
 */
async function githubEmail(
  config: client.Configuration,
  accessToken: string,
  userinfoEndpoint: string,
  profile: Record<string, unknown>,
): Promise<{ email?: unknown; email_verified: boolean }> {
  const url = new URL(`${userinfoEndpoint.replace(/\/+$/, '')}/emails`);
  let listed: GithubEmail[];
  try {
    const response = await client.fetchProtectedResource(
      config,
      accessToken,
      url,
      'GET',
      undefined,
      new Headers({ accept: 'application/vnd.github+json' }),
    );
    if (!response.ok) throw new Error(`it answered ${response.status}`);
    const body = (await response.json()) as unknown;
    listed = Array.isArray(body) ? (body as GithubEmail[]) : [];
  } catch (err) {
    console.warn(
      `identity: oauth_github /user/emails not read (${(err as Error).message}); email unverified`,
    );
    return { email_verified: false };
  }
  const usable = listed.filter((e): e is GithubEmail & { email: string } => typeof e.email === 'string');
  const primary = usable.find((e) => e.primary === true);
  if (primary) return { email: primary.email, email_verified: primary.verified === true };
  const publicEmail = typeof profile.email === 'string' ? profile.email.toLowerCase() : null;
  const same = usable.find((e) => e.email.toLowerCase() === publicEmail);
  return { email_verified: same?.verified === true };
}

export function identityOf(
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
