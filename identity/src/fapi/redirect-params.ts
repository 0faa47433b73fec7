import type { IdentityConfig } from '../config.ts';
import { allSatelliteOrigins } from '../domains/domains.ts';
import type { InstanceSettings } from '../instance/settings/schema.ts';
import { errors } from '../errors.ts';
import { field, type FormBody } from './form.ts';
import { isSocialStrategy } from './oauth/start-external-verification.ts';
import type { Queryable } from '../db/database.ts';
import { isListedRedirect } from '../redirect-urls/redirect-url.ts';
import { isAllowedRedirect as isAllowed, isPopupCallbackRedirect } from '../http/redirects.ts';

/**
 * Strategies clerk-js may start from `authenticateWithPopup`: a social provider, or enterprise SSO (custom
 * flows call it with `strategy: 'enterprise_sso'`; <SignIn/> itself redirects).
 */
export const mayRedirectToPopup = (strategy: string | undefined) =>
  isSocialStrategy(strategy) || strategy === 'enterprise_sso' || strategy === 'saml';

const REDIRECT_PARAMS = ['redirect_url', 'action_complete_redirect_url', 'redirect_url_complete'] as const;
/** Where clerk-js's `authenticateWithPopup` sends the provider's answer: its popup-callback page. */
const POPUP_PARAMS: ReadonlySet<string> = new Set(['redirect_url', 'action_complete_redirect_url']);

/**
 * Rejects any redirect parameter that points off the allowed origins (spec §5; a satellite domain's
 * origins exactly) and the operator's
 * allowed redirect URLs. With `popup` (a social
 * or enterprise SSO strategy, see mayRedirectToPopup), `redirect_url` and `action_complete_redirect_url` may also be this instance's popup-callback
 * page on its `accounts.` origin, and nothing else there.
 */
export async function assertRedirectParams(
  db: Queryable,
  body: FormBody,
  deps: { config: IdentityConfig; settings: { settings: InstanceSettings } },
  opts: { popup?: boolean } = {},
): Promise<void> {
  const { config } = deps;
  const satellites = allSatelliteOrigins(deps.settings.settings);
  for (const name of REDIRECT_PARAMS) {
    const value = field(body, name);
    if (value === undefined || isAllowed(value, config, satellites)) continue;
    if (opts.popup && POPUP_PARAMS.has(name) && isPopupCallbackRedirect(value, config)) continue;
    // The operator's allowed redirect URLs (Backend API `redirectUrls`), read only past the origins.
    if (await isListedRedirect(db, value)) continue;
    throw errors.paramValueInvalid(name, `${name} must point to an allowed origin of this application.`);
  }
}
