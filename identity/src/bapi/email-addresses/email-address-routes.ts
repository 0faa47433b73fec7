import { errors } from '../../errors.ts';
import { emailAddressJSON } from '../../serializers/user.ts';
import {
  findEmailAddressById,
  lockEmailAddressById,
  lockIdentifierOwner,
  unverifyEmailAddress,
} from '../../store/admin-identifiers.ts';
import {
  deleteEmailAddress,
  emailAddressesOfUser,
  insertUnverifiedEmailAddress,
  markEmailVerified,
} from '../../store/email-addresses.ts';
import { setPrimaryEmailAddress, touchUser } from '../../store/user-profile.ts';
import { dropUnverifiedCopies, emailAddressTaken } from '../../store/users.ts';
import { deleteCodesOfSubjectPrefix } from '../../store/verification-codes.ts';
import { validateEmail } from '../../users/email-format.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/** As many as a user may add from the profile: a bound keeps one account from filling the table. */
const MAX_EMAIL_ADDRESSES = 20;

/** `verification.strategy` of an address the operator vouched for, as Clerk shows it. */
const ADMIN = 'admin';

const onlyVerifiedPrimary = () =>
  errors.paramValueInvalid('primary', 'Only a verified email address can be primary.');

/**
 * Backend API: `emailAddresses.getEmailAddress`, `createEmailAddress`, `updateEmailAddress`,
 * `deleteEmailAddress` (@clerk/backend 2.10.1), on any user's address by its id. An address the operator
 * marks verified signs in at once and is owned (unverified claims of it by others go); the primary one
 * stays verified, and is not deleted until another is made primary (`identification_deletion_failed`).
 * Each change is a `user.updated` webhook event (the triggers of migration 024).
 */
export const emailAddressRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/email_addresses/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const email = await findEmailAddressById(deps.db, req.params.id!);
      if (!email) throw errors.notFound('email address');
      return emailAddressJSON(email);
    },
  },
  {
    method: 'POST',
    path: '/v1/email_addresses',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({
        user_id: 'id',
        email_address: 'email',
        verified: 'boolean',
        primary: 'boolean',
        notify_primary_email_address_changed: 'boolean',
      }),
    },
    async handler(req, deps) {
      const f = req.fields;
      const userId = f.string('user_id');
      if (userId === undefined) throw errors.paramMissing('user_id');
      const raw = f.string('email_address');
      const verified = f.boolean('verified') ?? false;
      const primary = f.boolean('primary') ?? false;
      // No notice is mailed on a change of primary address (Clerk's default): the flag is read, not used.
      f.boolean('notify_primary_email_address_changed');
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const user = await lockIdentifierOwner(tx, userId);
        if (!user) throw errors.notFound('user');
        if (raw === undefined) throw errors.paramMissing('email_address');
        const email = validateEmail(raw);
        const mine = await emailAddressesOfUser(tx, userId);
        if (
          mine.some((e) => e.email_address.toLowerCase() === email) ||
          (await emailAddressTaken(tx, email))
        ) {
          throw errors.identifierExists('email_address');
        }
        if (mine.length >= MAX_EMAIL_ADDRESSES) {
          throw errors.paramValueInvalid(
            'email_address',
            `A user can have at most ${MAX_EMAIL_ADDRESSES} email addresses.`,
          );
        }
        if (primary && !verified) throw onlyVerifiedPrimary();
        let row = await insertUnverifiedEmailAddress(tx, userId, email, now);
        if (verified) {
          row = await markEmailVerified(tx, row.id, ADMIN, now);
          await dropUnverifiedCopies(tx, email, userId);
        }
        // The first verified address becomes primary, as Clerk does.
        if (verified && (primary || user.primary_email_address_id === null)) {
          await setPrimaryEmailAddress(tx, userId, row.id, now);
        } else {
          await touchUser(tx, userId, now);
        }
        return emailAddressJSON(row);
      });
    },
  },
  {
    method: 'PATCH',
    path: '/v1/email_addresses/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({
        verified: 'boolean',
        primary: 'boolean',
        notify_primary_email_address_changed: 'boolean',
      }),
    },
    async handler(req, deps) {
      const id = req.params.id!;
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const email = await lockEmailAddressById(tx, id);
        if (!email) throw errors.notFound('email address');
        const verified = req.fields.boolean('verified');
        const primary = req.fields.boolean('primary');
        req.fields.boolean('notify_primary_email_address_changed');
        const user = (await lockIdentifierOwner(tx, email.user_id))!;
        const isPrimary = user.primary_email_address_id === email.id;
        let nowVerified = !!email.verified_at;
        if (verified === true && !email.verified_at) {
          if (await emailAddressTaken(tx, email.email_address))
            throw errors.identifierExists('email_address');
          await markEmailVerified(tx, email.id, ADMIN, now);
          await dropUnverifiedCopies(tx, email.email_address, email.user_id);
          nowVerified = true;
        } else if (verified === false && email.verified_at) {
          if (isPrimary || primary === true) {
            throw errors.paramValueInvalid(
              'verified',
              'The primary email address stays verified: make another one primary first.',
            );
          }
          await unverifyEmailAddress(tx, email.id, now);
          nowVerified = false;
        }
        if (primary === true && !isPrimary) {
          if (!nowVerified) throw onlyVerifiedPrimary();
          await setPrimaryEmailAddress(tx, email.user_id, email.id, now);
        } else {
          await touchUser(tx, email.user_id, now);
        }
        return emailAddressJSON((await findEmailAddressById(tx, email.id))!);
      });
    },
  },
  {
    method: 'DELETE',
    path: '/v1/email_addresses/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const id = req.params.id!;
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const email = await lockEmailAddressById(tx, id);
        if (!email) throw errors.notFound('email address');
        const user = (await lockIdentifierOwner(tx, email.user_id))!;
        if (user.primary_email_address_id === email.id) throw errors.primaryEmailDeletionFailed();
        await deleteEmailAddress(tx, email.id);
        await deleteCodesOfSubjectPrefix(tx, `email_address:${email.id}:`);
        await touchUser(tx, email.user_id, now);
        return { object: 'email_address', id: email.id, deleted: true };
      });
    },
  },
];
