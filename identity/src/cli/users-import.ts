import { newUserOf } from '../bapi/users/create-user.ts';
import { USER_WRITE_FIELDS } from '../bapi/users/user-fields.ts';
import { jsonInput } from '../bapi/json-input.ts';
import { JsonBody } from '../bapi/request-input.ts';
import type { IdentityConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { ClerkError } from '../errors.ts';
import {
  importedMemberships,
  joinImported,
  organizationsToJoin,
  type ImportedMembership,
} from '../organizations/imported-memberships.ts';
import { insertNewUser, takenByAnotherUser, type NewUser, type SecondFactorKeys } from '../users/new-user.ts';
import { auth0Body } from '../users/transfer/auth0-export.ts';
import { readClerkCsv } from '../users/transfer/clerk-csv.ts';
import type { ImportFormat, ImportRecord, ReadResult } from '../users/transfer/import-record.ts';
import { readJsonObjects } from '../users/transfer/json-lines.ts';
import { reasonOf, reportOf, writeFailure, type ImportOutcome, type ImportReport } from './import-report.ts';

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

/** The memberships a user of the generic format may bring: `[{ organization: <id or slug>, role }]`. */
const MEMBERSHIPS = 'organization_memberships';
const KNOWN = new Set([...Object.keys(IMPORT_FIELDS), MEMBERSHIPS]);

/**
 * One line of the generic format: a `users.createUser` body as the Backend API takes it (snake_case), plus
 * `id`, `unverified_email_address` / `unverified_phone_number` and `organization_memberships`. A single
 * address may be a string.
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

/** A user checked and ready to write, with the memberships it brings. */
interface ReadyUser {
  where: string;
  user: NewUser;
  memberships: ImportedMembership[];
}

async function validated(
  record: ImportRecord,
  config: IdentityConfig,
): Promise<Omit<ReadyUser, 'where'> | { reason: string }> {
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
    return { user, memberships: importedMemberships(record.body[MEMBERSHIPS], MEMBERSHIPS, 'organization') };
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
  const ready: ReadyUser[] = [];
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
    ready.push({ where: record.where, ...result });
  }

  for (let start = 0; start < ready.length; start += options.batchSize) {
    const batch = ready.slice(start, start + options.batchSize);
    if (options.dryRun) {
      for (const { where, user, memberships } of batch) {
        const taken = await takenByAnotherUser(target.db, user);
        const joins = taken ? [] : await organizationsToJoin(target.db, memberships);
        outcomes.push(
          taken
            ? { where, status: 'skipped', reason: skippedBecause(taken) }
            : 'reason' in joins
              ? { where, status: 'failed', reason: joins.reason }
              : { where, status: 'imported', id: user.id },
        );
      }
    } else {
      outcomes.push(...(await writeBatch(target, batch)));
    }
    options.progress?.(Math.min(start + batch.length, ready.length), ready.length);
  }
  return reportOf(outcomes, read);
}

/** One transaction for the batch; should it fail, each user again in its own, to tell which one cannot be written. */
async function writeBatch(target: ImportTarget, batch: ReadyUser[]): Promise<ImportOutcome[]> {
  const writeOne = async (
    tx: Parameters<Parameters<Database['transaction']>[0]>[0],
    { where, user, memberships }: ReadyUser,
  ): Promise<ImportOutcome> => {
    const taken = await takenByAnotherUser(tx, user);
    if (taken) return { where, status: 'skipped', reason: skippedBecause(taken) };
    // Checked before anything is written: a refused membership leaves no user behind.
    const joins = await organizationsToJoin(tx, memberships);
    if ('reason' in joins) return { where, status: 'failed', reason: joins.reason };
    const now = target.clock();
    await insertNewUser(tx, target.keys, user, now);
    for (const { organization, role } of joins) {
      const joined = await joinImported(tx, organization, user.id, role, now);
      // Full since the check (another writer): the whole user goes back, reported as failed.
      if (typeof joined === 'object') throw new MembershipRefused(joined.reason);
    }
    return { where, status: 'imported', id: user.id };
  };
  try {
    return await target.db.transaction(async (tx) => {
      const done: ImportOutcome[] = [];
      for (const ready of batch) done.push(await writeOne(tx, ready));
      return done;
    });
  } catch {
    const done: ImportOutcome[] = [];
    for (const ready of batch) {
      try {
        done.push(await target.db.transaction((tx) => writeOne(tx, ready)));
      } catch (err) {
        const reason =
          err instanceof MembershipRefused ? `${MEMBERSHIPS}: ${err.message}` : writeFailure(err);
        done.push({ where: ready.where, status: 'failed', reason });
      }
    }
    return done;
  }
}

class MembershipRefused extends Error {}
