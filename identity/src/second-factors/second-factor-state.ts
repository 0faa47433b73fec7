import type { Queryable } from '../db/database.ts';

/** Which second factors a user can sign in with right now. */
export interface SecondFactorState {
  /** A verified authenticator app. */
  totp: boolean;
  /** At least one unused backup code. */
  backupCodes: boolean;
}

export const NO_SECOND_FACTORS: SecondFactorState = { totp: false, backupCodes: false };

export async function secondFactorStates(
  tx: Queryable,
  userIds: string[],
): Promise<Map<string, SecondFactorState>> {
  if (!userIds.length) return new Map();
  const rows = await tx.query<{ id: string; totp: boolean; backup_codes: boolean }>(
    `SELECT u.id,
       EXISTS (SELECT 1 FROM totp_secrets t WHERE t.user_id = u.id AND t.verified_at IS NOT NULL) AS totp,
       EXISTS (SELECT 1 FROM backup_codes b WHERE b.user_id = u.id AND b.used_at IS NULL) AS backup_codes
     FROM unnest($1::text[]) AS u(id)`,
    [userIds],
  );
  return new Map(rows.map((r) => [r.id, { totp: r.totp, backupCodes: r.backup_codes }]));
}

export async function secondFactorStateOf(tx: Queryable, userId: string): Promise<SecondFactorState> {
  return (await secondFactorStates(tx, [userId])).get(userId) ?? NO_SECOND_FACTORS;
}

/**
 * Backup codes are a fallback, not a factor of their own: only a real second factor (the authenticator
 * app; phone codes when they arrive) turns two-factor sign-in on.
 */
export function twoFactorEnabled(state: SecondFactorState): boolean {
  return state.totp;
}

/** `supported_second_factors` of a sign-in, in hosted Clerk's order (the UI starts with `totp`). */
export function supportedSecondFactors(state: SecondFactorState): { strategy: 'totp' | 'backup_code' }[] {
  if (!twoFactorEnabled(state)) return [];
  return [
    ...(state.totp ? [{ strategy: 'totp' as const }] : []),
    ...(state.backupCodes ? [{ strategy: 'backup_code' as const }] : []),
  ];
}
