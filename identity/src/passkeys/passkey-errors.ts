import { ClerkError } from '../errors.ts';

const param = (name: string) => ({ param_name: name });

/**
 * The passkey errors, in Clerk's envelope. clerk-js localises `passkey_already_exists`
 * (`unstable__errors.passkey_already_exists`); the others show their `long_message`. The failures of a
 * ceremony name no parameter: <SignIn/> and <UserProfile/> hand them to `handleError` with no form field,
 * which shows only errors without a `param_name` (as a card alert).
 */
export const passkeyErrors = {
  /** Passkeys are off for the instance (settings absent or `enabled: false`). */
  notEnabled: () =>
    new ClerkError(
      422,
      'form_param_value_invalid',
      'The verification strategy "passkey" is not enabled for this application.',
      'The verification strategy "passkey" is not enabled for this application.',
      param('strategy'),
    ),
  /** The authenticator's credential is registered already (to this user or anyone). */
  alreadyExists: () =>
    new ClerkError(
      422,
      'passkey_already_exists',
      'A passkey is already registered with this device.',
      'A passkey is already registered with this device.',
    ),
  /** `public_key_credential` is not a serialised PublicKeyCredential (or is too large to be one). */
  credentialMalformed: () =>
    new ClerkError(
      422,
      'form_param_format_invalid',
      'public_key_credential must be a serialised PublicKeyCredential.',
      'public key credential must be a serialised PublicKeyCredential.',
      param('public_key_credential'),
    ),
  /** The registration's credential failed its checks (challenge, origin, relying party, user verification). */
  registrationFailed: () =>
    new ClerkError(
      422,
      'passkey_registration_failure',
      'Passkey registration failed.',
      'The passkey could not be verified. Try adding it again.',
    ),
  /** The sign-in's assertion failed its checks, or names no passkey of this instance (or of this user). */
  verificationFailed: () =>
    new ClerkError(
      422,
      'passkey_verification_failure',
      'Passkey verification failed.',
      'This passkey could not be verified. Try again, or use another method.',
    ),
  /** The challenge was used, expired, or never offered: the browser must start over. */
  challengeInvalid: () =>
    new ClerkError(
      422,
      'verification_expired',
      'expired',
      'This passkey verification has expired or was used already. Try again.',
    ),
};
