import type { TotpSecretRow } from '../store/rows.ts';
import { ms } from './verification.ts';

/**
 * Clerk's TOTPJSON. The secret and its URI are shown once, when created; the backup codes once, when the
 * first verification also generated them.
 */
export function totpJSON(
  row: TotpSecretRow,
  shown: { secret?: string; uri?: string; backupCodes?: string[] } = {},
) {
  return {
    object: 'totp',
    id: row.id,
    ...(shown.secret !== undefined ? { secret: shown.secret, uri: shown.uri } : {}),
    verified: row.verified_at !== null,
    backup_codes: shown.backupCodes ?? null,
    created_at: ms(row.created_at),
    updated_at: ms(row.updated_at),
  };
}

/** Clerk's BackupCodeJSON: the only time the codes of a new set are seen. */
export function backupCodeJSON(id: string, codes: string[], now: Date) {
  return { object: 'backup_code', id, codes, created_at: now.getTime(), updated_at: now.getTime() };
}
