import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { ClerkError } from '../errors.ts';
import { isTestPhoneNumber } from '../instance/test-mode.ts';

/** International numbers only, as clerk-js's phone input sends them ("+" and the country code). */
export function looksLikePhoneNumber(value: string): boolean {
  return value.trim().startsWith('+');
}

/**
 * The number in E.164 (`+12015550123`), or null when it is not a valid number for its country
 * (libphonenumber's metadata: country code, length, leading digits). Formatting is ignored. Clerk's test
 * numbers, +1 (XXX) 555-0100 to 0199, pass in development whatever their area code.
 */
export function normalizePhoneNumber(raw: string, opts: { testMode: boolean }): string | null {
  const value = raw.trim();
  if (!value.startsWith('+') || value.length > 32) return null;
  const parsed = parsePhoneNumberFromString(value);
  if (!parsed) return null;
  if (parsed.isValid()) return parsed.number;
  if (opts.testMode && parsed.isPossible() && isTestPhoneNumber(parsed.number)) return parsed.number;
  return null;
}

/** `normalizePhoneNumber`, or Clerk's `form_param_format_invalid` on the field. */
export function validatePhoneNumber(raw: string, opts: { testMode: boolean; paramName?: string }): string {
  const phone = normalizePhoneNumber(raw, opts);
  if (!phone) {
    throw new ClerkError(
      422,
      'form_param_format_invalid',
      'is invalid',
      'Enter a valid phone number, with its country code (e.g. +15551234567).',
      { param_name: opts.paramName ?? 'phone_number' },
    );
  }
  return phone;
}

/**
 * A number shown to someone who may not own it (a sign-in identified by something else, a second factor):
 * the country code's first digits and the last two, as hosted Clerk shows them (`+30********90`).
 */
export function maskPhoneNumber(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length <= 4) return `+${'*'.repeat(digits.length)}`;
  return `+${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}

/** The SMS provider refused the recipient (not a mobile number, opted out, country not enabled). */
export function phoneNumberUndeliverable(): ClerkError {
  return new ClerkError(
    422,
    'form_param_format_invalid',
    'cannot receive SMS',
    'This phone number cannot receive text messages. Try another number.',
    { param_name: 'phone_number' },
  );
}

/**
 * A typed sign-in identifier as stored: a phone number in E.164 (an invalid one stays as typed and so
 * finds nobody), anything else lowercased (email addresses, usernames).
 */
export function normalizeSignInIdentifier(
  raw: string | undefined,
  opts: { testMode: boolean },
): string | undefined {
  if (raw === undefined) return undefined;
  if (looksLikePhoneNumber(raw)) return normalizePhoneNumber(raw, opts) ?? raw.trim();
  return raw.toLowerCase();
}
