import type { SocialProviderSettings } from '../instance/settings/schema.ts';
import { logoNameOf, resolveSocialProvider } from './providers.ts';

/** Where the providers' logos are served, under the Frontend API (see social/logo-route.ts). */
export const SOCIAL_LOGO_PATH = '/v1/social_logos';

/**
 * `user_settings.social` as clerk-js reads it (`OAuthProviderSettings`): every enabled provider, with a
 * logo on our own origin (a null `logo_url` would make the UI fetch it from img.clerk.com). clerk-js
 * shows a button for each one that is `authenticatable`.
 */
export function socialEnvironmentJSON(social: Record<string, SocialProviderSettings>, fapiBase: string) {
  return Object.fromEntries(
    Object.entries(social)
      .filter(([, settings]) => settings.enabled)
      .map(([strategy, settings]) => {
        const provider = resolveSocialProvider(strategy, settings);
        return [
          strategy,
          {
            enabled: true,
            required: false,
            authenticatable: provider.authenticatable,
            block_email_subaddresses: false,
            strategy,
            name: provider.name,
            logo_url: `${fapiBase}${SOCIAL_LOGO_PATH}/${logoNameOf(strategy)}.svg`,
          },
        ];
      }),
  );
}
