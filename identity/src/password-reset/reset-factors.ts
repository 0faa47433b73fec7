import type { EmailAddressRow, UserRow } from '../store/rows.ts';
import { maskEmail } from '../users/mask-email.ts';

/**
 * The strategies that reset a forgotten password: a one-time code to one of the user's identifiers, then
 * `needs_new_password`. `reset_password_phone_code` joins this list with phone numbers (same shape, with
 * `phone_number_id`), sent by the phone-code sender.
 */
export const RESET_PASSWORD_STRATEGIES = ['reset_password_email_code', 'reset_password_phone_code'] as const;
export type ResetPasswordStrategy = (typeof RESET_PASSWORD_STRATEGIES)[number];

export function isResetPasswordStrategy(strategy: string | undefined): strategy is ResetPasswordStrategy {
  return (RESET_PASSWORD_STRATEGIES as readonly string[]).includes(strategy ?? '');
}

/**
 * The reset factors of a user, to be listed after every other first factor (clerk-js picks its starting
 * factor by a sort in which these compare as equal, and shows "Forgot password?" only when one exists).
 * Only a user with a password can forget it. The code goes to the address the user typed when it is one of
 * theirs, otherwise to the primary address.
 */
export function resetPasswordFactorsFor(
  user: UserRow,
  emails: EmailAddressRow[],
  identifier: string | null,
): Record<string, unknown>[] {
  if (!user.password_hash) return [];
  const verified = emails.filter((e) => e.verified_at);
  const typed = verified.find((e) => e.email_address.toLowerCase() === identifier?.toLowerCase());
  const email = typed ?? verified.find((e) => e.id === user.primary_email_address_id);
  if (!email) return [];
  return [
    {
      strategy: 'reset_password_email_code',
      // Typed a username: the address is shown masked, so a username does not reveal it.
      safe_identifier: typed ? email.email_address : maskEmail(email.email_address),
      email_address_id: email.id,
      primary: email.id === user.primary_email_address_id,
    },
  ];
}
