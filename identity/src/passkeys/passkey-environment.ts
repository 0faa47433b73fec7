import { ATTRIBUTE_OFF } from '../instance/attribute-off.ts';
import type { PasskeySettings } from './passkey-settings.ts';

/** `user_settings.attributes.passkey` and `user_settings.passkey_settings` as clerk-js reads them. */
export function passkeyEnvironmentJSON(settings: PasskeySettings | undefined) {
  const on = settings?.enabled === true;
  return {
    attribute: on
      ? { ...ATTRIBUTE_OFF, enabled: true, used_for_first_factor: true, first_factors: ['passkey'] }
      : ATTRIBUTE_OFF,
    passkey_settings: {
      allow_autofill: on && settings.allowAutofill,
      show_sign_in_button: on && settings.showSignInButton,
    },
  };
}
