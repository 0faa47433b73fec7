import type { SocialProviderSettings } from '../instance/settings/schema.ts';
import type { ExternalIdentity } from '../social/oauth-client.ts';
import { resolveSocialProvider, type SocialProvider } from '../social/providers.ts';
import { emailBelongsTo, type EnterpriseConnection } from './connections.ts';
import type { EnterpriseIdentity } from './enterprise-identity.ts';

/**
 * OpenID Connect connections ride on the social sign-in's client (social/oauth-client.ts, openid-client:
 * discovery, PKCE, state hashed and bound to the browser's client, nonce, the ID token verified) and its
 * callback (`/v1/oauth_callback`). Their redirects are kept under the strategy `enterprise_sso:<id>`, which
 * no social provider can have, so the callback knows where to send what the IdP said.
 */
export const OIDC_STRATEGY_PREFIX = 'enterprise_sso:';

export const oidcStrategyOf = (connectionId: string) => `${OIDC_STRATEGY_PREFIX}${connectionId}`;

/** The connection id of an `enterprise_sso:<id>` strategy; null for any other strategy. */
export const connectionIdOfStrategy = (strategy: string) =>
  strategy.startsWith(OIDC_STRATEGY_PREFIX) ? strategy.slice(OIDC_STRATEGY_PREFIX.length) : null;

// One provider settings object per connection settings object: openid-client's discovery is cached on it.
const sources = new WeakMap<EnterpriseConnection['source'], SocialProviderSettings>();

/** The connection as a provider of the social sign-in's OAuth client. */
export function oidcProviderOf(connection: EnterpriseConnection): SocialProvider {
  let source = sources.get(connection.source);
  if (!source) {
    source = {
      enabled: connection.enabled,
      clientId: connection.clientId!,
      clientSecret: connection.clientSecret!,
      scopes: connection.scopes ?? ['openid', 'email', 'profile'],
      authenticatable: true,
      signUpAllowed: connection.signUpAllowed,
      name: connection.name.slice(0, 64),
      issuer: connection.issuer,
    };
    sources.set(connection.source, source);
  }
  return resolveSocialProvider(oidcStrategyOf(connection.id), source);
}

/**
 * What the IdP's ID token said, as an enterprise identity. The address counts when it is at one of the
 * connection's domains, whether or not the IdP sends `email_verified` (many enterprise IdPs do not): the
 * operator tied those domains to this IdP.
 */
export function enterpriseIdentityOf(
  connection: EnterpriseConnection,
  identity: ExternalIdentity,
): EnterpriseIdentity {
  return {
    connectionId: connection.id,
    protocol: 'oidc',
    providerUserId: identity.providerUserId,
    email: identity.email,
    emailInDomain: !!identity.email && emailBelongsTo(connection, identity.email),
    firstName: identity.firstName,
    lastName: identity.lastName,
  };
}
