import { phoneFirstFactorsFor } from '../phone-numbers/phone-factors.ts';
import { supportedSecondFactors, twoFactorEnabled } from '../second-factors/second-factor-state.ts';
import type { Owner } from '../users/load-users.ts';

/**
 * The first factors <UserVerification/> offers (it shows password, email_code, phone_code and passkey
 * only): the password, a code to each verified email address, a code to each sign-in phone number.
 */
export function verificationFirstFactors({ user, emails, phones }: Owner): Record<string, unknown>[] {
  const factors: Record<string, unknown>[] = [];
  if (user.password_hash) factors.push({ strategy: 'password' });
  for (const e of emails.filter((x) => x.verified_at)) {
    factors.push({
      strategy: 'email_code',
      safe_identifier: e.email_address,
      email_address_id: e.id,
      primary: e.id === user.primary_email_address_id,
    });
  }
  factors.push(...phoneFirstFactorsFor(user, phones, null));
  return factors;
}

export function verificationSecondFactors(owner: Owner) {
  return twoFactorEnabled(owner.secondFactors) ? supportedSecondFactors(owner.secondFactors) : null;
}

/** Whether a first factor of this strategy (and address or number, when it names one) is the user's. */
export function offersFirstFactor(owner: Owner, strategy: string, id?: string): boolean {
  return verificationFirstFactors(owner).some(
    (f) =>
      f.strategy === strategy && (id === undefined || f.email_address_id === id || f.phone_number_id === id),
  );
}
