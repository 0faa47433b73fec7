import type { Queryable } from '../db/database.ts';
import type { PhoneNumberRow } from './phone-numbers.ts';
import type { EmailAddressRow } from './rows.ts';

/*
 * The Backend API's own reads and writes of email addresses and phone numbers by id, whoever owns them
 * (`emailAddresses.*`, `phoneNumbers.*` of @clerk/backend): the operator acts on any user's.
 */

/** The address `id`, locked for the transaction; null when there is none. */
export async function lockEmailAddressById(tx: Queryable, id: string): Promise<EmailAddressRow | null> {
  const [row] = await tx.query<EmailAddressRow>('SELECT * FROM email_addresses WHERE id = $1 FOR UPDATE', [
    id,
  ]);
  return row ?? null;
}

export async function findEmailAddressById(db: Queryable, id: string): Promise<EmailAddressRow | null> {
  const [row] = await db.query<EmailAddressRow>('SELECT * FROM email_addresses WHERE id = $1', [id]);
  return row ?? null;
}

/** The operator takes back an address's verification: it no longer signs in nor counts as owned. */
export async function unverifyEmailAddress(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE email_addresses SET verified_at = NULL, verification_strategy = NULL, verification = NULL,
       updated_at = $2 WHERE id = $1`,
    [id, now],
  );
}

/** The number `id`, locked for the transaction; null when there is none. */
export async function lockPhoneNumberById(tx: Queryable, id: string): Promise<PhoneNumberRow | null> {
  const [row] = await tx.query<PhoneNumberRow>('SELECT * FROM phone_numbers WHERE id = $1 FOR UPDATE', [id]);
  return row ?? null;
}

export async function findPhoneNumberById(db: Queryable, id: string): Promise<PhoneNumberRow | null> {
  const [row] = await db.query<PhoneNumberRow>('SELECT * FROM phone_numbers WHERE id = $1', [id]);
  return row ?? null;
}

/** The operator takes back a number's verification: it no longer signs in nor serves as a second factor. */
export async function unverifyPhoneNumber(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE phone_numbers SET verified_at = NULL, verification = NULL, reserved_for_second_factor = false,
       default_second_factor = false, updated_at = $2 WHERE id = $1`,
    [id, now],
  );
}

/**
 * The owner's primary identifiers, the user's row locked for the change (`FOR NO KEY UPDATE`: a sign-in
 * inserting a session for this user is not held up, see docs/identity-internals.md); null: no such user.
 */
export async function lockIdentifierOwner(
  tx: Queryable,
  userId: string,
): Promise<{ primary_email_address_id: string | null; primary_phone_number_id: string | null } | null> {
  const [row] = await tx.query<{
    primary_email_address_id: string | null;
    primary_phone_number_id: string | null;
  }>('SELECT primary_email_address_id, primary_phone_number_id FROM users WHERE id = $1 FOR NO KEY UPDATE', [
    userId,
  ]);
  return row ?? null;
}
