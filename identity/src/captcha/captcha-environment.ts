import type { CaptchaSettings } from './captcha-settings.ts';
import type { IdentityConfig } from '../config.ts';

/** The `display_config.captcha_*` fields and `user_settings.sign_up.captcha_*` as clerk-js reads them. */
export function captchaEnvironmentJSON(_settings: CaptchaSettings | undefined, _config: IdentityConfig) {
  return {
    display: {
      captcha_public_key: null,
      captcha_public_key_invisible: null,
      captcha_widget_type: null,
      captcha_provider: 'turnstile',
      captcha_oauth_bypass: [],
      captcha_heartbeat: false,
      captcha_heartbeat_interval_ms: 600000,
    },
    signUp: { captcha_enabled: false, captcha_widget_type: null },
  };
}
