import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { UserRow, VerificationState } from './rows.ts';

export interface PhoneNumberRow {
  id: string;
  user_id: string;
  /** E.164. */
  phone_number: string;
  verified_at: Date | null;
  /** The pending code verification of a number added from the profile; null once verified. */
  verification: VerificationState | null;
  reserved_for_second_factor: boolean;
  default_second_factor: boolean;
  created_at: Date;
  updated_at: Date;
}

export async function phoneNumbersOf(
  db: Queryable,
  userIds: string[],
): Promise<Map<string, PhoneNumberRow[]>> {
  const map = new Map<string, PhoneNumberRow[]>();
  if (userIds.length === 0) return map;
  const rows = await db.query<PhoneNumberRow>(
    'SELECT * FROM phone_numbers WHERE user_id = ANY($1) ORDER BY created_at, id',
    [userIds],
  );
  for (const row of rows) map.set(row.user_id, [...(map.get(row.user_id) ?? []), row]);
  return map;
}

export async function phoneNumbersOfUser(db: Queryable, userId: string): Promise<PhoneNumberRow[]> {
  return (await phoneNumbersOf(db, [userId])).get(userId) ?? [];
}

/** One of the user's own numbers, locked for the request; another user's is as good as missing. */
export async function findOwnPhoneNumber(
  db: Queryable,
  userId: string,
  id: string,
): Promise<PhoneNumberRow | null> {
  const [row] = await db.query<PhoneNumberRow>(
    'SELECT * FROM phone_numbers WHERE id = $1 AND user_id = $2 FOR UPDATE',
    [id, userId],
  );
  return row ?? null;
}

/** The account that signs in with this number: verified, and not kept for two-step verification only. */
export async function findUserByPhoneNumber(db: Queryable, phone: string): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>(
    `SELECT u.* FROM users u JOIN phone_numbers p ON p.user_id = u.id
     WHERE p.phone_number = $1 AND p.verified_at IS NOT NULL AND NOT p.reserved_for_second_factor`,
    [phone],
  );
  return row ?? null;
}

/** Whether an account owns the number: only a verified number is owned. */
export async function phoneNumberTaken(db: Queryable, phone: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM phone_numbers WHERE phone_number = $1 AND verified_at IS NOT NULL',
    [phone],
  );
  return rows.length > 0;
}

/** Once a number is verified by one account, unverified copies of it on other accounts go. */
export async function dropUnverifiedPhoneCopies(
  db: Queryable,
  phone: string,
  ownerId: string,
): Promise<void> {
  await db.query(
    'DELETE FROM phone_numbers WHERE phone_number = $1 AND user_id <> $2 AND verified_at IS NULL',
    [phone, ownerId],
  );
}

export async function insertPhoneNumber(
  db: Queryable,
  input: { userId: string; phone: string; verifiedAt: Date | null; now: Date },
): Promise<PhoneNumberRow> {
  const [row] = await db.query<PhoneNumberRow>(
    `INSERT INTO phone_numbers (id, user_id, phone_number, verified_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5) RETURNING *`,
    [newId('idn'), input.userId, input.phone, input.verifiedAt, input.now],
  );
  return row!;
}

export async function setPhoneVerification(
  db: Queryable,
  id: string,
  verification: VerificationState,
  now: Date,
): Promise<PhoneNumberRow> {
  const [row] = await db.query<PhoneNumberRow>(
    'UPDATE phone_numbers SET verification = $2, updated_at = $3 WHERE id = $1 RETURNING *',
    [id, JSON.stringify(verification), now],
  );
  return row!;
}

export async function markPhoneVerified(db: Queryable, id: string, now: Date): Promise<PhoneNumberRow> {
  const [row] = await db.query<PhoneNumberRow>(
    'UPDATE phone_numbers SET verified_at = $2, verification = NULL, updated_at = $2 WHERE id = $1 RETURNING *',
    [id, now],
  );
  return row!;
}

export async function updatePhoneSecondFactor(
  db: Queryable,
  id: string,
  changes: { reserved_for_second_factor?: boolean; default_second_factor?: boolean },
  now: Date,
): Promise<PhoneNumberRow> {
  const keys = Object.keys(changes) as (keyof typeof changes)[];
  const [row] = await db.query<PhoneNumberRow>(
    `UPDATE phone_numbers SET ${[...keys.map((k, i) => `${k} = $${i + 3}`), 'updated_at = $2'].join(', ')}
     WHERE id = $1 RETURNING *`,
    [id, now, ...keys.map((k) => changes[k])],
  );
  return row!;
}

/** `phoneId` becomes the default second factor among the user's reserved numbers, the others stop being it. */
export async function makeDefaultSecondFactorPhone(
  db: Queryable,
  userId: string,
  phoneId: string,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE phone_numbers SET default_second_factor = (id = $2), updated_at = $3
         WHERE user_id = $1 AND reserved_for_second_factor`,
    [userId, phoneId, now],
  );
}

/** When reserved numbers exist and none is the default second factor, the oldest becomes it. */
export async function ensureDefaultSecondFactorPhone(
  db: Queryable,
  userId: string,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE phone_numbers SET default_second_factor = true, updated_at = $2
     WHERE id = (SELECT id FROM phone_numbers WHERE user_id = $1 AND reserved_for_second_factor
                 ORDER BY created_at, id LIMIT 1)
       AND NOT EXISTS (SELECT 1 FROM phone_numbers WHERE user_id = $1 AND reserved_for_second_factor
                       AND default_second_factor)`,
    [userId, now],
  );
}

export async function deletePhoneNumber(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM phone_numbers WHERE id = $1', [id]);
}
