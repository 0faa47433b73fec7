import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { validatePhoneNumber } from '../../phone-numbers/phone-number.ts';
import { validateEmail } from '../../users/email-format.ts';
import { insertNewUser, takenByAnotherUser, type NewUser } from '../../users/new-user.ts';
import { validateUsername } from '../../users/usernames.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';
import type { JsonBody } from '../request-input.ts';
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

function listField(values: string[] | undefined, name: string): string[] {
  if (!values) return [];
  if (values.length > MAX_IDENTIFIERS)
    throw errors.paramValueInvalid(name, `At most ${MAX_IDENTIFIERS} ${name} values.`);
  return values;
}

/**
 * The user a `users.createUser` body describes, validated as hosted Clerk does (the password hashed here,
 * before any transaction, so no connection waits on argon2). `users import` reads each of its users with
 * it too; it adds `id` (a user id to keep) and the unverified identifiers, which the route does not declare.
 */
export async function newUserOf(
  f: JsonBody,
  deps: Pick<IdentityDeps, 'config'>,
  opts: { id?: string; unverifiedEmails?: string[]; unverifiedPhones?: string[] } = {},
): Promise<NewUser> {
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
  // An import keeping a user's id keeps the user even when the old system had verified nothing of theirs.
  if (!emails.length && !phones.length && !username && !externalId && !opts.id)
    throw errors.paramMissing('email_address');
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
  return {
    id: opts.id ?? newId('user'),
    externalId: externalId ?? null,
    firstName: firstName ?? null,
    lastName: lastName ?? null,
    username: username ?? null,
    passwordHash: passwordHash ?? null,
    emails,
    phones,
    unverifiedEmails: (opts.unverifiedEmails ?? []).map(validateEmail).filter((e) => !emails.includes(e)),
    unverifiedPhones: (opts.unverifiedPhones ?? [])
      .map((p) => validatePhoneNumber(p, { testMode }))
      .filter((p) => !phones.includes(p)),
    metadata,
    legalAcceptedAt: legalAcceptedAt ?? null,
    createdAt: createdAt ?? null,
    totpSecret,
    backupCodes,
  };
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
    const user = await newUserOf(req.fields, deps);
    const now = deps.clock();
    await deps.db.transaction(async (tx) => {
      const taken = await takenByAnotherUser(tx, user);
      if (taken === 'external_id') {
        throw errors.paramValueInvalid('external_id', 'That external ID is taken. Please try another.');
      }
      if (taken === 'email_address' || taken === 'phone_number' || taken === 'username') {
        throw errors.identifierExists(taken);
      }
      await insertNewUser(tx, deps.keys, user, now);
    });
    return userAnswer(deps, user.id, now);
  },
};
