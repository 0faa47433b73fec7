import type { Queryable } from '../db/database.ts';
import { maskPhoneNumber } from '../phone-numbers/phone-number.ts';

/** Which second factors a user can sign in with right now. */
export interface SecondFactorState {
  /** A verified authenticator app. */
  totp: boolean;
  /** At least one unused backup code. */
  backupCodes: boolean;
  /** Verified phone numbers reserved for SMS codes, the default one first. */
  phones: SecondFactorPhone[];
}

export interface SecondFactorPhone {
  id: string;
  phone_number: string;
  default: boolean;
}

export const NO_SECOND_FACTORS: SecondFactorState = { totp: false, backupCodes: false, phones: [] };

/**
 * A user's second factors as columns of a query over users aliased `u` (u.id): `sf_totp`,
 * `sf_backup_codes`, `sf_phones`. Read back with `secondFactorStateOfRow`.
 */
export const SECOND_FACTOR_COLUMNS = `
  EXISTS (SELECT 1 FROM totp_secrets t WHERE t.user_id = u.id AND t.verified_at IS NOT NULL) AS sf_totp,
  EXISTS (SELECT 1 FROM backup_codes b WHERE b.user_id = u.id AND b.used_at IS NULL) AS sf_backup_codes,
  COALESCE((SELECT json_agg(json_build_object('id', p.id, 'phone_number', p.phone_number,
                                              'default', p.default_second_factor)
                            ORDER BY p.default_second_factor DESC, p.created_at, p.id)
            FROM phone_numbers p
            WHERE p.user_id = u.id AND p.reserved_for_second_factor AND p.verified_at IS NOT NULL),
           '[]'::json) AS sf_phones`;

export interface SecondFactorColumns {
  sf_totp: boolean;
  sf_backup_codes: boolean;
  sf_phones: SecondFactorPhone[];
}

export function secondFactorStateOfRow(row: SecondFactorColumns): SecondFactorState {
  return { totp: row.sf_totp, backupCodes: row.sf_backup_codes, phones: row.sf_phones };
}

export async function secondFactorStates(
  tx: Queryable,
  userIds: string[],
): Promise<Map<string, SecondFactorState>> {
  if (!userIds.length) return new Map();
  const rows = await tx.query<{ id: string } & SecondFactorColumns>(
    `SELECT u.id, ${SECOND_FACTOR_COLUMNS} FROM unnest($1::text[]) AS u(id)`,
    [userIds],
  );
  return new Map(rows.map((r) => [r.id, secondFactorStateOfRow(r)]));
}

export async function secondFactorStateOf(tx: Queryable, userId: string): Promise<SecondFactorState> {
  return (await secondFactorStates(tx, [userId])).get(userId) ?? NO_SECOND_FACTORS;
}

/**
 * Backup codes are a fallback, not a factor of their own: only a real second factor (the authenticator
 * app, a phone number reserved for SMS codes) turns two-factor sign-in on.
 */
export function twoFactorEnabled(state: SecondFactorState): boolean {
  return state.totp || state.phones.length > 0;
}

export type SupportedSecondFactor =
  | { strategy: 'totp' | 'backup_code' }
  | { strategy: 'phone_code'; phone_number_id: string; safe_identifier: string; default: boolean };

/**
 * `supported_second_factors` of a sign-in, in hosted Clerk's order (the UI starts with `totp`, then the
 * first `phone_code`: the default number). Numbers are masked: the first factor is not yet proof enough
 * to see them whole.
 */
export function supportedSecondFactors(state: SecondFactorState): SupportedSecondFactor[] {
  if (!twoFactorEnabled(state)) return [];
  return [
    ...(state.totp ? [{ strategy: 'totp' as const }] : []),
    ...state.phones.map((p) => ({
      strategy: 'phone_code' as const,
      phone_number_id: p.id,
      safe_identifier: maskPhoneNumber(p.phone_number),
      default: p.default,
    })),
    ...(state.backupCodes ? [{ strategy: 'backup_code' as const }] : []),
  ];
}
