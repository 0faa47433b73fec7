import { errors } from '../errors.ts';

// Practical address check (RFC 5321 lengths, one @, a dot in the domain, no spaces or control characters).
// \p{C}: control and format characters, such as U+202E (right-to-left override), which can make an
// address read as another one.
const EMAIL_RE = /^[^\s\p{C}@<>()[\]\\,;:"]+@[^\s\p{C}@<>()[\]\\,;:"_]+\.[^\s\p{C}@<>()[\]\\,;:"_]{2,}$/u;

export function validateEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_RE.test(email))
    throw errors.paramFormatInvalid('email_address', 'a valid email address');
  return email;
}

/**
 * The address an invitation names (to the application or to an organisation): required, and refused with
 * Clerk's invitation-specific error when it is not an address.
 */
export function invitedEmail(raw: string | undefined): string {
  const email = raw?.trim();
  if (!email) throw errors.paramMissing('email_address');
  try {
    return validateEmail(email);
  } catch {
    throw errors.invitationEmailInvalid(email);
  }
}
