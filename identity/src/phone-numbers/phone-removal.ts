import type { Queryable } from '../db/database.ts';
import { errors } from '../errors.ts';
import { dropBackupCodesWithoutSecondFactor } from '../second-factors/second-factor-state.ts';
import {
  deletePhoneNumber,
  ensureDefaultSecondFactorPhone,
  phoneNumbersOfUser,
  type PhoneNumberRow,
} from '../store/phone-numbers.ts';
import { reassignPrimaryPhoneNumber, touchUser } from '../store/user-profile.ts';
import { emailAddressesOf, findUserById } from '../store/users.ts';
import { deleteCodesOfSubjectPrefix } from '../store/verification-codes.ts';
import { signInPhoneNumbers } from './phone-factors.ts';

/**
 * Removes one of the user's numbers, by the user (Phone numbers → Remove) or the operator
 * (`phoneNumbers.deletePhoneNumber`). Never the last way to sign in: a number goes only while a verified
 * email address, another sign-in number, or a username with a password remains
 * (`identification_deletion_failed`). The primary role and the default second factor pass to another
 * number; backup codes go with the last second factor.
 */
export async function removePhoneNumber(
  tx: Queryable,
  userId: string,
  phone: PhoneNumberRow,
  now: Date,
): Promise<void> {
  const user = (await findUserById(tx, userId))!;
  const emails = (await emailAddressesOf(tx, [userId])).get(userId) ?? [];
  const otherPhones = signInPhoneNumbers(await phoneNumbersOfUser(tx, userId)).filter(
    (p) => p.id !== phone.id,
  );
  const remains =
    emails.some((e) => e.verified_at) || otherPhones.length > 0 || (!!user.username && !!user.password_hash);
  if (!remains) throw errors.identificationDeletionFailed();

  await reassignPrimaryPhoneNumber(tx, userId, phone.id);
  await deletePhoneNumber(tx, phone.id);
  await deleteCodesOfSubjectPrefix(tx, `phone_number:${phone.id}:`);
  await ensureDefaultSecondFactorPhone(tx, userId, now);
  await dropBackupCodesWithoutSecondFactor(tx, userId);
  await touchUser(tx, userId, now);
}
