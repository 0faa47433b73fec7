/**
 * One user read from an import file, before validation: where it is in the file (for the report) and its
 * fields in the vocabulary of `users.createUser`'s body, plus `id` (a user id to keep, from a Clerk export)
 * and the identifiers the old system had not verified (`unverified_email_address`, `unverified_phone_number`).
 */
export interface ImportRecord {
  /** "line 12" or "record 3": what the report names it by. */
  where: string;
  body: Record<string, unknown>;
}

/** A part of the file that could not be read as a user at all (its place and why, never its content). */
export interface UnreadableRecord {
  where: string;
  reason: string;
}

export type ReadResult = { records: ImportRecord[]; unreadable: UnreadableRecord[] };

/** The formats `users import` reads. */
export const IMPORT_FORMATS = ['clerk-csv', 'auth0', 'jsonl'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** A user's record is at most this long: anything longer is refused without being read further. */
export const MAX_RECORD_BYTES = 64 * 1024;

/** Splits a list cell ("a@x.com|b@x.com", or separated by commas, semicolons or spaces) into its values. */
export function listCell(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(/[|;,\s]+/)
    .map((v) => v.trim())
    .filter(Boolean);
}

/** An empty cell is an absent field. */
export function cell(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
