import { seal } from '../crypto/sealing.ts';
import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { totpSealingKey } from '../second-factors/totp.ts';
import {
  addAdminVerifiedEmail,
  addAdminVerifiedPhone,
  externalIdTaken,
  insertAdminUser,
  replaceVerifiedTotpSecret,
  setPrimaryIdentifiers,
} from '../store/admin-users.ts';
import { replaceBackupCodes } from '../store/backup-codes.ts';
import { phoneNumberTaken } from '../store/phone-numbers.ts';
import { addUnverifiedEmail, addUnverifiedPhone, userIdTaken } from '../store/user-transfer.ts';
import { usernameTaken } from '../store/user-profile.ts';
import { emailAddressTaken } from '../store/users.ts';

/** The keys a new user's second factors are kept under. */
export interface SecondFactorKeys {
  /** The instance secret key: TOTP secrets are sealed under a key derived from it. */
  secretKey: string;
  /** The pepper of backup code hashes. */
  codePepper: string;
}

/** A user given whole by an operator (`users.createUser`, `users import`), already validated. */
export interface NewUser {
  id: string;
  externalId: string | null;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  /** argon2, or an imported digest as `storedImportedDigest` keeps it. */
  passwordHash: string | null;
  /** Verified, the first primary. */
  emails: string[];
  phones: string[];
  /** Not verified (an import brings them as the old system had them). */
  unverifiedEmails: string[];
  unverifiedPhones: string[];
  metadata: {
    public_metadata: Record<string, unknown>;
    private_metadata: Record<string, unknown>;
    unsafe_metadata: Record<string, unknown>;
  };
  legalAcceptedAt: Date | null;
  createdAt: Date | null;
  /** Base32. */
  totpSecret?: string;
  backupCodes?: string[];
}

/** What of the new user another one already has: its id, an identifier or its external id; null when none. */
export async function takenByAnotherUser(
  tx: Queryable,
  user: Pick<NewUser, 'id' | 'externalId' | 'emails' | 'phones' | 'username'>,
): Promise<'id' | 'external_id' | 'email_address' | 'phone_number' | 'username' | null> {
  if (await userIdTaken(tx, user.id)) return 'id';
  for (const email of user.emails) if (await emailAddressTaken(tx, email)) return 'email_address';
  for (const phone of user.phones) if (await phoneNumberTaken(tx, phone)) return 'phone_number';
  if (user.username && (await usernameTaken(tx, user.username))) return 'username';
  if (user.externalId && (await externalIdTaken(tx, user.externalId, null))) return 'external_id';
  return null;
}

/** A verified authenticator app (and backup codes) given by the operator, as if the user had set them up. */
export async function setSecondFactors(
  tx: Queryable,
  keys: SecondFactorKeys,
  userId: string,
  input: { totpSecret?: string; backupCodes?: string[] },
  now: Date,
): Promise<void> {
  if (input.totpSecret !== undefined) {
    const id = newId('totp');
    const sealedSecret = seal(totpSealingKey(keys.secretKey), input.totpSecret, id);
    await replaceVerifiedTotpSecret(tx, { id, userId, sealedSecret, now });
  }
  if (input.backupCodes !== undefined) {
    await replaceBackupCodes(tx, { userId, codes: input.backupCodes, pepper: keys.codePepper, now });
  }
}

/**
 * Writes the user, its identifiers (the first verified email address and phone number primary) and its
 * second factors, in the caller's transaction; the caller has checked `takenByAnotherUser` in it.
 */
export async function insertNewUser(
  tx: Queryable,
  keys: SecondFactorKeys,
  user: NewUser,
  now: Date,
): Promise<void> {
  await insertAdminUser(tx, {
    id: user.id,
    externalId: user.externalId,
    firstName: user.firstName,
    lastName: user.lastName,
    username: user.username,
    passwordHash: user.passwordHash,
    publicMetadata: JSON.stringify(user.metadata.public_metadata),
    privateMetadata: JSON.stringify(user.metadata.private_metadata),
    unsafeMetadata: JSON.stringify(user.metadata.unsafe_metadata),
    legalAcceptedAt: user.legalAcceptedAt,
    createdAt: user.createdAt ?? now,
    now,
  });
  const emailIds = user.emails.map(() => newId('idn'));
  const phoneIds = user.phones.map(() => newId('idn'));
  for (const [i, email] of user.emails.entries()) {
    await addAdminVerifiedEmail(tx, { id: emailIds[i]!, userId: user.id, email, now });
  }
  for (const [i, phone] of user.phones.entries()) {
    await addAdminVerifiedPhone(tx, { id: phoneIds[i]!, userId: user.id, phone, now });
  }
  for (const email of user.unverifiedEmails) {
    // An address another account has verified is theirs: the copy is not brought.
    if (!(await emailAddressTaken(tx, email))) {
      await addUnverifiedEmail(tx, { id: newId('idn'), userId: user.id, email, now });
    }
  }
  for (const phone of user.unverifiedPhones) {
    if (!(await phoneNumberTaken(tx, phone))) {
      await addUnverifiedPhone(tx, { id: newId('idn'), userId: user.id, phone, now });
    }
  }
  await setPrimaryIdentifiers(tx, user.id, emailIds[0] ?? null, phoneIds[0] ?? null);
  await setSecondFactors(
    tx,
    keys,
    user.id,
    { totpSecret: user.totpSecret, backupCodes: user.backupCodes },
    now,
  );
}
