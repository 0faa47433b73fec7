import type { Queryable } from '../db/database.ts';

/*
 * The writes of the Backend API's user administration (`users.createUser`, `updateUser`, `deleteUser`, the
 * second-factor removals): a user made or changed by an operator, with verified identifiers.
 */

/** Whether another user already has this external id. */
export async function externalIdTaken(db: Queryable, externalId: string, exceptUserId: string | null) {
  const rows = await db.query(
    'SELECT 1 FROM users WHERE external_id = $1 AND ($2::text IS NULL OR id <> $2)',
    [externalId, exceptUserId],
  );
  return rows.length > 0;
}

/** The user's authenticator app, replaced by a verified one (the secret already sealed). */
export async function replaceVerifiedTotpSecret(
  tx: Queryable,
  row: { id: string; userId: string; sealedSecret: string; now: Date },
): Promise<void> {
  await tx.query('DELETE FROM totp_secrets WHERE user_id = $1', [row.userId]);
  await tx.query(
    `INSERT INTO totp_secrets (id, user_id, sealed_secret, verified_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4, $4)`,
    [row.id, row.userId, row.sealedSecret, row.now],
  );
}

export interface AdminUserRow {
  id: string;
  externalId: string | null;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  passwordHash: string | null;
  /** JSON texts. */
  publicMetadata: string;
  privateMetadata: string;
  unsafeMetadata: string;
  legalAcceptedAt: Date | null;
  createdAt: Date;
  now: Date;
}

/** A new user row (its password dated from its creation when it has one). */
export async function insertAdminUser(tx: Queryable, row: AdminUserRow): Promise<void> {
  await tx.query(
    `INSERT INTO users (id, external_id, first_name, last_name, username, password_hash, password_updated_at,
                        public_metadata, private_metadata, unsafe_metadata, legal_accepted_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6::text IS NULL THEN NULL ELSE $12::timestamptz END,
             $7, $8, $9, $10, $11, $12)`,
    [
      row.id,
      row.externalId,
      row.firstName,
      row.lastName,
      row.username,
      row.passwordHash,
      row.publicMetadata,
      row.privateMetadata,
      row.unsafeMetadata,
      row.legalAcceptedAt,
      row.createdAt,
      row.now,
    ],
  );
}

/** A verified address given by the operator; an unverified claim of it by anyone else is dropped. */
export async function addAdminVerifiedEmail(
  tx: Queryable,
  row: { id: string; userId: string; email: string; now: Date },
): Promise<void> {
  await tx.query(
    `DELETE FROM email_addresses WHERE lower(email_address) = lower($1) AND verified_at IS NULL`,
    [row.email],
  );
  await tx.query(
    `INSERT INTO email_addresses (id, user_id, email_address, verified_at, verification_strategy, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'admin', $4, $4)`,
    [row.id, row.userId, row.email, row.now],
  );
}

/** A verified number given by the operator; an unverified claim of it by anyone else is dropped. */
export async function addAdminVerifiedPhone(
  tx: Queryable,
  row: { id: string; userId: string; phone: string; now: Date },
): Promise<void> {
  await tx.query('DELETE FROM phone_numbers WHERE phone_number = $1 AND verified_at IS NULL', [row.phone]);
  await tx.query(
    `INSERT INTO phone_numbers (id, user_id, phone_number, verified_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4, $4)`,
    [row.id, row.userId, row.phone, row.now],
  );
}

export async function setPrimaryIdentifiers(
  tx: Queryable,
  userId: string,
  emailId: string | null,
  phoneId: string | null,
): Promise<void> {
  await tx.query(
    'UPDATE users SET primary_email_address_id = $2, primary_phone_number_id = $3 WHERE id = $1',
    [userId, emailId, phoneId],
  );
}

/** The user's row locked for this transaction; false when there is no such user. */
export async function lockUserRow(tx: Queryable, userId: string): Promise<boolean> {
  const rows = await tx.query<{ id: string }>('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  return rows.length > 0;
}

/** Numbers kept for two-step verification only stop being second factors (they stay on the account). */
export async function clearPhoneSecondFactors(tx: Queryable, userId: string): Promise<void> {
  await tx.query(
    `UPDATE phone_numbers SET reserved_for_second_factor = false, default_second_factor = false
     WHERE user_id = $1 AND (reserved_for_second_factor OR default_second_factor)`,
    [userId],
  );
}

/** The columns an operator may change on a user (`users.updateUser`). */
export const ADMIN_USER_COLUMNS = [
  'username',
  'first_name',
  'last_name',
  'external_id',
  'created_at',
  'legal_accepted_at',
  'public_metadata',
  'private_metadata',
  'unsafe_metadata',
  'create_organizations_limit',
  'delete_self_enabled',
  'create_organization_enabled',
  'primary_email_address_id',
  'primary_phone_number_id',
  'password_hash',
  'password_updated_at',
  'password_reset_required',
] as const;
export type AdminUserColumn = (typeof ADMIN_USER_COLUMNS)[number];

/** Sets the given columns (names from ADMIN_USER_COLUMNS only, never from input) and `updated_at`. */
export async function updateAdminUser(
  tx: Queryable,
  userId: string,
  changes: Partial<Record<AdminUserColumn, unknown>>,
  now: Date,
): Promise<void> {
  const keys = Object.keys(changes).filter((k): k is AdminUserColumn =>
    (ADMIN_USER_COLUMNS as readonly string[]).includes(k),
  );
  if (keys.length !== Object.keys(changes).length) throw new Error('updateAdminUser: unknown column');
  await tx.query(
    `UPDATE users SET ${[...keys.map((k, i) => `${k} = $${i + 3}`), 'updated_at = $2'].join(', ')} WHERE id = $1`,
    [userId, now, ...keys.map((k) => changes[k])],
  );
}
