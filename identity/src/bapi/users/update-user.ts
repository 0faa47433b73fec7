import { requireUser } from './require-user.ts';
import { errors } from '../../errors.ts';
import { findOwnEmailAddress } from '../../store/email-addresses.ts';
import { findOwnPhoneNumber } from '../../store/phone-numbers.ts';
import { usernameTaken } from '../../store/user-profile.ts';
import { revokeSessionsOfUser } from '../../store/user-sessions.ts';
import { validateUsername } from '../../users/usernames.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';
import { externalIdTaken, updateAdminUser, type AdminUserColumn } from '../../store/admin-users.ts';
import { setSecondFactors } from '../../users/new-user.ts';
import {
  backupCodesField,
  dateField,
  externalIdField,
  nameField,
  passwordHashOf,
  totpSecretField,
  USER_WRITE_FIELDS,
} from './user-fields.ts';
import { userAnswer } from './user-routes.ts';

/**
 * PATCH /v1/users/:id — `users.updateUser`: the fields given change, the others stay. Metadata given here
 * replaces the object (use `updateUserMetadata` to merge); a new password (or imported digest) may sign the
 * user out of every session (`sign_out_of_other_sessions`); primary email/phone must be the user's own
 * verified ones.
 */
export const updateUserRoute: BapiRoute = {
  method: 'PATCH',
  path: '/v1/users/:id',
  auth: 'secret_key',
  permission: 'instance_secret_key',
  audit: {
    before: {
      row: 'user',
      params: ['id'],
      columns: [
        'external_id',
        'first_name',
        'last_name',
        'username',
        'legal_accepted_at',
        'created_at',
        'primary_email_address_id',
        'primary_phone_number_id',
        'delete_self_enabled',
        'create_organization_enabled',
        'create_organizations_limit',
      ],
    },
  },
  input: {
    body: jsonInput({
      ...USER_WRITE_FIELDS,
      sign_out_of_other_sessions: 'boolean',
      primary_email_address_id: 'string',
      primary_phone_number_id: 'string',
      notify_primary_email_address_changed: 'boolean',
      delete_self_enabled: 'boolean',
      create_organization_enabled: 'boolean',
      create_organizations_limit: 'integer',
    }),
  },
  async handler(req, deps) {
    const id = req.params.id!;
    const f = req.fields;
    await requireUser(deps.db, id);
    const changes: Partial<Record<AdminUserColumn, unknown>> = {};
    const rawUsername = f.string('username');
    if (rawUsername !== undefined)
      changes.username = rawUsername === '' ? null : validateUsername(rawUsername);
    const firstName = nameField(f, 'first_name');
    if (firstName !== undefined) changes.first_name = firstName;
    const lastName = nameField(f, 'last_name');
    if (lastName !== undefined) changes.last_name = lastName;
    const externalId = externalIdField(f);
    if (externalId !== undefined) changes.external_id = externalId;
    const createdAt = dateField(f, 'created_at');
    if (createdAt) changes.created_at = createdAt;
    const legalAcceptedAt = dateField(f, 'legal_accepted_at');
    if (legalAcceptedAt) changes.legal_accepted_at = legalAcceptedAt;
    for (const key of ['public_metadata', 'private_metadata', 'unsafe_metadata'] as const) {
      const value = f.object(key);
      if (value !== undefined) changes[key] = JSON.stringify(value);
    }
    for (const key of ['delete_self_enabled', 'create_organization_enabled'] as const) {
      const value = f.boolean(key);
      if (value !== undefined) changes[key] = value;
    }
    const limit = f.integer('create_organizations_limit');
    if (limit !== undefined) {
      if (limit < 0 || limit > 100_000) {
        throw errors.paramValueInvalid(
          'create_organizations_limit',
          'create_organizations_limit must be 0 or more.',
        );
      }
      changes.create_organizations_limit = limit === 0 ? null : limit;
    }
    const totpSecret = totpSecretField(f);
    const backupCodes = backupCodesField(f);
    const primaryEmailId = f.string('primary_email_address_id');
    const primaryPhoneId = f.string('primary_phone_number_id');
    const signOut = f.boolean('sign_out_of_other_sessions') ?? false;
    const passwordHash = await passwordHashOf(f, deps);
    const now = deps.clock();
    await deps.db.transaction(async (tx) => {
      await requireUser(tx, id);
      if (typeof changes.username === 'string' && (await usernameTaken(tx, changes.username, id))) {
        throw errors.identifierExists('username');
      }
      if (typeof changes.external_id === 'string' && (await externalIdTaken(tx, changes.external_id, id))) {
        throw errors.paramValueInvalid('external_id', 'That external ID is taken. Please try another.');
      }
      if (primaryEmailId !== undefined) {
        const email = await findOwnEmailAddress(tx, id, primaryEmailId);
        if (!email?.verified_at) {
          throw errors.paramValueInvalid(
            'primary_email_address_id',
            'The primary email address must be a verified address of the user.',
          );
        }
        changes.primary_email_address_id = email.id;
      }
      if (primaryPhoneId !== undefined) {
        const phone = await findOwnPhoneNumber(tx, id, primaryPhoneId);
        if (!phone?.verified_at) {
          throw errors.paramValueInvalid(
            'primary_phone_number_id',
            'The primary phone number must be a verified number of the user.',
          );
        }
        changes.primary_phone_number_id = phone.id;
      }
      if (passwordHash !== undefined) {
        changes.password_hash = passwordHash;
        changes.password_updated_at = now;
        changes.password_reset_required = false;
      }
      await updateAdminUser(tx, id, changes, now);
      await setSecondFactors(tx, deps.keys, id, { totpSecret, backupCodes }, now);
      if (passwordHash !== undefined && signOut) await revokeSessionsOfUser(tx, id, now);
    });
    return userAnswer(deps, id, now);
  },
};
