import type { Queryable } from '../db/database.ts';

/** A verified phone number reserved for SMS second factors. */
export interface SecondFactorPhone {
  id: string;
  phone_number: string;
  default: boolean;
}

/**
 * A user's second factors as columns of a query over users aliased `u` (u.id): `sf_totp`,
 * `sf_backup_codes`, `sf_phones`. Read back with `secondFactorStateOfRow`
 * (second-factors/second-factor-state.ts).
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

/** The second-factor columns of each user id given (ids of no user read as having none). */
export async function secondFactorColumnsOf(
  tx: Queryable,
  userIds: string[],
): Promise<({ id: string } & SecondFactorColumns)[]> {
  return tx.query<{ id: string } & SecondFactorColumns>(
    `SELECT u.id, ${SECOND_FACTOR_COLUMNS} FROM unnest($1::text[]) AS u(id)`,
    [userIds],
  );
}
