import { MAX_RECORD_BYTES, type ImportRecord, type ReadResult } from './import-record.ts';

/**
 * JSON objects one a line (blank lines skipped), or one JSON array of objects: each object handed to
 * `toBody`, which answers the user's fields or a reason it is not one.
 */
export function readJsonObjects(
  text: string,
  toBody: (object: Record<string, unknown>) => Record<string, unknown> | string,
): ReadResult {
  const records: ImportRecord[] = [];
  const unreadable: ReadResult['unreadable'] = [];
  const take = (where: string, value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      unreadable.push({ where, reason: 'not a JSON object' });
      return;
    }
    const body = toBody(value as Record<string, unknown>);
    if (typeof body === 'string') unreadable.push({ where, reason: body });
    else records.push({ where, body });
  };
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('[')) {
    let array: unknown;
    try {
      array = JSON.parse(trimmed);
    } catch {
      return { records, unreadable: [{ where: 'the file', reason: 'malformed JSON array' }] };
    }
    (array as unknown[]).forEach((value, i) => {
      if (Buffer.byteLength(JSON.stringify(value ?? null)) > MAX_RECORD_BYTES) {
        unreadable.push({ where: `record ${i + 1}`, reason: `longer than ${MAX_RECORD_BYTES} bytes` });
      } else take(`record ${i + 1}`, value);
    });
    return { records, unreadable };
  }
  text.split(/\r?\n/).forEach((line, i) => {
    const where = `line ${i + 1}`;
    if (!line.trim()) return;
    if (Buffer.byteLength(line) > MAX_RECORD_BYTES) {
      unreadable.push({ where, reason: `longer than ${MAX_RECORD_BYTES} bytes` });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      unreadable.push({ where, reason: 'malformed JSON' });
      return;
    }
    take(where, value);
  });
  return { records, unreadable };
}
