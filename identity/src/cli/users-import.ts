import { newUserOf } from '../bapi/users/create-user.ts';
import { USER_WRITE_FIELDS } from '../bapi/users/user-fields.ts';
import { jsonInput } from '../bapi/json-input.ts';
import { JsonBody } from '../bapi/request-input.ts';
import type { IdentityConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { ClerkError } from '../errors.ts';
import { insertNewUser, takenByAnotherUser, type NewUser, type SecondFactorKeys } from '../users/new-user.ts';
import { auth0Body } from '../users/transfer/auth0-export.ts';
import { readClerkCsv } from '../users/transfer/clerk-csv.ts';
import type { ImportFormat, ImportRecord, ReadResult } from '../users/transfer/import-record.ts';
import { readJsonObjects } from '../users/transfer/json-lines.ts';

/** The fields of a user in an import: `users.createUser`'s, with a user id to keep and unverified identifiers. */
export const IMPORT_FIELDS = {
  ...USER_WRITE_FIELDS,
  email_address: 'strings',
  phone_number: 'strings',
  skip_password_requirement: 'boolean',
  id: 'string',
  unverified_email_address: 'strings',
  unverified_phone_number: 'strings',
} as const;
const IMPORT_SCHEMA = jsonInput(IMPORT_FIELDS);

const KNOWN = new Set(Object.keys(IMPORT_FIELDS));

/**
 * One line of the generic format: a `users.createUser` body as the Backend API takes it (snake_case), plus
 * `id` and `unverified_email_address` / `unverified_phone_number`. A single address may be a string.
 */
export function createUserBody(object: Record<string, unknown>): Record<string, unknown> | string {
  const unknown = Object.keys(object).filter((k) => !KNOWN.has(k));
  if (unknown.length) return `unknown fields: ${unknown.slice(0, 5).join(', ')}`;
  const body = { ...object };
  for (const list of [
    'email_address',
    'phone_number',
    'unverified_email_address',
    'unverified_phone_number',
  ]) {
    if (typeof body[list] === 'string') body[list] = [body[list]];
  }
  return body;
}

/** The users of an import file's text in `format`. */
export function readUsers(text: string, format: ImportFormat): ReadResult {
  switch (format) {
    case 'clerk-csv':
      return readClerkCsv(text);
    case 'auth0':
      return readJsonObjects(text, auth0Body);
    case 'jsonl':
      return readJsonObjects(text, createUserBody);
  }
}

/** A user id kept from the old system: Clerk's form, `user_` and letters and digits. */
const USER_ID = /^user_[A-Za-z0-9]{1,64}$/;

export interface ImportTarget {
  db: Database;
  config: IdentityConfig;
  keys: SecondFactorKeys;
  clock: () => Date;
}

export interface ImportOptions {
  dryRun: boolean;
  /** Users written per transaction. */
  batchSize: number;
  /** Called after each batch with the users handled so far and in all. */
  progress?: (done: number, total: number) => void;
}

/** What happened to one user of the file; the reason names fields, never their values. */
export interface ImportOutcome {
  where: string;
  status: 'imported' | 'skipped' | 'failed';
  reason?: string;
  userId?: string;
}

export interface ImportReport {
  outcomes: ImportOutcome[];
  imported: number;
  skipped: number;
  failed: number;
}

/** A refusal in words that name the field and the rule (ClerkError messages quote no value). */
function reasonOf(err: ClerkError): string {
  const param = typeof err.meta.param_name === 'string' ? `${err.meta.param_name}: ` : '';
  return `${param}${err.longMessage}`;
}

async function validated(
  record: ImportRecord,
  config: IdentityConfig,
): Promise<{ user: NewUser } | { reason: string }> {
  try {
    const f = new JsonBody(record.body, IMPORT_SCHEMA);
    const id = f.string('id');
    if (id !== undefined && !USER_ID.test(id))
      return { reason: 'id: not a user id (user_ and letters or digits)' };
    const user = await newUserOf(
      f,
      { config },
      {
        id,
        unverifiedEmails: f.strings('unverified_email_address'),
        unverifiedPhones: f.strings('unverified_phone_number'),
      },
    );
    return { user };
  } catch (err) {
    if (err instanceof ClerkError) return { reason: reasonOf(err) };
    throw err;
  }
}

/** The values that must be unique among the users: two users of one file may not share one. */
function uniqueKeys(user: NewUser, keptId: boolean): [string, string][] {
  return [
    ...(keptId ? [['id', user.id] as [string, string]] : []),
    ...(user.externalId ? [['external_id', user.externalId] as [string, string]] : []),
    ...user.emails.map((e) => ['email_address', e.toLowerCase()] as [string, string]),
    ...user.phones.map((p) => ['phone_number', p] as [string, string]),
    ...(user.username ? [['username', user.username.toLowerCase()] as [string, string]] : []),
  ];
}

const skippedBecause = (field: string) => `a user with this ${field} exists already`;

/**
 * Imports the users read from a file (docs/operations.md, "Moving users in and out"): each validated as
 * `users.createUser` would; one whose id, external id, verified email address or phone number, or username
 * another user has is skipped (so a second run imports only what the first did not); the others written
 * `batchSize` to a transaction, so an interruption leaves whole users only. A user refused, or whose write
 * fails, never stops the others. With `dryRun`, everything is checked and nothing written.
 */
export async function importUsers(
  target: ImportTarget,
  read: ReadResult,
  options: ImportOptions,
): Promise<ImportReport> {
  const outcomes: ImportOutcome[] = read.unreadable.map((u) => ({
    where: u.where,
    status: 'failed',
    reason: u.reason,
  }));
  const seen = new Map<string, string>();
  const ready: { where: string; user: NewUser }[] = [];
  for (const record of read.records) {
    const result = await validated(record, target.config);
    if ('reason' in result) {
      outcomes.push({ where: record.where, status: 'failed', reason: result.reason });
      continue;
    }
    const keys = uniqueKeys(result.user, record.body.id !== undefined);
    const clash = keys.find(([field, value]) => seen.has(`${field}\n${value}`));
    if (clash) {
      const first = seen.get(`${clash[0]}\n${clash[1]}`)!;
      outcomes.push({ where: record.where, status: 'skipped', reason: `the same ${clash[0]} as ${first}` });
      continue;
    }
    for (const [field, value] of keys) seen.set(`${field}\n${value}`, record.where);
    ready.push({ where: record.where, user: result.user });
  }

  for (let start = 0; start < ready.length; start += options.batchSize) {
    const batch = ready.slice(start, start + options.batchSize);
    if (options.dryRun) {
      for (const { where, user } of batch) {
        const taken = await takenByAnotherUser(target.db, user);
        outcomes.push(
          taken
            ? { where, status: 'skipped', reason: skippedBecause(taken) }
            : { where, status: 'imported', userId: user.id },
        );
      }
    } else {
      outcomes.push(...(await writeBatch(target, batch)));
    }
    options.progress?.(Math.min(start + batch.length, ready.length), ready.length);
  }
  const order = new Map([...read.unreadable, ...read.records].map((r, i) => [r.where, i]));
  outcomes.sort(
    (a, b) => lineOf(a.where) - lineOf(b.where) || (order.get(a.where) ?? 0) - (order.get(b.where) ?? 0),
  );
  const count = (status: ImportOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  return { outcomes, imported: count('imported'), skipped: count('skipped'), failed: count('failed') };
}

function lineOf(where: string): number {
  const n = Number(/\d+/.exec(where)?.[0] ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** One transaction for the batch; should it fail, each user again in its own, to tell which one cannot be written. */
async function writeBatch(
  target: ImportTarget,
  batch: { where: string; user: NewUser }[],
): Promise<ImportOutcome[]> {
  const writeOne = async (
    tx: Parameters<Parameters<Database['transaction']>[0]>[0],
    where: string,
    user: NewUser,
  ) => {
    const taken = await takenByAnotherUser(tx, user);
    if (taken) return { where, status: 'skipped', reason: skippedBecause(taken) } as ImportOutcome;
    await insertNewUser(tx, target.keys, user, target.clock());
    return { where, status: 'imported', userId: user.id } as ImportOutcome;
  };
  try {
    return await target.db.transaction(async (tx) => {
      const done: ImportOutcome[] = [];
      for (const { where, user } of batch) done.push(await writeOne(tx, where, user));
      return done;
    });
  } catch {
    const done: ImportOutcome[] = [];
    for (const { where, user } of batch) {
      try {
        done.push(await target.db.transaction((tx) => writeOne(tx, where, user)));
      } catch (err) {
        // The database's code only: its message may quote a value of the row.
        const code = (err as { code?: unknown }).code;
        done.push({ where, status: 'failed', reason: `could not be written (${String(code ?? 'error')})` });
      }
    }
    return done;
  }
}
