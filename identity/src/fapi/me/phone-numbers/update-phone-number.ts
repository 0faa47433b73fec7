import { errors } from '../../../errors.ts';
import { newBackupCodes } from '../../../second-factors/backup-codes.ts';
import {
  dropBackupCodesWithoutSecondFactor,
  secondFactorStateOf,
} from '../../../second-factors/second-factor-state.ts';
import { phoneNumberJSON } from '../../../serializers/phone-number.ts';
import { replaceBackupCodes } from '../../../store/backup-codes.ts';
import {
  ensureDefaultSecondFactorPhone,
  findOwnPhoneNumber,
  makeDefaultSecondFactorPhone,
  updatePhoneSecondFactor,
} from '../../../store/phone-numbers.ts';
import { reassignPrimaryPhoneNumber, touchUser } from '../../../store/user-profile.ts';
import type { FapiRoute } from '../../context.ts';
import { booleanField, field, has } from '../../form.ts';
import { ownPhoneNumber } from './own-phone-number.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

const FIELDS = ['reserved_for_second_factor', 'default_second_factor'];

/**
 * PATCH /me/phone_numbers/:id — Security → Two-step verification: `setReservedForSecondFactor` (add or
 * remove "SMS code") and `makeDefaultSecondFactor`. A reserved number is for two-step verification only
 * (no longer an identifier); the first reserved one is the default. As on hosted Clerk, turning on a
 * first second factor also creates backup codes, shown once in this answer.
 */
export const updatePhoneNumberRoute: FapiRoute = refusedToActors({
  method: 'PATCH',
  path: '/me/phone_numbers/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput({ reserved_for_second_factor: 'bool', default_second_factor: 'bool' }) },
  async handler(ctx) {
    const { session, phone } = await ownPhoneNumber(ctx);
    // Turning SMS codes on or off as a second factor is gated; choosing the default one is not.
    if (has(ctx.body, 'reserved_for_second_factor')) await requireReverification(ctx, session);
    const userId = session.user_id;
    const other = Object.keys(ctx.body).find((k) => !FIELDS.includes(k) && field(ctx.body, k) !== undefined);
    if (other) throw errors.paramValueInvalid(other, `${other} cannot be changed here.`);
    const reserve = booleanField(ctx.body, 'reserved_for_second_factor');
    const makeDefault = booleanField(ctx.body, 'default_second_factor');

    let backupCodes: string[] | undefined;
    if (reserve === true && !phone.reserved_for_second_factor) {
      if (!phone.verified_at) {
        throw errors.paramValueInvalid(
          'reserved_for_second_factor',
          'Verify this phone number before using it for two-step verification.',
        );
      }
      const before = await secondFactorStateOf(ctx.tx, userId);
      await updatePhoneSecondFactor(ctx.tx, phone.id, { reserved_for_second_factor: true }, ctx.now);
      await reassignPrimaryPhoneNumber(ctx.tx, userId, phone.id);
      await ensureDefaultSecondFactorPhone(ctx.tx, userId, ctx.now);
      if (!before.backupCodes) {
        backupCodes = newBackupCodes();
        await replaceBackupCodes(ctx.tx, {
          userId,
          codes: backupCodes,
          pepper: ctx.deps.keys.codePepper,
          now: ctx.now,
        });
      }
    } else if (reserve === false && phone.reserved_for_second_factor) {
      await updatePhoneSecondFactor(
        ctx.tx,
        phone.id,
        { reserved_for_second_factor: false, default_second_factor: false },
        ctx.now,
      );
      await ensureDefaultSecondFactorPhone(ctx.tx, userId, ctx.now);
      await dropBackupCodesWithoutSecondFactor(ctx.tx, userId);
    }

    if (makeDefault === true) {
      const current = (await findOwnPhoneNumber(ctx.tx, userId, phone.id))!;
      if (!current.reserved_for_second_factor) {
        throw errors.paramValueInvalid(
          'default_second_factor',
          'Only a phone number used for two-step verification can be the default.',
        );
      }
      await makeDefaultSecondFactorPhone(ctx.tx, userId, phone.id, ctx.now);
    }
    await touchUser(ctx.tx, userId, ctx.now);
    const updated = (await findOwnPhoneNumber(ctx.tx, userId, phone.id))!;
    return { response: phoneNumberJSON(updated, { backupCodes }) };
  },
});
