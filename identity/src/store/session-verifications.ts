import type { Queryable } from '../db/database.ts';
import { randomBase62 } from '../ids.ts';
import type { VerificationState } from './rows.ts';
import type { VerificationLevel } from '../reverification/require-reverification.ts';

export type SessionVerificationStatus = 'needs_first_factor' | 'needs_second_factor' | 'complete';

export interface SessionVerificationRow {
  id: string;
  session_id: string;
  level: VerificationLevel;
  status: SessionVerificationStatus;
  first_factor_verification: VerificationState | null;
  second_factor_verification: VerificationState | null;
  expire_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A re-verification left unfinished cannot be picked up after this long; the modal starts a new one. */
const VERIFICATION_TTL_MS = 10 * 60 * 1000;

export async function createSessionVerification(
  tx: Queryable,
  input: { sessionId: string; level: VerificationLevel; status: SessionVerificationStatus; now: Date },
): Promise<SessionVerificationRow> {
  const [row] = await tx.query<SessionVerificationRow>(
    `INSERT INTO session_verifications (id, session_id, level, status, expire_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
    [
      `sessver_${randomBase62(27)}`,
      input.sessionId,
      input.level,
      input.status,
      new Date(input.now.getTime() + VERIFICATION_TTL_MS),
      input.now,
    ],
  );
  return row!;
}

/**
 * The session's newest re-verification, locked for the request (two tabs cannot both spend one code), or
 * null when there is none or it has run out: the `/verify/…` calls carry no verification id.
 */
export async function currentSessionVerification(
  tx: Queryable,
  sessionId: string,
  now: Date,
): Promise<SessionVerificationRow | null> {
  const [row] = await tx.query<SessionVerificationRow>(
    `SELECT * FROM session_verifications WHERE session_id = $1 AND expire_at > $2
     ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    [sessionId, now],
  );
  return row ?? null;
}

export async function updateSessionVerification(
  tx: Queryable,
  id: string,
  changes: {
    status?: SessionVerificationStatus;
    first_factor_verification?: VerificationState | null;
    second_factor_verification?: VerificationState | null;
  },
  now: Date,
): Promise<SessionVerificationRow> {
  const keys = Object.keys(changes) as (keyof typeof changes)[];
  const values = keys.map((k) => {
    const v = changes[k];
    return typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
  });
  const [row] = await tx.query<SessionVerificationRow>(
    `UPDATE session_verifications SET ${[...keys.map((k, i) => `${k} = $${i + 3}`), 'updated_at = $2'].join(', ')}
     WHERE id = $1 RETURNING *`,
    [id, now, ...values],
  );
  return row!;
}
