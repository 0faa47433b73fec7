import { errors } from '../../../errors.ts';
import { signInPhoneNumbers } from '../../../phone-numbers/phone-factors.ts';
import {
  deletePhoneNumber,
  ensureDefaultSecondFactorPhone,
  phoneNumbersOfUser,
} from '../../../store/phone-numbers.ts';
import { reassignPrimaryPhoneNumber, touchUser } from '../../../store/user-profile.ts';
import { emailAddressesOf, findUserById } from '../../../store/users.ts';
import { deleteCodesOfSubjectPrefix } from '../../../store/verification-codes.ts';
import type { FapiRoute } from '../../context.ts';
import { ownPhoneNumber } from './own-phone-number.ts';
import { dropBackupCodesWithoutSecondFactor } from './phone-roles.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

/**
 * DELETE /me/phone_numbers/:id — Phone numbers → Remove, or the number's two-step verification entry.
 * Never the last way to sign in: a number goes only while a verified email address, another sign-in
 * number, or a username with a password remains (`identification_deletion_failed`). The primary role and
 * the default second factor pass to another number; backup codes go with the last second factor.
 */
export const deletePhoneNumberRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/phone_numbers/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const { session, phone } = await ownPhoneNumber(ctx);
    await requireReverification(ctx, session);
    const userId = session.user_id;
    const user = (await findUserById(ctx.tx, userId))!;
    const emails = (await emailAddressesOf(ctx.tx, [userId])).get(userId) ?? [];
    const otherPhones = signInPhoneNumbers(await phoneNumbersOfUser(ctx.tx, userId)).filter(
      (p) => p.id !== phone.id,
    );
    const remains =
      emails.some((e) => e.verified_at) ||
      otherPhones.length > 0 ||
      (!!user.username && !!user.password_hash);
    if (!remains) throw errors.identificationDeletionFailed();

    await reassignPrimaryPhoneNumber(ctx.tx, userId, phone.id);
    await deletePhoneNumber(ctx.tx, phone.id);
    await deleteCodesOfSubjectPrefix(ctx.tx, `phone_number:${phone.id}:`);
    await ensureDefaultSecondFactorPhone(ctx.tx, userId, ctx.now);
    await dropBackupCodesWithoutSecondFactor(ctx, userId);
    await touchUser(ctx.tx, userId, ctx.now);
    return { response: { object: 'phone_number', id: phone.id, deleted: true } };
  },
});
