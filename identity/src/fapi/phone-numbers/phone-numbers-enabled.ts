import { errors, type ClerkError } from '../../errors.ts';
import type { IdentityDeps } from '../../deps.ts';

/** Phone numbers need a way to send SMS: the outbox in development, Twilio in production. */
export function assertPhoneNumbersEnabled(deps: IdentityDeps): void {
  if (!deps.sms) throw phoneNumbersDisabled();
}

export function phoneNumbersDisabled(): ClerkError {
  return errors.paramValueInvalid(
    'phone_number',
    'Phone numbers are not enabled for this application (no SMS provider is configured).',
  );
}
