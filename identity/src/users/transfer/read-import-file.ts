import { readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { ImportFormat } from './import-record.ts';

/** The largest import file read (after decompression): beyond it the command refuses before reading. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

export class ImportFileError extends Error {}

/** The format a file's name says: `.csv` Clerk's export, `.jsonl` the generic lines, `.json`/`.ndjson` Auth0's. */
export function formatOfName(path: string): ImportFormat | null {
  const name = path.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv')) return 'clerk-csv';
  if (name.endsWith('.jsonl')) return 'jsonl';
  if (name.endsWith('.json') || name.endsWith('.ndjson')) return 'auth0';
  return null;
}

/** The file's text (gunzipped when it is gzip, as Auth0's export job gives it), at most `maxBytes`. */
export function readImportText(path: string, maxBytes = MAX_IMPORT_BYTES): string {
  if (statSync(path).size > maxBytes) throw new ImportFileError(`${path} is larger than ${maxBytes} bytes.`);
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: maxBytes });
    } catch {
      throw new ImportFileError(
        `${path} is not a readable gzip file, or larger than ${maxBytes} bytes unpacked.`,
      );
    }
  }
  return bytes.toString('utf8');
}
