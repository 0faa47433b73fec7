import { errors } from '../../errors.ts';
import { findOwnEmailAddressUnlocked } from '../../store/email-addresses.ts';
import { updateProfile, usernameTaken, type ProfileChanges } from '../../store/user-profile.ts';
import { validateUsername } from '../../users/usernames.ts';
import type { FapiRoute } from '../context.ts';
import { field, has, jsonObjectField } from '../form.ts';
import { parseSignUpInput } from '../sign-ups/validate.ts';
import { currentSession } from './me-session.ts';
import { meResponse } from './me-routes.ts';
import { refusedToActors } from './actor-guard.ts';
import { primaryPhoneNumberFor } from './phone-numbers/primary-phone-number.ts';
import { requireReverification } from '../../reverification/require-reverification.ts';
import { setPrimaryWeb3Wallet } from '../../store/web3-wallets.ts';
import { formInput } from '../form-input.ts';

/** What `user.update()` may send; anything else non-empty is refused rather than silently ignored. */
const FIELDS = [
  'first_name',
  'last_name',
  'username',
  'primary_email_address_id',
  'primary_phone_number_id',
  'primary_web3_wallet_id',
  'unsafe_metadata',
];
const CREDENTIAL_FIELDS = [
  'username',
  'primary_email_address_id',
  'primary_phone_number_id',
  'primary_web3_wallet_id',
];
const UNIQUE_VIOLATION = '23505';

/**
 * PATCH /me — `user.update()`: the profile form (names), the username form, "Set as primary" on an
 * email address, and `unsafeMetadata` (replaced whole, as Clerk does). Only the fields sent change.
 */
export const updateMeRoute: FapiRoute = refusedToActors(
  {
    method: 'PATCH',
    path: '/me',
    auth: 'session',
    permission: null,
    input: {
      body: formInput({
        first_name: 'text',
        last_name: 'text',
        username: 'text',
        primary_email_address_id: 'id',
        primary_phone_number_id: 'id',
        primary_web3_wallet_id: 'id',
        unsafe_metadata: 'json',
      }),
    },
    async handler(ctx) {
      const session = await currentSession(ctx);
      const userId = session.user_id;
      // clerk-js gates the username form and "Set as primary", not the names or the metadata.
      if (CREDENTIAL_FIELDS.some((k) => has(ctx.body, k))) await requireReverification(ctx, session);
      const other = Object.keys(ctx.body).find(
        (k) => !FIELDS.includes(k) && field(ctx.body, k) !== undefined,
      );
      if (other) throw errors.paramValueInvalid(other, `${other} cannot be changed here.`);

      const changes: ProfileChanges = {};

      const names = parseSignUpInput(
        { first_name: ctx.body.first_name, last_name: ctx.body.last_name },
        ctx.deps.config.passwordPolicy,
      );
      if (has(ctx.body, 'first_name')) changes.first_name = names.firstName ?? null;
      if (has(ctx.body, 'last_name')) changes.last_name = names.lastName ?? null;

      if (has(ctx.body, 'username')) {
        // The username is optional on this instance: an empty value removes it.
        const raw = field(ctx.body, 'username');
        const username = raw === undefined ? null : validateUsername(raw);
        if (username && (await usernameTaken(ctx.tx, username, userId)))
          throw errors.identifierExists('username');
        changes.username = username;
      }

      const primaryId = field(ctx.body, 'primary_email_address_id');
      if (primaryId !== undefined) {
        const email = await findOwnEmailAddressUnlocked(ctx.tx, userId, primaryId);
        if (!email) {
          throw errors.paramValueInvalid(
            'primary_email_address_id',
            'No such email address on this account.',
          );
        }
        if (!email.verified_at) {
          throw errors.paramValueInvalid(
            'primary_email_address_id',
            'Verify this email address before making it primary.',
          );
        }
        changes.primary_email_address_id = email.id;
      }

      const primaryPhoneId = field(ctx.body, 'primary_phone_number_id');
      if (primaryPhoneId !== undefined) {
        changes.primary_phone_number_id = await primaryPhoneNumberFor(ctx.tx, userId, primaryPhoneId);
      }

      // Web3 wallets → "Set as primary" (written at once: only a verified wallet of this user qualifies).
      const primaryWalletId = field(ctx.body, 'primary_web3_wallet_id');
      if (
        primaryWalletId !== undefined &&
        !(await setPrimaryWeb3Wallet(ctx.tx, userId, primaryWalletId, ctx.now))
      ) {
        throw errors.paramValueInvalid(
          'primary_web3_wallet_id',
          'No such verified web3 wallet on this account.',
        );
      }

      const unsafeMetadata = jsonObjectField(ctx.body, 'unsafe_metadata');
      if (unsafeMetadata !== undefined) changes.unsafe_metadata = unsafeMetadata;

      if (Object.keys(changes).length) {
        await updateProfile(ctx.tx, userId, changes, ctx.now).catch((err: unknown) => {
          // Two users taking one username at the same moment: the unique index decides.
          if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw errors.identifierExists('username');
          throw err;
        });
      }
      return meResponse(ctx, userId);
    },
  },
  // Names and metadata an operator may fix; the username and the primary address are sign-in identifiers.
  (ctx) => CREDENTIAL_FIELDS.some((k) => has(ctx.body, k)),
);
