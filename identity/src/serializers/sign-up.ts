import type { SignUpRow } from '../store/rows.ts';
import { ms, verificationJSON } from './verification.ts';
import { signUpPhoneVerificationJSON } from './phone-number.ts';
import { signUpWeb3VerificationJSON } from '../web3/web3-sign-up-json.ts';

export const SIGN_UP_REQUIRED_FIELDS = ['email_address', 'password'] as const;
export const SIGN_UP_OPTIONAL_FIELDS = ['first_name', 'last_name', 'username', 'phone_number'] as const;

export function missingFields(
  s: Pick<
    SignUpRow,
    | 'email_address'
    | 'password_hash'
    | 'external_identity'
    | 'enterprise_identity'
    | 'web3_wallet'
    | 'enterprise_connection_id'
    | 'legal_consent_required'
    | 'legal_accepted_at'
  >,
): string[] {
  // An address at an enterprise connection's domain: its IdP is the only way in (clerk-js goes there).
  if (s.enterprise_connection_id) return ['enterprise_sso'];
  const missing: string[] = [];
  if (!s.email_address) missing.push('email_address');
  // Signing up with a provider's account, an enterprise IdP's word or a web3 wallet needs no password (as
  // in Clerk): it is the factor.
  if (!s.password_hash && !s.external_identity && !s.enterprise_identity && !s.web3_wallet) {
    missing.push('password');
  }
  // Last: clerk-js shows its "Legal consent" page when this is the only field missing (SignUpContinue),
  // which is where a social sign-up stops.
  if (s.legal_consent_required && !s.legal_accepted_at) missing.push('legal_accepted');
  return missing;
}

export function unverifiedFields(
  s: Pick<
    SignUpRow,
    | 'email_address'
    | 'email_verification'
    | 'phone_number'
    | 'phone_verification'
    | 'web3_wallet'
    | 'web3_wallet_verification'
  >,
): string[] {
  const unverified: string[] = [];
  if (s.web3_wallet && s.web3_wallet_verification?.status !== 'verified') unverified.push('web3_wallet');
  if (s.email_address && s.email_verification?.status !== 'verified') unverified.push('email_address');
  // After the email address (clerk-js verifies them in this order): /sign-up#/verify-phone-number.
  if (s.phone_number && s.phone_verification?.status !== 'verified') unverified.push('phone_number');
  return unverified;
}

export function signUpJSON(s: SignUpRow) {
  const emailVerification = s.email_address
    ? verificationJSON(
        s.email_verification ?? { status: 'unverified', strategy: null, attempts: null, expire_at: null },
        {
          next_action:
            s.email_verification?.status === 'verified'
              ? ''
              : s.email_verification?.strategy
                ? 'needs_attempt'
                : 'needs_prepare',
          supported_strategies: ['email_code'],
        },
      )
    : null;
  return {
    object: 'sign_up',
    id: s.id,
    status: s.status,
    required_fields: [...SIGN_UP_REQUIRED_FIELDS],
    optional_fields: [...SIGN_UP_OPTIONAL_FIELDS],
    missing_fields: s.status === 'complete' ? [] : missingFields(s),
    unverified_fields: s.status === 'complete' ? [] : unverifiedFields(s),
    verifications: {
      email_address: emailVerification,
      phone_number: signUpPhoneVerificationJSON(s),
      web3_wallet: signUpWeb3VerificationJSON(s),
      external_account: verificationJSON(s.external_account_verification),
    },
    username: s.username,
    email_address: s.email_address,
    phone_number: s.phone_number,
    web3_wallet: s.web3_wallet ?? null,
    first_name: s.first_name,
    last_name: s.last_name,
    has_password: s.password_hash !== null,
    unsafe_metadata: s.unsafe_metadata,
    public_metadata: {},
    custom_action: s.custom_action ?? false,
    external_id: s.external_id ?? null,
    external_account_strategy:
      s.external_identity?.strategy ?? s.external_account_verification?.strategy ?? null,
    external_account: null,
    created_session_id: s.created_session_id,
    created_user_id: s.created_user_id,
    abandon_at: ms(s.abandon_at),
    legal_accepted_at: ms(s.legal_accepted_at),
  };
}

/**
 * The Backend API's SignUpAttempt (`@clerk/backend` 2.10.1's SignUpJSON): the Frontend API's sign-up
 * under its own object name, with `password_enabled` for `has_password`.
 */
export function signUpAttemptJSON(s: SignUpRow) {
  const { has_password, ...json } = signUpJSON(s);
  return { ...json, object: 'sign_up_attempt', password_enabled: has_password };
}
