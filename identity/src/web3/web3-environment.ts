import { ATTRIBUTE_OFF } from '../instance/attribute-off.ts';
import type { Web3Settings } from './web3-settings.ts';

/** `user_settings.attributes.web3_wallet`: one first factor (and sign-in button) per wallet offered. */
export function web3EnvironmentJSON(settings: Web3Settings | undefined) {
  if (!settings?.enabled) return ATTRIBUTE_OFF;
  return {
    ...ATTRIBUTE_OFF,
    enabled: true,
    used_for_first_factor: true,
    first_factors: settings.providers.map((p) => `web3_${p}_signature`),
    verifications: settings.providers.map((p) => `web3_${p}_signature`),
    verify_at_sign_up: true,
  };
}
