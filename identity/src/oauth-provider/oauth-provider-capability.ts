import type { Capability } from '../capability.ts';
import { oauthAppsCommand } from '../cli/oauth-apps-commands.ts';

/** The instance as an OAuth 2.1 / OpenID Connect provider: its OAuth applications (docs/oauth-provider.md). */
export const oauthProviderCapability: Capability = {
  name: 'oauth-provider',
  // No retention rule yet: applications are kept until deleted.
  cli: [oauthAppsCommand],
};
