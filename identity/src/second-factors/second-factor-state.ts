import type { Queryable } from '../db/database.ts';
import { deleteBackupCodes } from '../store/backup-codes.ts';
import { maskPhoneNumber } from '../phone-numbers/phone-number.ts';
import {
  secondFactorColumnsOf,
  type SecondFactorColumns,
  type SecondFactorPhone,
} from '../store/second-factors.ts';

export type { SecondFactorPhone };

/** Which second factors a user can sign in with right now. */
export interface SecondFactorState {
  /** A verified authenticator app. */
  totp: boolean;
  /** At least one unused backup code. */
  backupCodes: boolean;
  /** Verified phone numbers reserved for SMS codes, the default one first. */
  phones: SecondFactorPhone[];
}

export const NO_SECOND_FACTORS: SecondFactorState = { totp: false, backupCodes: false, phones: [] };

export function secondFactorStateOfRow(row: SecondFactorColumns): SecondFactorState {
  return { totp: row.sf_totp, backupCodes: row.sf_backup_codes, phones: row.sf_phones };
}

export async function secondFactorStates(
  tx: Queryable,
  userIds: string[],
): Promise<Map<string, SecondFactorState>> {
  if (!userIds.length) return new Map();
  const rows = await secondFactorColumnsOf(tx, userIds);
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

/** Backup codes back up a second factor: with none left, they go too (as when the authenticator app goes). */
export async function dropBackupCodesWithoutSecondFactor(tx: Queryable, userId: string): Promise<void> {
  if (!twoFactorEnabled(await secondFactorStateOf(tx, userId))) await deleteBackupCodes(tx, userId);
}
