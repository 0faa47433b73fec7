import type { InstanceSettings } from '../instance/settings/schema.ts';
import type { PasskeySummary } from '../store/passkeys.ts';
import { passkeysEnabled } from './passkey-settings.ts';

/**
 * Whether a sign-in of this account offers `{strategy: 'passkey'}` among its first factors: the instance
 * has passkeys on and the account has a verified one. clerk-js then starts <SignIn/>'s first factor on it.
 */
export function passkeyFactorOffered(
  settings: Pick<InstanceSettings, 'passkeys'>,
  owner: { passkeys: PasskeySummary[] } | undefined,
): boolean {
  return passkeysEnabled(settings.passkeys) && (owner?.passkeys.length ?? 0) > 0;
}
