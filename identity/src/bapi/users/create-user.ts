import { seal } from '../../crypto/sealing.ts';
import type { Queryable } from '../../db/database.ts';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { validatePhoneNumber } from '../../phone-numbers/phone-number.ts';
import { totpSealingKey } from '../../second-factors/totp.ts';
import {
  addAdminVerifiedEmail,
  addAdminVerifiedPhone,
  externalIdTaken,
  insertAdminUser,
  replaceVerifiedTotpSecret,
  setPrimaryIdentifiers,
} from '../../store/admin-users.ts';
import { replaceBackupCodes } from '../../store/backup-codes.ts';
import { phoneNumberTaken } from '../../store/phone-numbers.ts';
import { usernameTaken } from '../../store/user-profile.ts';
import { emailAddressTaken } from '../../store/users.ts';
import { validateEmail } from '../../users/email-format.ts';
import { validateUsername } from '../../users/usernames.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';
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

const MAX_IDENTIFIERS = 10;

/** A verified authenticator app (and backup codes) given by the operator, as if the user had set them up. */
export async function setSecondFactors(
  tx: Queryable,
  deps: IdentityDeps,
  userId: string,
  input: { totpSecret?: string; backupCodes?: string[] },
  now: Date,
): Promise<void> {
  if (input.totpSecret !== undefined) {
    const id = newId('totp');
    const sealedSecret = seal(totpSealingKey(deps.keys.secretKey), input.totpSecret, id);
    await replaceVerifiedTotpSecret(tx, { id, userId, sealedSecret, now });
  }
  if (input.backupCodes !== undefined) {
    await replaceBackupCodes(tx, { userId, codes: input.backupCodes, pepper: deps.keys.codePepper, now });
  }
}

function listField(values: string[] | undefined, name: string): string[] {
  if (!values) return [];
  if (values.length > MAX_IDENTIFIERS)
    throw errors.paramValueInvalid(name, `At most ${MAX_IDENTIFIERS} ${name} values.`);
  return values;
}

/**
 * POST /v1/users — `users.createUser`: a user with verified email addresses and phone numbers (the first of
 * each primary), a username, a password (plaintext, checked unless `skip_password_checks`, or an imported
 * `password_digest` + `password_hasher`), names, an external id, metadata, TOTP and backup codes. Every
 * identifier is checked free before anything is written; the whole user is written in one transaction.
 */
export const createUserRoute: BapiRoute = {
  method: 'POST',
  path: '/v1/users',
  auth: 'secret_key',
  permission: 'instance_secret_key',
  input: {
    body: jsonInput({
      ...USER_WRITE_FIELDS,
      email_address: 'strings',
      phone_number: 'strings',
      skip_password_requirement: 'boolean',
    }),
  },
  async handler(req, deps) {
    const f = req.fields;
    const emails = [...new Set(listField(f.strings('email_address'), 'email_address').map(validateEmail))];
    const testMode = deps.config.mode === 'development';
    const phones = [
      ...new Set(
        listField(f.strings('phone_number'), 'phone_number').map((p) => validatePhoneNumber(p, { testMode })),
      ),
    ];
    const rawUsername = f.string('username');
    const username = rawUsername === undefined ? undefined : validateUsername(rawUsername);
    const firstName = nameField(f, 'first_name');
    const lastName = nameField(f, 'last_name');
    const externalId = externalIdField(f);
    const createdAt = dateField(f, 'created_at');
    const legalAcceptedAt = dateField(f, 'legal_accepted_at');
    const totpSecret = totpSecretField(f);
    const backupCodes = backupCodesField(f);
    const metadata = {
      public_metadata: f.object('public_metadata') ?? {},
      private_metadata: f.object('private_metadata') ?? {},
      unsafe_metadata: f.object('unsafe_metadata') ?? {},
    };
    if (!emails.length && !phones.length && !username && !externalId)
      throw errors.paramMissing('email_address');
    // The slow hash before the transaction, so no connection waits on argon2.
    const passwordHash = await passwordHashOf(f, deps);
    if (
      passwordHash === undefined &&
      !f.boolean('skip_password_requirement') &&
      !emails.length &&
      !phones.length
    ) {
      // Nothing else to sign in with: a password is needed.
      throw errors.paramMissing('password');
    }
    const now = deps.clock();
    const userId = newId('user');
    await deps.db.transaction(async (tx) => {
      for (const email of emails)
        if (await emailAddressTaken(tx, email)) throw errors.identifierExists('email_address');
      for (const phone of phones)
        if (await phoneNumberTaken(tx, phone)) throw errors.identifierExists('phone_number');
      if (username && (await usernameTaken(tx, username))) throw errors.identifierExists('username');
      if (externalId && (await externalIdTaken(tx, externalId, null))) {
        throw errors.paramValueInvalid('external_id', 'That external ID is taken. Please try another.');
      }
      const emailIds = emails.map(() => newId('idn'));
      const phoneIds = phones.map(() => newId('idn'));
      const created = createdAt ?? now;
      await insertAdminUser(tx, {
        id: userId,
        externalId: externalId ?? null,
        firstName: firstName ?? null,
        lastName: lastName ?? null,
        username: username ?? null,
        passwordHash: passwordHash ?? null,
        publicMetadata: JSON.stringify(metadata.public_metadata),
        privateMetadata: JSON.stringify(metadata.private_metadata),
        unsafeMetadata: JSON.stringify(metadata.unsafe_metadata),
        legalAcceptedAt: legalAcceptedAt ?? null,
        createdAt: created,
        now,
      });
      for (const [i, email] of emails.entries()) {
        await addAdminVerifiedEmail(tx, { id: emailIds[i]!, userId, email, now });
      }
      for (const [i, phone] of phones.entries()) {
        await addAdminVerifiedPhone(tx, { id: phoneIds[i]!, userId, phone, now });
      }
      await setPrimaryIdentifiers(tx, userId, emailIds[0] ?? null, phoneIds[0] ?? null);
      await setSecondFactors(tx, deps, userId, { totpSecret, backupCodes }, now);
    });
    return userAnswer(deps, userId, now);
  },
};
