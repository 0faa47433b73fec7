import { newOrganizationOf, ORGANIZATION_CREATE_FIELDS } from '../bapi/organizations/organization-input.ts';
import { jsonInput } from '../bapi/json-input.ts';
import { JsonBody } from '../bapi/request-input.ts';
import { dateField } from '../bapi/users/user-fields.ts';
import type { Database, Queryable } from '../db/database.ts';
import { ClerkError } from '../errors.ts';
import {
  importedMemberships,
  joinImported,
  type ImportedMembership,
} from '../organizations/imported-memberships.ts';
import {
  createOrganization,
  slugFromName,
  validateMaxAllowedMemberships,
  validateName,
  validateSlug,
  type NewOrganization,
} from '../organizations/organizations.ts';
import { allOrganizationsWithMembers, findOrganization, slugTaken } from '../store/organizations.ts';
import { findUserById } from '../store/users.ts';
import type { ReadResult } from '../users/transfer/import-record.ts';
import { readJsonObjects } from '../users/transfer/json-lines.ts';
import { reasonOf, reportOf, writeFailure, type ImportOutcome, type ImportReport } from './import-report.ts';

/**
 * `organizations import` and `export` (docs/operations.md, "Moving users in and out"): one organisation a
 * line, as `organizations.createOrganization` takes it (snake_case), plus the `id` to keep, `created_at`,
 * and its `memberships: [{ user_id, role }]` — which is also what the export writes.
 */
const FIELDS = { ...ORGANIZATION_CREATE_FIELDS, id: 'string', created_at: 'string' } as const;
const SCHEMA = jsonInput(FIELDS);
const MEMBERSHIPS = 'memberships';
const KNOWN = new Set([...Object.keys(FIELDS), MEMBERSHIPS]);

/** An organisation id kept from the old system: Clerk's form, `org_` and letters and digits. */
const ORGANIZATION_ID = /^org_[A-Za-z0-9]{1,64}$/;

/** The organisations of an import file's text: JSON lines (or one JSON array) of objects. */
export function readOrganizations(text: string): ReadResult {
  return readJsonObjects(text, (object) => {
    const unknown = Object.keys(object).filter((k) => !KNOWN.has(k));
    return unknown.length ? `unknown fields: ${unknown.slice(0, 5).join(', ')}` : object;
  });
}

interface ReadyOrganization {
  where: string;
  organization: Omit<NewOrganization, 'createdBy'> & { name: string; slug: string };
  members: ImportedMembership[];
}

/**
 * A line checked by the Backend API's own rules for a creation. Without a slug, the one the Backend API
 * would derive from the name, made explicit: a re-run then finds it taken and skips the line instead of
 * creating `acme-2`.
 */
function validated(where: string, body: Record<string, unknown>): ReadyOrganization | { reason: string } {
  try {
    const f = new JsonBody(body, SCHEMA);
    const id = f.string('id');
    if (id !== undefined && !ORGANIZATION_ID.test(id))
      return { reason: 'id: not an organization id (org_ and letters or digits)' };
    const input = newOrganizationOf(f);
    const name = validateName(input.name);
    const slug = validateSlug(input.slug ?? slugFromName(name));
    if (input.maxAllowedMemberships !== undefined) validateMaxAllowedMemberships(input.maxAllowedMemberships);
    return {
      where,
      organization: { ...input, id, name, slug, createdAt: dateField(f, 'created_at') },
      members: importedMemberships(body[MEMBERSHIPS], MEMBERSHIPS, 'user_id'),
    };
  } catch (err) {
    if (err instanceof ClerkError) return { reason: reasonOf(err) };
    throw err;
  }
}

/** A dry run's transaction is rolled back by this, carrying what it would have done. */
class DryRun extends Error {
  constructor(readonly written: Written) {
    super('dry run');
  }
}

/**
 * Imports the organisations read from a file, each in its own transaction (in a dry run, rolled back, so
 * it is checked by exactly the code that would write it). One whose slug another organisation has is
 * skipped; one whose id exists is skipped too, but its memberships that are missing are added (their users
 * may have been imported since the last run), those present kept as they are. A membership whose user
 * does not exist is reported and skipped.
 */
export async function importOrganizations(
  db: Database,
  read: ReadResult,
  options: { dryRun: boolean; clock: () => Date },
): Promise<ImportReport & { membershipsAdded: number }> {
  const outcomes: ImportOutcome[] = read.unreadable.map((u) => ({ ...u, status: 'failed' }));
  const seen = new Map<string, string>();
  let membershipsAdded = 0;
  for (const record of read.records) {
    const ready = validated(record.where, record.body);
    if ('reason' in ready) {
      outcomes.push({ where: record.where, status: 'failed', reason: ready.reason });
      continue;
    }
    const keys: [string, string][] = [
      ...(ready.organization.id ? [['id', ready.organization.id] as [string, string]] : []),
      ['slug', ready.organization.slug],
    ];
    const clash = keys.find(([field, value]) => seen.has(`${field}\n${value}`));
    if (clash) {
      const first = seen.get(`${clash[0]}\n${clash[1]}`)!;
      outcomes.push({ where: record.where, status: 'skipped', reason: `the same ${clash[0]} as ${first}` });
      continue;
    }
    for (const [field, value] of keys) seen.set(`${field}\n${value}`, record.where);
    try {
      const { outcome, added } = await db
        .transaction(async (tx) => {
          const written = await writeOrganization(tx, ready, options.clock());
          if (options.dryRun) throw new DryRun(written);
          return written;
        })
        .catch((err: unknown) => {
          if (err instanceof DryRun) return err.written;
          throw err;
        });
      membershipsAdded += added;
      outcomes.push(outcome);
    } catch (err) {
      if (err instanceof ClerkError) {
        outcomes.push({ where: record.where, status: 'failed', reason: reasonOf(err) });
      } else {
        outcomes.push({ where: record.where, status: 'failed', reason: writeFailure(err) });
      }
    }
  }
  return { ...reportOf(outcomes, read), membershipsAdded };
}

interface Written {
  outcome: ImportOutcome;
  /** Memberships added. */
  added: number;
}

async function writeOrganization(
  tx: Queryable,
  { where, organization, members }: ReadyOrganization,
  now: Date,
): Promise<Written> {
  const existing = organization.id ? await findOrganization(tx, organization.id) : null;
  let outcome: ImportOutcome;
  let row;
  if (existing) {
    outcome = { where, status: 'skipped', reason: 'an organization with this id exists already' };
    row = existing;
  } else if (await slugTaken(tx, organization.slug)) {
    return {
      outcome: { where, status: 'skipped', reason: 'an organization with this slug exists already' },
      added: 0,
    };
  } else {
    row = await createOrganization(tx, { ...organization, createdBy: null }, now);
    outcome = { where, status: 'imported', id: row.id };
  }
  const notes: string[] = [];
  let added = 0;
  for (const { ref: userId, role } of members) {
    if (!(await findUserById(tx, userId))) {
      notes.push(`membership of ${userId}: skipped: no such user`);
      continue;
    }
    const joined = await joinImported(tx, row, userId, role, now);
    if (joined === 'added') {
      added++;
      if (existing) notes.push(`membership of ${userId} added`);
    } else if (joined !== 'kept') notes.push(`membership of ${userId}: skipped: ${joined.reason}`);
  }
  return { outcome: { ...outcome, notes }, added };
}

/** Every organisation as an import line, with its memberships; and how many of each. */
export async function exportOrganizations(
  db: Queryable,
): Promise<{ jsonl: string; organizations: number; memberships: number }> {
  const all = await allOrganizationsWithMembers(db);
  const lines = all.map(({ organization: o, members }) =>
    JSON.stringify({
      id: o.id,
      name: o.name,
      slug: o.slug,
      public_metadata: o.public_metadata,
      private_metadata: o.private_metadata,
      max_allowed_memberships: o.max_allowed_memberships,
      created_at: new Date(o.created_at).toISOString(),
      memberships: members,
    }),
  );
  return {
    jsonl: lines.map((l) => `${l}\n`).join(''),
    organizations: all.length,
    memberships: all.reduce((n, o) => n + o.members.length, 0),
  };
}
