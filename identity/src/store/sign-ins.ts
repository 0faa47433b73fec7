import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { SignInRow, SignInStatus, VerificationState } from './rows.ts';

/** An unfinished sign-in stops being resumable after a day, like Clerk's. */
const SIGN_IN_ABANDON_MS = 24 * 3600 * 1000;

export async function createSignIn(
  tx: Queryable,
  input: {
    clientId: string;
    status: SignInStatus;
    identifier: string | null;
    userId: string | null;
    /** Enterprise SSO: the connection of the identifier's domain. */
    enterpriseConnectionId?: string | null;
    now: Date;
  },
): Promise<SignInRow> {
  const [row] = await tx.query<SignInRow>(
    `INSERT INTO sign_ins (id, client_id, status, identifier, user_id, abandon_at, created_at, updated_at,
                           enterprise_connection_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) RETURNING *`,
    [
      newId('sia'),
      input.clientId,
      input.status,
      input.identifier,
      input.userId,
      new Date(input.now.getTime() + SIGN_IN_ABANDON_MS),
      input.now,
      input.enterpriseConnectionId ?? null,
    ],
  );
  return row!;
}

/** Sign-ins made by newSignIn and not yet written. */
const unsaved = new WeakSet<SignInRow>();

/**
 * A sign-in made in memory, written by its first saveSignIn with that save's changes (one INSERT where
 * createSignIn and an update would take two): a one-request password sign-in is written once, complete.
 * Nothing may read it from the database before it is saved (ensureSignInSaved).
 */
export function newSignIn(input: {
  clientId: string;
  status: SignInStatus;
  identifier: string | null;
  userId: string | null;
  now: Date;
}): SignInRow {
  const row: SignInRow = {
    id: newId('sia'),
    client_id: input.clientId,
    status: input.status,
    identifier: input.identifier,
    user_id: input.userId,
    first_factor_verification: null,
    second_factor_verification: null,
    created_session_id: null,
    external_identity: null,
    enterprise_connection_id: null,
    enterprise_identity: null,
    abandon_at: new Date(input.now.getTime() + SIGN_IN_ABANDON_MS),
    created_at: input.now,
    updated_at: input.now,
  };
  unsaved.add(row);
  return row;
}

/** Changes a sign-in: inserted with them if it is newSignIn's and not yet written, else updated. */
export async function saveSignIn(
  tx: Queryable,
  signIn: SignInRow,
  changes: SignInChanges,
  now: Date,
): Promise<SignInRow> {
  if (!unsaved.has(signIn)) return updateSignIn(tx, signIn.id, changes, now);
  unsaved.delete(signIn);
  const row = { ...signIn, ...changes, updated_at: now };
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const [saved] = await tx.query<SignInRow>(
    `INSERT INTO sign_ins (id, client_id, status, identifier, user_id, first_factor_verification,
                           second_factor_verification, created_session_id, external_identity, abandon_at,
                           created_at, updated_at, enterprise_connection_id, enterprise_identity)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9::jsonb, $10, $11, $12, $13, $14::jsonb) RETURNING *`,
    [
      row.id,
      row.client_id,
      row.status,
      row.identifier,
      row.user_id,
      json(row.first_factor_verification),
      json(row.second_factor_verification),
      row.created_session_id,
      json(row.external_identity),
      row.abandon_at,
      row.created_at,
      row.updated_at,
      row.enterprise_connection_id,
      json(row.enterprise_identity),
    ],
  );
  return saved!;
}

/** A newSignIn's sign-in written as it is, if no save has written it yet. */
export async function ensureSignInSaved(tx: Queryable, signIn: SignInRow): Promise<void> {
  if (unsaved.has(signIn)) await saveSignIn(tx, signIn, {}, signIn.updated_at);
}

export async function findClientSignIn(
  tx: Queryable,
  clientId: string,
  id: string,
  now: Date,
): Promise<SignInRow | null> {
  const [row] = await tx.query<SignInRow>(
    'SELECT * FROM sign_ins WHERE id = $1 AND client_id = $2 AND abandon_at > $3 FOR UPDATE',
    [id, clientId, now],
  );
  return row ?? null;
}

export interface SignInChanges {
  status?: SignInStatus;
  first_factor_verification?: VerificationState | null;
  second_factor_verification?: VerificationState | null;
  created_session_id?: string | null;
  user_id?: string | null;
  identifier?: string | null;
  external_identity?: SignInRow['external_identity'];
  enterprise_connection_id?: string | null;
  enterprise_identity?: SignInRow['enterprise_identity'];
}

export async function updateSignIn(
  tx: Queryable,
  id: string,
  changes: SignInChanges,
  now: Date,
): Promise<SignInRow> {
  const keys = Object.keys(changes) as (keyof typeof changes)[];
  const values = keys.map((k) => {
    const v = changes[k];
    return typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
  });
  const [row] = await tx.query<SignInRow>(
    `UPDATE sign_ins SET ${[...keys.map((k, i) => `${k} = $${i + 3}`), 'updated_at = $2'].join(', ')} WHERE id = $1 RETURNING *`,
    [id, now, ...values],
  );
  return row!;
}
