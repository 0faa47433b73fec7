import type { EmailAddressRow, SignInRow, UserRow } from '../store/rows.ts';
import { userImageJSON, type ImageUrls } from './user.ts';
import { ms, verificationJSON } from './verification.ts';
import { isUsernameIdentifier } from '../users/usernames.ts';
import { maskEmail } from '../users/mask-email.ts';
import { resetPasswordFactorsFor } from '../password-reset/reset-factors.ts';
import { supportedSecondFactors, type SecondFactorState } from '../second-factors/second-factor-state.ts';
import type { PhoneNumberRow } from '../store/phone-numbers.ts';
import { phoneFirstFactorsFor, phoneResetPasswordFactorsFor } from '../phone-numbers/phone-factors.ts';
import { web3FirstFactorsFor, type Web3FactorSource } from '../web3/web3-first-factors.ts';

/** The first factors a user may use; the reset-password factors come last (see resetPasswordFactorsFor). */
export function firstFactorsFor(
  user: UserRow,
  emails: EmailAddressRow[],
  identifier: string | null = null,
  phones: PhoneNumberRow[] = [],
  web3: Web3FactorSource = { wallets: [], strategies: [] },
  /** The account has a passkey the instance accepts (passkeys/passkey-factor.ts). */
  passkey = false,
) {
  const factors: Record<string, unknown>[] = [];
  // Started with a wallet's address: its signature (clerk-js's authenticateWithWeb3 looks for it).
  factors.push(...web3FirstFactorsFor(user, web3, identifier));
  if (passkey) factors.push({ strategy: 'passkey' });
  if (user.password_hash) factors.push({ strategy: 'password' });
  // Identified by username: codes and links go to the primary address only, shown masked so that
  // knowing a username does not tell anyone the account's email address.
  const byUsername = identifier !== null && isUsernameIdentifier(identifier);
  const verified = emails.filter(
    (x) => x.verified_at && (!byUsername || x.id === user.primary_email_address_id),
  );
  for (const strategy of ['email_code', 'email_link']) {
    for (const e of verified) {
      factors.push({
        strategy,
        safe_identifier: byUsername ? maskEmail(e.email_address) : e.email_address,
        email_address_id: e.id,
        primary: e.id === user.primary_email_address_id,
      });
    }
  }
  factors.push(...phoneFirstFactorsFor(user, phones, identifier));
  // Signed in by phone number: the reset code goes to that phone first (clerk-js takes the first one).
  factors.push(...phoneResetPasswordFactorsFor(user, phones, identifier));
  factors.push(...resetPasswordFactorsFor(user, emails, identifier));
  return factors;
}

export function signInJSON(
  signIn: SignInRow,
  user: UserRow | null,
  emails: EmailAddressRow[],
  images: ImageUrls,
  secondFactors: SecondFactorState | null = null,
  phones: PhoneNumberRow[] = [],
  web3?: Web3FactorSource,
  passkey = false,
) {
  return {
    object: 'sign_in',
    id: signIn.id,
    status: signIn.status,
    supported_identifiers: ['email_address', 'phone_number', 'username'],
    identifier: signIn.identifier,
    user_data: user
      ? { first_name: user.first_name, last_name: user.last_name, ...userImageJSON(user, images) }
      : null,
    // An address at an enterprise connection's domain: its IdP is the only first factor (clerk-js goes there).
    supported_first_factors: signIn.enterprise_connection_id
      ? [{ strategy: 'enterprise_sso' }]
      : user && signIn.status !== 'needs_identifier'
        ? firstFactorsFor(user, emails, signIn.identifier, phones, web3, passkey)
        : [],
    supported_second_factors:
      secondFactors && signIn.status === 'needs_second_factor' ? supportedSecondFactors(secondFactors) : null,
    first_factor_verification: verificationJSON(signIn.first_factor_verification),
    second_factor_verification: verificationJSON(signIn.second_factor_verification),
    created_session_id: signIn.created_session_id,
    abandon_at: ms(signIn.abandon_at),
    created_at: ms(signIn.created_at),
    updated_at: ms(signIn.updated_at),
  };
}
