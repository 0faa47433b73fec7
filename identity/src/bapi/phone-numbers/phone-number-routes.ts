import type { Queryable } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { validatePhoneNumber } from '../../phone-numbers/phone-number.ts';
import { removePhoneNumber } from '../../phone-numbers/phone-removal.ts';
import { dropBackupCodesWithoutSecondFactor } from '../../second-factors/second-factor-state.ts';
import { phoneNumberJSON } from '../../serializers/phone-number.ts';
import {
  findPhoneNumberById,
  lockIdentifierOwner,
  lockPhoneNumberById,
  unverifyPhoneNumber,
} from '../../store/admin-identifiers.ts';
import {
  dropUnverifiedPhoneCopies,
  ensureDefaultSecondFactorPhone,
  insertPhoneNumber,
  markPhoneVerified,
  phoneNumbersOfUser,
  phoneNumberTaken,
  updatePhoneSecondFactor,
  type PhoneNumberRow,
} from '../../store/phone-numbers.ts';
import { reassignPrimaryPhoneNumber, setPrimaryPhoneNumber, touchUser } from '../../store/user-profile.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/** As many as a user may add from the profile. */
const MAX_PHONE_NUMBERS = 10;

const mustBeVerified = (param: string, what: string) =>
  errors.paramValueInvalid(param, `Only a verified phone number can ${what}.`);

/** Turns the number's two-step verification role on or off; the default second factor follows. */
async function setReserved(tx: Queryable, phone: PhoneNumberRow, reserved: boolean, now: Date) {
  if (reserved) {
    await updatePhoneSecondFactor(tx, phone.id, { reserved_for_second_factor: true }, now);
    // Kept for two-step verification only, it is no longer an identifier: nor the primary one.
    await reassignPrimaryPhoneNumber(tx, phone.user_id, phone.id);
  } else {
    await updatePhoneSecondFactor(
      tx,
      phone.id,
      { reserved_for_second_factor: false, default_second_factor: false },
      now,
    );
  }
  await ensureDefaultSecondFactorPhone(tx, phone.user_id, now);
  if (!reserved) await dropBackupCodesWithoutSecondFactor(tx, phone.user_id);
}

async function phoneAnswer(db: Queryable, id: string) {
  return phoneNumberJSON((await findPhoneNumberById(db, id))!);
}

/**
 * Backend API: `phoneNumbers.getPhoneNumber`, `createPhoneNumber`, `updatePhoneNumber`,
 * `deletePhoneNumber` (@clerk/backend 2.10.1), on any user's number by its id. A number the operator marks
 * verified signs in at once (SMS codes) and is owned; one reserved for second factor must be verified and
 * is then a second factor only (the first reserved one is the default). Deletion follows the profile's rule:
 * never the last way to sign in (phone-numbers/phone-removal.ts). Unlike the profile, reserving a number
 * here mints no backup codes: the operator could not hand them over.
 */
export const phoneNumberRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/phone_numbers/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const phone = await findPhoneNumberById(deps.db, req.params.id!);
      if (!phone) throw errors.notFound('phone number');
      return phoneNumberJSON(phone);
    },
  },
  {
    method: 'POST',
    path: '/v1/phone_numbers',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({
        user_id: 'id',
        phone_number: 'string',
        verified: 'boolean',
        primary: 'boolean',
        reserved_for_second_factor: 'boolean',
      }),
    },
    async handler(req, deps) {
      const f = req.fields;
      const userId = f.string('user_id');
      if (userId === undefined) throw errors.paramMissing('user_id');
      const raw = f.string('phone_number');
      const verified = f.boolean('verified') ?? false;
      const primary = f.boolean('primary') ?? false;
      const reserved = f.boolean('reserved_for_second_factor') ?? false;
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const user = await lockIdentifierOwner(tx, userId);
        if (!user) throw errors.notFound('user');
        if (raw === undefined) throw errors.paramMissing('phone_number');
        const phone = validatePhoneNumber(raw, { testMode: deps.config.mode === 'development' });
        const mine = await phoneNumbersOfUser(tx, userId);
        if (mine.some((p) => p.phone_number === phone) || (await phoneNumberTaken(tx, phone))) {
          throw errors.identifierExists('phone_number');
        }
        if (mine.length >= MAX_PHONE_NUMBERS) {
          throw errors.paramValueInvalid(
            'phone_number',
            `A user can have at most ${MAX_PHONE_NUMBERS} phone numbers.`,
          );
        }
        if (reserved && !verified) throw mustBeVerified('reserved_for_second_factor', 'be a second factor');
        if (primary && !verified) throw mustBeVerified('primary', 'be primary');
        if (primary && reserved) {
          throw errors.paramValueInvalid(
            'primary',
            'A phone number kept for two-step verification only cannot be primary.',
          );
        }
        const row = await insertPhoneNumber(tx, { userId, phone, verifiedAt: verified ? now : null, now });
        if (verified) await dropUnverifiedPhoneCopies(tx, phone, userId);
        if (reserved) await setReserved(tx, row, true, now);
        // The first verified sign-in number becomes primary, as Clerk does.
        else if (verified && (primary || user.primary_phone_number_id === null)) {
          await setPrimaryPhoneNumber(tx, userId, row.id);
        }
        await touchUser(tx, userId, now);
        return phoneAnswer(tx, row.id);
      });
    },
  },
  {
    method: 'PATCH',
    path: '/v1/phone_numbers/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({ verified: 'boolean', primary: 'boolean', reserved_for_second_factor: 'boolean' }),
    },
    async handler(req, deps) {
      const id = req.params.id!;
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        let phone = await lockPhoneNumberById(tx, id);
        if (!phone) throw errors.notFound('phone number');
        const verified = req.fields.boolean('verified');
        const primary = req.fields.boolean('primary');
        const reserved = req.fields.boolean('reserved_for_second_factor');
        const userId = phone.user_id;
        await lockIdentifierOwner(tx, userId);
        if (verified === true && !phone.verified_at) {
          if (await phoneNumberTaken(tx, phone.phone_number)) throw errors.identifierExists('phone_number');
          phone = await markPhoneVerified(tx, phone.id, now);
          await dropUnverifiedPhoneCopies(tx, phone.phone_number, userId);
        } else if (verified === false && phone.verified_at) {
          await unverifyPhoneNumber(tx, phone.id, now);
          await reassignPrimaryPhoneNumber(tx, userId, phone.id);
          await ensureDefaultSecondFactorPhone(tx, userId, now);
          await dropBackupCodesWithoutSecondFactor(tx, userId);
          phone = (await lockPhoneNumberById(tx, id))!;
        }
        if (reserved !== undefined && reserved !== phone.reserved_for_second_factor) {
          if (reserved && !phone.verified_at) {
            throw mustBeVerified('reserved_for_second_factor', 'be a second factor');
          }
          await setReserved(tx, phone, reserved, now);
          phone = (await lockPhoneNumberById(tx, id))!;
        }
        if (primary === true) {
          if (!phone.verified_at) throw mustBeVerified('primary', 'be primary');
          if (phone.reserved_for_second_factor) {
            throw errors.paramValueInvalid(
              'primary',
              'A phone number kept for two-step verification only cannot be primary.',
            );
          }
          await setPrimaryPhoneNumber(tx, userId, phone.id);
        }
        await touchUser(tx, userId, now);
        return phoneAnswer(tx, id);
      });
    },
  },
  {
    method: 'DELETE',
    path: '/v1/phone_numbers/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const phone = await lockPhoneNumberById(tx, req.params.id!);
        if (!phone) throw errors.notFound('phone number');
        await lockIdentifierOwner(tx, phone.user_id);
        await removePhoneNumber(tx, phone.user_id, phone, now);
        return { object: 'phone_number', id: phone.id, deleted: true };
      });
    },
  },
];
