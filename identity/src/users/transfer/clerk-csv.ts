import { parse } from 'csv-parse/sync';
import { cell, listCell, MAX_RECORD_BYTES, type ImportRecord, type ReadResult } from './import-record.ts';

/** The header of hosted Clerk's user export (dashboard, Settings → Export users), in its order. */
export const CLERK_CSV_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'username',
  'primary_email_address',
  'primary_phone_number',
  'verified_email_addresses',
  'unverified_email_addresses',
  'verified_phone_numbers',
  'unverified_phone_numbers',
  'totp_secret',
  'password_digest',
  'password_hasher',
] as const;

/** Columns a hand-made file may add (JSON objects for the metadata). */
const OPTIONAL_COLUMNS = [
  'external_id',
  'public_metadata',
  'private_metadata',
  'unsafe_metadata',
  'created_at',
];

/** What csv-parse's error codes mean, in words that quote nothing from the file. */
function csvReason(code: string | undefined): string {
  switch (code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS':
      return 'malformed CSV: not as many cells as the header has columns';
    default:
      return `malformed CSV (${code ?? 'unreadable'})`;
  }
}

/** A JSON cell; text that is not JSON is kept as text, which the validation refuses as not an object. */
function jsonCell(value: unknown): unknown {
  const text = cell(value);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Hosted Clerk's export CSV: one user a row, multiple values of a cell separated by `|` (or `,` `;`). */
export function readClerkCsv(text: string): ReadResult {
  const unreadable: ReadResult['unreadable'] = [];
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const columns = header.split(',').map((c) => c.trim());
  const missing = CLERK_CSV_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) {
    return {
      records: [],
      unreadable: [{ where: 'line 1', reason: `not Clerk's export header: missing ${missing.join(', ')}` }],
    };
  }
  const unknown = columns.filter(
    (c) => !(CLERK_CSV_COLUMNS as readonly string[]).includes(c) && !OPTIONAL_COLUMNS.includes(c),
  );
  if (unknown.length) {
    return {
      records: [],
      unreadable: [{ where: 'line 1', reason: `unknown columns: ${unknown.join(', ')}` }],
    };
  }
  const rows = parse(text, {
    columns: true,
    bom: true,
    info: true,
    comment: '#',
    comment_no_infix: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (err) => {
      const line = (err as { lines?: number } | undefined)?.lines;
      unreadable.push({ where: `line ${line ?? '?'}`, reason: csvReason(err?.code) });
      return undefined;
    },
  }) as { info: { lines: number }; record: Record<string, string> }[];
  const records: ImportRecord[] = [];
  for (const { info, record: r } of rows) {
    // Measured once read (csv-parse's own limit stops the reading of the rest), the file being bounded.
    if (Object.values(r).reduce((n, v) => n + Buffer.byteLength(v), 0) > MAX_RECORD_BYTES) {
      unreadable.push({
        where: `line ${info.lines}`,
        reason: `the record is longer than ${MAX_RECORD_BYTES} bytes`,
      });
      continue;
    }
    const primaryEmail = cell(r.primary_email_address);
    const primaryPhone = cell(r.primary_phone_number);
    const body: Record<string, unknown> = {
      id: cell(r.id),
      external_id: cell(r.external_id),
      first_name: cell(r.first_name),
      last_name: cell(r.last_name),
      username: cell(r.username),
      // The primary first: createUser makes the first of each list primary.
      email_address: [
        ...new Set([...(primaryEmail ? [primaryEmail] : []), ...listCell(r.verified_email_addresses)]),
      ],
      unverified_email_address: listCell(r.unverified_email_addresses),
      phone_number: [
        ...new Set([...(primaryPhone ? [primaryPhone] : []), ...listCell(r.verified_phone_numbers)]),
      ],
      unverified_phone_number: listCell(r.unverified_phone_numbers),
      totp_secret: cell(r.totp_secret),
      password_digest: cell(r.password_digest),
      password_hasher: cell(r.password_hasher),
      // A user who signed in another way (a link, a code, a social account) has none.
      skip_password_requirement: !cell(r.password_digest),
      public_metadata: jsonCell(r.public_metadata),
      private_metadata: jsonCell(r.private_metadata),
      unsafe_metadata: jsonCell(r.unsafe_metadata),
      created_at: cell(r.created_at),
    };
    records.push({ where: `line ${info.lines}`, body });
  }
  return { records, unreadable };
}
