import { randomBytes } from 'node:crypto';
import Provider, { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { IdentityDeps } from '../deps.ts';
import { hashCode } from '../crypto/secrets.ts';
import { upsertOAuthProviderRecord } from '../store/oauth-provider-records.ts';
import { clientSecretMatches } from './oauth-client-secret.ts';
import { DEFAULT_OAUTH_PROVIDER_SETTINGS } from './oauth-provider-settings.ts';
import { REGISTRATION_PATH } from './dynamic-registration.ts';
import { findAccountIn } from './oidc-account.ts';
import { oidcAdapterFactory, recordIdHash } from './oidc-adapter.ts';

/** Clerk's prefix of an OAuth access token, which @clerk/backend 2.10.1 recognises (`oat_`). */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'oat_';

/** Where the endpoints are, under the Frontend API's path (hosted Clerk's paths where it has them). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/token_info',
  revocation: '/oauth/token/revoke',
  jwks: '/oauth/jwks',
} as const;

/** The browser cookie that ties an interaction to the browser that started it (see interactions.url). */
export const CONSENT_BINDING_COOKIE = '__oauth_consent';
export const CONSENT_BINDING_MODEL = 'ConsentBinding';

/** Lifetimes, in seconds, of what the instance settings do not set. */
const TTL = {
  Interaction: 3600,
  Session: 14 * 24 * 3600,
};

/**
 * oidc-provider's lifetimes: the fixed ones above, and the codes' and tokens' from the instance settings'
 * `oauthProvider` slice, read at each issuance so that a change counts for the next one without a restart.
 */
function lifetimes(deps: IdentityDeps): NonNullable<Configuration['ttl']> {
  const current = () => deps.settings.settings.oauthProvider ?? DEFAULT_OAUTH_PROVIDER_SETTINGS;
  return {
    ...TTL,
    AccessToken: () => current().accessTokenLifetime,
    IdToken: () => current().accessTokenLifetime,
    AuthorizationCode: () => current().authorizationCodeLifetime,
    RefreshToken: () => current().refreshTokenLifetime,
    // A rotated refresh token lives its full lifetime again, but the grant it belongs to does not: the
    // chain ends that long after the authorization, and the application asks the user again.
    Grant: () => current().refreshTokenLifetime,
  };
}

/** The claims each scope releases (userinfo, and the ID token). */
const CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'picture', 'updated_at'],
  public_metadata: ['public_metadata'],
  private_metadata: ['private_metadata'],
};

/**
 * The login prompt always asks: the Clerk session of the browser decides who signs in, never
 * oidc-provider's own session cookie, so a sign-out or a change of user in clerk-js counts at the next
 * authorization. After the interaction its result says who signed in.
 */
function policy() {
  const { Check, base } = interactionPolicy;
  const prompts = base();
  prompts
    .get('login')!
    .checks.add(
      new Check(
        'clerk_session',
        'The Clerk session decides who signs in',
        'login_required',
        (ctx: KoaContextWithOIDC) => !ctx.oidc.result?.login,
      ),
    );
  return prompts;
}

/**
 * The instance's authorization server: oidc-provider 8.8.1 configured as docs/oauth-provider.md says
 * (issuer the Frontend API's URL, the session-signing key, storage in oauth_provider_records, clients from
 * oauth_applications, access tokens `oat_…`, refresh tokens rotated, the interaction on the product's
 * consent page).
 */
export async function createOidcProvider(deps: IdentityDeps): Promise<Provider> {
  const { config, keys, db } = deps;
  const pepper = keys.codePepper;
  // The key signing now first (it signs ID tokens), then the others still published.
  const signingJwks = deps.signingKeys
    .published()
    .map((key) => ({ ...key.signer.export({ format: 'jwk' }), kid: key.kid, alg: 'RS256', use: 'sig' }));
  const secureCookies = config.publicUrl.startsWith('https:');
  const configuration: Configuration = {
    adapter: oidcAdapterFactory(db, pepper),
    clients: [],
    jwks: { keys: signingJwks },
    cookies: {
      keys: [hashCode(pepper, 'oauth_provider_cookie_key', 'v1')],
      long: { signed: true, httpOnly: true, sameSite: 'lax', secure: secureCookies },
      short: { signed: true, httpOnly: true, sameSite: 'lax', secure: secureCookies },
      names: { session: '_oauth_session', interaction: '_oauth_interaction', resume: '_oauth_resume' },
    },
    findAccount: findAccountIn(db, { avatarUrl: deps.avatarUrl, fapiBase: deps.fapiBase }),
    claims: CLAIMS,
    scopes: ['openid', 'offline_access', 'profile', 'email', 'public_metadata', 'private_metadata'],
    // No symmetric algorithm: a client's `client_secret` here is its hash, never a key.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    enabledJWA: {
      clientAuthSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      requestObjectSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      idTokenSigningAlgValues: ['RS256'],
    },
    responseTypes: ['code'],
    pkce: {
      methods: ['S256'],
      // Mandatory for public clients (hosted Clerk's `pkce_required`), taken when a confidential one sends it.
      required: (_ctx, client) => client.clientAuthMethod === 'none',
    },
    features: {
      devInteractions: { enabled: false },
      introspection: {
        enabled: true,
        // A client introspects only its own tokens.
        allowedPolicy: async (ctx, _client, token) => token.clientId === ctx.oidc.client?.clientId,
      },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true },
    },
    routes: { ...OAUTH_ROUTES },
    ttl: lifetimes(deps),
    rotateRefreshToken: true,
    // Codes and tokens live by their own lifetimes, grants and the user's consent, not by oidc-provider's
    // session cookie (the Clerk session is what signs in, see policy()).
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    interactions: {
      policy: policy(),
      url: async (ctx, interaction) => {
        // The consent page's calls carry this cookie only from the browser that started the authorization:
        // another user's browser, given the interaction's id, finds nothing to answer or decide.
        const binding = randomBytes(32).toString('base64url');
        await upsertOAuthProviderRecord(db, {
          model: CONSENT_BINDING_MODEL,
          idHash: recordIdHash(pepper, CONSENT_BINDING_MODEL, interaction.uid),
          grantId: null,
          accountId: null,
          clientId: null,
          payload: { binding: hashCode(pepper, 'oauth_consent_binding', binding) },
          expiresAt: new Date((interaction.exp ?? Math.floor(Date.now() / 1000) + TTL.Interaction) * 1000),
        });
        ctx.cookies.set(CONSENT_BINDING_COOKIE, binding, {
          path: `${config.fapiPath}/v1/me/oauth_consent/${interaction.uid}`,
          httpOnly: true,
          sameSite: 'lax',
          secure: secureCookies,
          signed: false,
          maxAge: TTL.Interaction * 1000,
        });
        return `${config.publicUrl}/oauth/consent?interaction=${encodeURIComponent(interaction.uid)}`;
      },
    },
    // The error page of a request that cannot go back to the client (an unregistered redirect URI):
    // JSON, no HTML of ours to escape.
    renderError: async (ctx, out) => {
      ctx.type = 'application/json';
      ctx.body = { error: out.error, error_description: out.error_description };
    },
  };
  const provider = new Provider(deps.fapiBase, configuration);
  // The public origin is set by the mount (oauth-provider-routes.ts) in X-Forwarded-*.
  provider.proxy = true;
  // Dynamic registration is ours (dynamic-registration.ts), and switched by the live instance settings:
  // discovery names it only while it is on.
  provider.use(async (ctx, next) => {
    await next();
    const settings = deps.settings.settings.oauthProvider ?? DEFAULT_OAUTH_PROVIDER_SETTINGS;
    if (ctx.oidc?.route === 'discovery' && settings.dynamicClientRegistration && ctx.body) {
      (ctx.body as Record<string, unknown>).registration_endpoint = `${deps.fapiBase}${REGISTRATION_PATH}`;
    }
  });

  const accessTokenProto = provider.AccessToken.prototype as unknown as { generateTokenId(): string };
  const generate = accessTokenProto.generateTokenId;
  accessTokenProto.generateTokenId = function prefixed(this: unknown) {
    return `${OAUTH_ACCESS_TOKEN_PREFIX}${generate.call(this)}`;
  };
  const clientProto = provider.Client.prototype as unknown as {
    clientSecret?: string;
    compareClientSecret(actual: string): Promise<boolean> | boolean;
  };
  clientProto.compareClientSecret = function compare(this: { clientSecret?: string }, actual: string) {
    return !!this.clientSecret && clientSecretMatches(pepper, actual, this.clientSecret);
  };
  return provider;
}
