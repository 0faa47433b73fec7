import type { EmailAddressRow } from '../../../store/rows.ts';

/** The code store's subject for verifying one address added from the profile. */
export function emailVerificationSubject(email: Pick<EmailAddressRow, 'id' | 'email_address'>): string {
  return `email_address:${email.id}:${email.email_address.toLowerCase()}`;
}
