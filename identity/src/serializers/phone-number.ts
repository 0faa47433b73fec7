import type { PhoneNumberRow } from '../store/phone-numbers.ts';
import type { SignUpRow } from '../store/rows.ts';
import { ms, verificationJSON } from './verification.ts';

/**
 * Clerk's PhoneNumberJSON. `backup_codes` is shown once: when reserving the number for two-step
 * verification also created the user's first set of backup codes.
 */
export function phoneNumberJSON(p: PhoneNumberRow, shown: { backupCodes?: string[] } = {}) {
  return {
    object: 'phone_number',
    id: p.id,
    phone_number: p.phone_number,
    reserved_for_second_factor: p.reserved_for_second_factor,
    default_second_factor: p.default_second_factor,
    reserved: false,
    verification: p.verified_at
      ? {
          object: 'verification',
          status: 'verified',
          strategy: 'phone_code',
          attempts: null,
          expire_at: null,
        }
      : verificationJSON(p.verification),
    linked_to: [],
    backup_codes: shown.backupCodes ?? null,
    created_at: ms(p.created_at),
    updated_at: ms(p.updated_at),
  };
}

/** `verifications.phone_number` of SignUpJSON, with the next step clerk-js takes. */
export function signUpPhoneVerificationJSON(s: Pick<SignUpRow, 'phone_number' | 'phone_verification'>) {
  if (!s.phone_number) return null;
  const v = s.phone_verification;
  return verificationJSON(v ?? { status: 'unverified', strategy: null, attempts: null, expire_at: null }, {
    next_action: v?.status === 'verified' ? '' : v?.strategy ? 'needs_attempt' : 'needs_prepare',
    supported_strategies: ['phone_code'],
    channel: 'sms',
  });
}
