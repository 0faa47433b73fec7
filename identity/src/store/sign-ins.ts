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

export async function updateSignIn(
  tx: Queryable,
  id: string,
  changes: {
    status?: SignInStatus;
    first_factor_verification?: VerificationState | null;
    second_factor_verification?: VerificationState | null;
    created_session_id?: string | null;
    user_id?: string | null;
    identifier?: string | null;
    external_identity?: SignInRow['external_identity'];
    enterprise_connection_id?: string | null;
  },
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
