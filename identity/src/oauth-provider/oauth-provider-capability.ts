import type { Capability } from '../capability.ts';
import { oauthAppsCommand } from '../cli/oauth-apps-commands.ts';
import { DAY } from '../retention/retention-rule.ts';

/** The instance as an OAuth 2.1 / OpenID Connect provider: its OAuth applications (docs/oauth-provider.md). */
export const oauthProviderCapability: Capability = {
  name: 'oauth-provider',
  // Applications and consents are kept until deleted; oidc-provider's records a day past their expiry.
  retention: [{ table: 'oauth_provider_records', expired: `expires_at < $1::timestamptz - ${DAY}` }],
  cli: [oauthAppsCommand],
};
