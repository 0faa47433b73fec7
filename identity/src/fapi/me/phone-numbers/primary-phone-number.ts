import { errors } from '../../../errors.ts';
import type { Queryable } from '../../../db/database.ts';
import { findOwnPhoneNumber } from '../../../store/phone-numbers.ts';

/**
 * `primary_phone_number_id` of PATCH /me ("Set as primary"): one of the user's verified numbers that
 * signs in (not one reserved for two-step verification).
 */
export async function primaryPhoneNumberFor(tx: Queryable, userId: string, id: string): Promise<string> {
  const phone = await findOwnPhoneNumber(tx, userId, id);
  if (!phone) {
    throw errors.paramValueInvalid('primary_phone_number_id', 'No such phone number on this account.');
  }
  if (!phone.verified_at) {
    throw errors.paramValueInvalid(
      'primary_phone_number_id',
      'Verify this phone number before making it primary.',
    );
  }
  if (phone.reserved_for_second_factor) {
    throw errors.paramValueInvalid(
      'primary_phone_number_id',
      'A phone number used for two-step verification only cannot be primary.',
    );
  }
  return phone.id;
}
