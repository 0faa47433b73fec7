import { errors } from '../../../errors.ts';
import { signInPhoneNumbers } from '../../../phone-numbers/phone-factors.ts';
import { phoneNumbersOfUser } from '../../../store/phone-numbers.ts';
import { emailAddressesOf, findUserById } from '../../../store/users.ts';
import type { FapiRoute } from '../../context.ts';
import { ownPhoneNumber, touchUser } from './own-phone-number.ts';
import {
  dropBackupCodesWithoutSecondFactor,
  ensureDefaultSecondFactorPhone,
  reassignPrimaryPhone,
} from './phone-roles.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';

/**
 * DELETE /me/phone_numbers/:id — Phone numbers → Remove, or the number's two-step verification entry.
 * Never the last way to sign in: a number goes only while a verified email address, another sign-in
 * number, or a username with a password remains (`identification_deletion_failed`). The primary role and
 * the default second factor pass to another number; backup codes go with the last second factor.
 */
export const deletePhoneNumberRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/phone_numbers/:id',
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

    await reassignPrimaryPhone(ctx, userId, phone.id);
    await ctx.tx.query('DELETE FROM phone_numbers WHERE id = $1', [phone.id]);
    await ctx.tx.query('DELETE FROM verification_codes WHERE subject LIKE $1', [
      `phone_number:${phone.id}:%`,
    ]);
    await ensureDefaultSecondFactorPhone(ctx, userId);
    await dropBackupCodesWithoutSecondFactor(ctx, userId);
    await touchUser(ctx, userId);
    return { response: { object: 'phone_number', id: phone.id, deleted: true } };
  },
});
