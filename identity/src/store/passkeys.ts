import type { Queryable } from '../db/database.ts';

/** A row of `passkeys` (migration 019). `counter` is a bigint, read as a string by pg. */
export interface PasskeyRow {
  id: string;
  user_id: string;
  name: string | null;
  credential_id: string | null;
  public_key: Buffer | null;
  counter: string;
  transports: string[];
  backed_up: boolean;
  challenge_hash: string | null;
  challenge_expire_at: Date | null;
  verified_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What a user's JSON shows of a verified passkey (store/owners.ts embeds these). */
export type PasskeySummary = Pick<
  PasskeyRow,
  'id' | 'user_id' | 'name' | 'verified_at' | 'last_used_at' | 'created_at' | 'updated_at'
>;

/** The columns of PasskeySummary, for the owners statement's `json_build_object`. */
export const PASSKEY_SUMMARY_COLUMNS = [
  'id',
  'user_id',
  'name',
  'verified_at',
  'last_used_at',
  'created_at',
  'updated_at',
] as const;

/** A new passkey waiting for its credential, with the registration challenge's hash. */
export async function insertPendingPasskey(
  tx: Queryable,
  input: { id: string; userId: string; challengeHash: string; expireAt: Date; now: Date },
): Promise<PasskeyRow> {
  const [row] = await tx.query<PasskeyRow>(
    `INSERT INTO passkeys (id, user_id, challenge_hash, challenge_expire_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5) RETURNING *`,
    [input.id, input.userId, input.challengeHash, input.expireAt, input.now],
  );
  return row!;
}

/** The user's passkey (verified or not), locked for the rest of the transaction; another user's is null. */
export async function findOwnPasskey(tx: Queryable, userId: string, id: string): Promise<PasskeyRow | null> {
  const [row] = await tx.query<PasskeyRow>(
    'SELECT * FROM passkeys WHERE id = $1 AND user_id = $2 FOR UPDATE',
    [id, userId],
  );
  return row ?? null;
}

/** The user's verified credentials: excluded from a new registration, allowed in an identified sign-in. */
export async function credentialsOf(
  db: Queryable,
  userId: string,
): Promise<{ credential_id: string; transports: string[] }[]> {
  return db.query(
    `SELECT credential_id, transports FROM passkeys
     WHERE user_id = $1 AND verified_at IS NOT NULL ORDER BY created_at, id`,
    [userId],
  );
}

/** The verified passkey holding this credential, locked (its counter is checked and moved under the lock). */
export async function findPasskeyByCredential(
  tx: Queryable,
  credentialId: string,
): Promise<PasskeyRow | null> {
  const [row] = await tx.query<PasskeyRow>(
    'SELECT * FROM passkeys WHERE credential_id = $1 AND verified_at IS NOT NULL FOR UPDATE',
    [credentialId],
  );
  return row ?? null;
}

/** Whether any passkey (of anyone) holds this credential already. */
export async function credentialTaken(tx: Queryable, credentialId: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM passkeys WHERE credential_id = $1', [credentialId]);
  return rows.length > 0;
}

/** Clears the registration challenge: it is spent by the attempt, right or wrong. */
export async function spendRegistrationChallenge(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query(
    'UPDATE passkeys SET challenge_hash = NULL, challenge_expire_at = NULL, updated_at = $2 WHERE id = $1',
    [id, now],
  );
}

/**
 * The credential checked: the passkey is verified with it. Answers null when another row took the same
 * credential id meanwhile (the unique index refuses it; the caller answers as for a taken credential).
 */
export async function verifyPasskeyCredential(
  tx: Queryable,
  input: {
    id: string;
    name: string;
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    backedUp: boolean;
    now: Date;
  },
): Promise<PasskeyRow | null> {
  const [row] = await tx.query<PasskeyRow>(
    `UPDATE passkeys SET name = $2, credential_id = $3, public_key = $4, counter = $5, transports = $6,
       backed_up = $7, challenge_hash = NULL, challenge_expire_at = NULL, verified_at = $8, updated_at = $8
     WHERE id = $1
       AND NOT EXISTS (SELECT 1 FROM passkeys o WHERE o.credential_id = $3)
     RETURNING *`,
    [
      input.id,
      input.name,
      input.credentialId,
      Buffer.from(input.publicKey),
      input.counter,
      JSON.stringify(input.transports),
      input.backedUp,
      input.now,
    ],
  );
  return row ?? null;
}

/**
 * A sign-in used the passkey: its counter moves to what the authenticator said, if it is still what the
 * check compared it with (false otherwise: a concurrent use of the same credential).
 */
export async function recordPasskeyUse(
  tx: Queryable,
  input: { id: string; previousCounter: string; counter: number; now: Date },
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE passkeys SET counter = $3, last_used_at = $4, updated_at = $4
     WHERE id = $1 AND counter = $2 RETURNING 1`,
    [input.id, input.previousCounter, input.counter, input.now],
  );
  return rows.length > 0;
}

export async function renamePasskey(tx: Queryable, id: string, name: string, now: Date): Promise<PasskeyRow> {
  const [row] = await tx.query<PasskeyRow>(
    'UPDATE passkeys SET name = $2, updated_at = $3 WHERE id = $1 RETURNING *',
    [id, name, now],
  );
  return row!;
}

export async function deletePasskey(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM passkeys WHERE id = $1', [id]);
}

/**
 * The authentication challenge (its hash) of a sign-in (`sign_in:<id>`) or a session re-verification
 * (`session_verification:<id>`), replacing any earlier one of the same subject.
 */
export async function putAuthenticationChallenge(
  tx: Queryable,
  input: { subject: string; challengeHash: string; expireAt: Date; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO passkey_challenges (subject, challenge_hash, expire_at, created_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (subject) DO UPDATE SET challenge_hash = $2, expire_at = $3, created_at = $4`,
    [input.subject, input.challengeHash, input.expireAt, input.now],
  );
}

/** Takes the subject's challenge away (single use) and answers it, or null if there is none. */
export async function takeAuthenticationChallenge(
  tx: Queryable,
  subject: string,
): Promise<{ challenge_hash: string; expire_at: Date } | null> {
  const [row] = await tx.query<{ challenge_hash: string; expire_at: Date }>(
    'DELETE FROM passkey_challenges WHERE subject = $1 RETURNING challenge_hash, expire_at',
    [subject],
  );
  return row ?? null;
}

/**
 * Forgets the user's passkeys still waiting for a credential (a registration abandoned, or started again)
 * and answers how many verified ones the user has.
 */
export async function dropPendingPasskeys(tx: Queryable, userId: string): Promise<number> {
  await tx.query('DELETE FROM passkeys WHERE user_id = $1 AND verified_at IS NULL', [userId]);
  const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1', [
    userId,
  ]);
  return row!.n;
}

/** The user's verified passkeys as their JSON shows them (what store/owners.ts embeds, read on its own). */
export async function passkeySummariesOf(db: Queryable, userId: string): Promise<PasskeySummary[]> {
  return db.query<PasskeySummary>(
    `SELECT ${PASSKEY_SUMMARY_COLUMNS.join(', ')} FROM passkeys
     WHERE user_id = $1 AND verified_at IS NOT NULL ORDER BY created_at, id`,
    [userId],
  );
}
