import { chmodSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ClerkError } from '../errors.ts';
import type { ReadResult } from '../users/transfer/import-record.ts';
import { ImportFileError, readImportText } from '../users/transfer/read-import-file.ts';
import { CliError } from './actor-token-admin.ts';
import type { CliIo } from './cli-command.ts';

/**
 * What `users import` and `organizations import` share: the outcome of each line, the report in the
 * file's order, its printing and summary, and reading and writing the files (docs/operations.md).
 */

/** What happened to one record of the file; the reason names fields, never their values. */
export interface ImportOutcome {
  where: string;
  status: 'imported' | 'skipped' | 'failed';
  reason?: string;
  /** The id written (or that would be). */
  id?: string;
  /** What else was done or left for this record (an organisation's memberships), printed after it. */
  notes?: string[];
}

export interface ImportReport {
  outcomes: ImportOutcome[];
  imported: number;
  skipped: number;
  failed: number;
}

/** A refusal in words that name the field and the rule (ClerkError messages quote no value). */
export function reasonOf(err: ClerkError): string {
  const param = typeof err.meta.param_name === 'string' ? `${err.meta.param_name}: ` : '';
  return `${param}${err.longMessage}`;
}

/** The database's code only: its message may quote a value of the row. */
export function writeFailure(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return `could not be written (${String(code ?? 'error')})`;
}

/** The outcomes in the order of the file, counted. */
export function reportOf(outcomes: ImportOutcome[], read: ReadResult): ImportReport {
  const order = new Map([...read.unreadable, ...read.records].map((r, i) => [r.where, i]));
  const sorted = [...outcomes].sort(
    (a, b) => lineOf(a.where) - lineOf(b.where) || (order.get(a.where) ?? 0) - (order.get(b.where) ?? 0),
  );
  const count = (status: ImportOutcome['status']) => sorted.filter((o) => o.status === status).length;
  return {
    outcomes: sorted,
    imported: count('imported'),
    skipped: count('skipped'),
    failed: count('failed'),
  };
}

function lineOf(where: string): number {
  const n = Number(/\d+/.exec(where)?.[0] ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** The records of an import file, read by `read`; a missing or unreadable file is the command's error. */
export function readImportFile(file: string, read: (text: string) => ReadResult): ReadResult {
  const path = resolve(file);
  if (!existsSync(path)) throw new CliError(`There is no file ${path}.`);
  try {
    return read(readImportText(path));
  } catch (err) {
    if (err instanceof ImportFileError) throw new CliError(err.message);
    throw err;
  }
}

/**
 * Each outcome (what was imported on stdout, the rest on stderr), then the summary; some record failed:
 * the command fails (exit status 1). `noun` is what the file holds ("user"); `extra` ends the summary.
 */
export function printReport(
  io: CliIo,
  report: ImportReport,
  { dryRun, noun, extra = '' }: { dryRun: boolean; noun: string; extra?: string },
): void {
  for (const o of report.outcomes) {
    if (o.status === 'imported') io.out(`${o.where}: ${dryRun ? 'would import' : 'imported'} ${o.id}`);
    else io.err(`${o.where}: ${o.status}: ${o.reason}`);
    for (const note of o.notes ?? []) io.err(`${o.where}: ${note}`);
  }
  io.err(
    `${dryRun ? 'Dry run, nothing written: ' : ''}` +
      `${report.imported} ${dryRun ? 'to import' : 'imported'}, ${report.skipped} skipped, ${report.failed} failed${extra}.`,
  );
  if (report.failed > 0)
    throw new CliError(`${report.failed} ${noun}${report.failed === 1 ? '' : 's'} not imported (see above).`);
}

/** Writes `text` to a new file, owner-only from its first byte (beside it, then renamed); never overwrites. */
export function writeNewFile(file: string, text: string): string {
  const target = resolve(file);
  if (existsSync(target)) throw new CliError(`${target} exists already; choose another file.`);
  writeFileSync(`${target}.partial`, text, { mode: 0o600 });
  chmodSync(`${target}.partial`, 0o600);
  renameSync(`${target}.partial`, target);
  return target;
}
