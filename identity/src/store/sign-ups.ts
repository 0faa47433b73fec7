import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { SignUpRow } from './rows.ts';

const SIGN_UP_ABANDON_MS = 24 * 3600 * 1000;

type Column =
  | 'status'
  | 'username'
  | 'email_address'
  | 'email_verification'
  | 'phone_number'
  | 'phone_verification'
  | 'first_name'
  | 'last_name'
  | 'password_hash'
  | 'unsafe_metadata'
  | 'legal_accepted_at'
  | 'created_user_id'
  | 'created_session_id'
  | 'external_identity'
  | 'external_account_verification'
  | 'web3_wallet'
  | 'web3_wallet_verification'
  | 'enterprise_connection_id'
  | 'legal_consent_required'
  | 'captcha_deferred'
  | 'enterprise_identity'
  | 'external_id'
  | 'custom_action';
export type SignUpChanges = Partial<Pick<SignUpRow, Column>>;

const JSON_COLUMNS = new Set([
  'email_verification',
  'phone_verification',
  'unsafe_metadata',
  'external_identity',
  'external_account_verification',
  'web3_wallet_verification',
  'enterprise_identity',
]);
const encode = (k: string, v: unknown) =>
  JSON_COLUMNS.has(k) && v !== null && v !== undefined ? JSON.stringify(v) : v;

export async function insertSignUp(
  tx: Queryable,
  clientId: string,
  values: SignUpChanges,
  now: Date,
): Promise<SignUpRow> {
  const keys = Object.keys(values) as Column[];
  const [row] = await tx.query<SignUpRow>(
    `INSERT INTO sign_ups (id, client_id, status, abandon_at, created_at, updated_at${keys.map((k) => `, ${k}`).join('')})
     VALUES ($1, $2, 'missing_requirements', $3, $4, $4${keys.map((_, i) => `, $${i + 5}`).join('')}) RETURNING *`,
    [
      newId('sua'),
      clientId,
      new Date(now.getTime() + SIGN_UP_ABANDON_MS),
      now,
      ...keys.map((k) => encode(k, values[k])),
    ],
  );
  return row!;
}

export async function updateSignUp(
  tx: Queryable,
  id: string,
  changes: SignUpChanges,
  now: Date,
): Promise<SignUpRow> {
  const keys = Object.keys(changes) as Column[];
  const [row] = await tx.query<SignUpRow>(
    `UPDATE sign_ups SET ${[...keys.map((k, i) => `${k} = $${i + 3}`), 'updated_at = $2'].join(', ')} WHERE id = $1 RETURNING *`,
    [id, now, ...keys.map((k) => encode(k, changes[k]))],
  );
  return row!;
}

export async function findClientSignUp(
  tx: Queryable,
  clientId: string,
  id: string,
  now: Date,
): Promise<SignUpRow | null> {
  const [row] = await tx.query<SignUpRow>(
    'SELECT * FROM sign_ups WHERE id = $1 AND client_id = $2 AND abandon_at > $3 FOR UPDATE',
    [id, clientId, now],
  );
  return row ?? null;
}

/**
 * Whether the sign-up belongs to the client whose token hashes to `clientTokenHash` and still misses
 * requirements (read without locks, before the transaction).
 */
export async function clientSignUpMissesRequirements(
  db: Queryable,
  signUpId: string | undefined,
  clientTokenHash: string,
): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM sign_ups s JOIN clients c ON c.id = s.client_id
           WHERE s.id = $1 AND c.token_hash = $2 AND s.status = 'missing_requirements'`,
    [signUpId, clientTokenHash],
  );
  return rows.length > 0;
}

/** Any sign-up of the instance by id, locked (the Backend API's `signUps.update`); null if none. */
export async function findSignUpById(
  tx: Queryable,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<SignUpRow | null> {
  const [row] = await tx.query<SignUpRow>(
    `SELECT * FROM sign_ups WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}
