import type { SocialProviderSettings } from '../instance/settings/schema.ts';
import { ownValue } from '../util/own-value.ts';

/**
 * What we know of each well-known provider without being told: its name, the scopes that give an email
 * address and a name, and where it lives. Google and Microsoft are OpenID Connect providers found by
 * discovery of their issuer; GitHub is plain OAuth 2 with a userinfo API; Apple is OpenID Connect.
 */
interface ProviderDefaults {
  name: string;
  scopes: string[];
  issuer?: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
}

const WELL_KNOWN: Record<string, ProviderDefaults> = {
  oauth_google: {
    name: 'Google',
    scopes: ['openid', 'email', 'profile'],
    issuer: 'https://accounts.google.com',
  },
  oauth_microsoft: {
    name: 'Microsoft',
    scopes: ['openid', 'email', 'profile'],
    issuer: 'https://login.microsoftonline.com/common/v2.0',
  },
  oauth_apple: { name: 'Apple', scopes: ['openid', 'email', 'name'], issuer: 'https://appleid.apple.com' },
  oauth_github: {
    name: 'GitHub',
    scopes: ['read:user', 'user:email'],
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    userinfoEndpoint: 'https://api.github.com/user',
  },
};

/** A provider as the flow uses it: the settings with the well-known defaults filled in. */
export interface SocialProvider {
  /** The settings it was made from (replaced on every settings change: what caches are keyed on). */
  source: SocialProviderSettings;
  strategy: string;
  name: string;
  clientId: string;
  clientSecret: SocialProviderSettings['clientSecret'];
  scopes: string[];
  authenticatable: boolean;
  signUpAllowed: boolean;
  /**
   * OpenID Connect (an ID token is expected and verified) when the provider is found by its issuer or
   * asks for the `openid` scope; plain OAuth 2 (identity from the userinfo endpoint) otherwise.
   */
  oidc: boolean;
  issuer: string | undefined;
  authorizationEndpoint: string | undefined;
  tokenEndpoint: string | undefined;
  userinfoEndpoint: string | undefined;
  jwksUri: string | undefined;
}

export function resolveSocialProvider(strategy: string, s: SocialProviderSettings): SocialProvider {
  const defaults: ProviderDefaults = ownValue(WELL_KNOWN, strategy) ?? {
    name: strategy.replace(/^oauth_custom_/, ''),
    scopes: s.issuer ? ['openid', 'email', 'profile'] : [],
  };
  // Explicit endpoints replace the default discovery; an explicit issuer replaces the default one.
  const explicitEndpoints = !!(s.authorizationEndpoint && s.tokenEndpoint);
  const issuer = s.issuer ?? (explicitEndpoints ? undefined : defaults.issuer);
  const scopes = s.scopes ?? defaults.scopes;
  return {
    source: s,
    strategy,
    name: s.name ?? defaults.name,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    scopes,
    authenticatable: s.authenticatable,
    signUpAllowed: s.signUpAllowed,
    oidc: scopes.includes('openid') && (issuer !== undefined || s.jwksUri !== undefined),
    issuer,
    authorizationEndpoint: s.authorizationEndpoint ?? (issuer ? undefined : defaults.authorizationEndpoint),
    tokenEndpoint: s.tokenEndpoint ?? (issuer ? undefined : defaults.tokenEndpoint),
    userinfoEndpoint: s.userinfoEndpoint ?? (issuer ? undefined : defaults.userinfoEndpoint),
    jwksUri: s.jwksUri,
  };
}

/** The instance's enabled provider for `strategy`, or null. */
export function enabledSocialProvider(
  social: Record<string, SocialProviderSettings>,
  strategy: string,
): SocialProvider | null {
  const settings = ownValue(social, strategy);
  return settings?.enabled ? resolveSocialProvider(strategy, settings) : null;
}

/** Known logos; other providers get a neutral one. */
export function logoNameOf(strategy: string): string {
  return Object.hasOwn(WELL_KNOWN, strategy) ? strategy.replace(/^oauth_/, '') : 'custom';
}
