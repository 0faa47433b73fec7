import type { PhoneNumberRow } from '../store/phone-numbers.ts';
import type { UserRow } from '../store/rows.ts';
import { looksLikePhoneNumber, maskPhoneNumber } from './phone-number.ts';

/** The numbers a user signs in with: verified, and not kept for two-step verification only. */
export function signInPhoneNumbers(phones: PhoneNumberRow[]): PhoneNumberRow[] {
  return phones.filter((p) => p.verified_at && !p.reserved_for_second_factor);
}

/**
 * `phone_code` first factors. The number typed as the identifier is shown whole; any other is masked, so
 * that knowing someone's email address or username does not tell their phone number.
 */
export function phoneFirstFactorsFor(user: UserRow, phones: PhoneNumberRow[], identifier: string | null) {
  return signInPhoneNumbers(phones).map((p) => ({
    strategy: 'phone_code',
    safe_identifier: p.phone_number === identifier ? p.phone_number : maskPhoneNumber(p.phone_number),
    phone_number_id: p.id,
    primary: p.id === user.primary_phone_number_id,
    default: false,
  }));
}

/**
 * `reset_password_phone_code`, when the sign-in was identified by one of the user's numbers: the reset
 * code then goes to the phone the user has in hand. Listed last with the other reset factors.
 */
export function phoneResetPasswordFactorsFor(
  user: UserRow,
  phones: PhoneNumberRow[],
  identifier: string | null,
): Record<string, unknown>[] {
  if (!user.password_hash || !identifier || !looksLikePhoneNumber(identifier)) return [];
  const phone = signInPhoneNumbers(phones).find((p) => p.phone_number === identifier);
  if (!phone) return [];
  return [
    {
      strategy: 'reset_password_phone_code',
      safe_identifier: phone.phone_number,
      phone_number_id: phone.id,
      primary: phone.id === user.primary_phone_number_id,
    },
  ];
}

/**
 * The number a code goes to: the one asked for (it must be one of the sign-in numbers), else the typed
 * identifier, else the primary number, else the first.
 */
export function chooseSignInPhone(
  user: UserRow,
  phones: PhoneNumberRow[],
  identifier: string | null,
  requestedId: string | undefined,
): PhoneNumberRow | undefined {
  const usable = signInPhoneNumbers(phones);
  if (requestedId !== undefined) return usable.find((p) => p.id === requestedId);
  return (
    usable.find((p) => p.phone_number === identifier) ??
    usable.find((p) => p.id === user.primary_phone_number_id) ??
    usable[0]
  );
}
