import { effectiveCaptcha, type CaptchaSettings } from './captcha-settings.ts';
import type { IdentityConfig } from '../config.ts';

/**
 * The site key clerk-js hands the proof-of-work widget (web/src/identity-provider/captcha/): clerk-js only runs a
 * captcha when it has one, and the widget recognises its own. Not a secret.
 */
export const PROOF_OF_WORK_SITE_KEY = 'qoala_proof_of_work';

/** The `display_config.captcha_*` fields and `user_settings.sign_up.captcha_*` as clerk-js reads them. */
export function captchaEnvironmentJSON(settings: CaptchaSettings | undefined, config: IdentityConfig) {
  const captcha = effectiveCaptcha(settings, config.mode);
  const turnstile = captcha?.provider === 'turnstile' ? captcha.turnstile : undefined;
  const publicKey = captcha ? (turnstile?.siteKey ?? PROOF_OF_WORK_SITE_KEY) : null;
  const invisibleKey = captcha
    ? turnstile
      ? (turnstile.invisibleSiteKey ?? turnstile.siteKey)
      : publicKey
    : null;
  return {
    display: {
      captcha_public_key: publicKey,
      captcha_public_key_invisible: invisibleKey,
      captcha_widget_type: captcha ? captcha.widgetType : null,
      // clerk-js knows no other: the proof of work presents itself as Turnstile (window.turnstile).
      captcha_provider: 'turnstile',
      captcha_oauth_bypass: captcha ? captcha.oauthBypass : [],
      captcha_heartbeat: captcha ? captcha.heartbeat : false,
      captcha_heartbeat_interval_ms: captcha ? captcha.heartbeatIntervalMs : 600000,
    },
    signUp: { captcha_enabled: captcha !== null, captcha_widget_type: captcha ? captcha.widgetType : null },
  };
}
