/**
 * Clerk's test mode, on development instances only: these identifiers receive nothing and accept the
 * fixed code 424242, so test suites written for hosted Clerk run unchanged.
 */
export const TEST_MODE_CODE = '424242';

export function isTestEmail(email: string): boolean {
  return email.toLowerCase().includes('+clerk_test');
}

/** +1 (XXX) 555-0100 to 555-0199, in any formatting. Phone sign-in itself arrives with issue #5. */
export function isTestPhoneNumber(phone: string): boolean {
  const digits = phone.replace(/\D/g, '');
  return /^1\d{3}55501\d{2}$/.test(digits);
}
