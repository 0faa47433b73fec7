import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { newId } from '../ids.ts';
import {
  countMachines,
  existingMachineIds,
  findMachine,
  findMachineBySecretHash,
  insertMachine,
  insertMachineScope,
  replaceMachineSecret,
  scopedMachinesOf,
  type MachineRow,
} from '../store/machines.ts';
import {
  hashMatches,
  MACHINE_SECRET_SHAPE,
  machineSecretHash,
  newMachineSecret,
  sealMachineSecret,
  unsealMachineSecret,
} from './machine-secrets.ts';

export const MACHINE_NAME_MAX_LENGTH = 255;
/** Clerk's default lifetime of a machine's tokens: an hour. */
export const DEFAULT_TOKEN_TTL = 3600;
/** From a second to ten years (Clerk does not publish its bounds). */
export const MAX_TOKEN_TTL = 10 * 365 * 86_400;
/** Machines per instance, and machines named in one creation's `scoped_machines`. */
export const MAX_MACHINES = 1000;
export const MAX_SCOPED_AT_CREATION = 150;
/** How long a rotated key may still be used, at most (a day). */
export const MAX_PREVIOUS_KEY_DELAY = 86_400;

export function checkedName(name: string | undefined, required: boolean): string | undefined {
  const trimmed = name?.trim();
  if (name !== undefined && !trimmed) throw errors.paramValueInvalid('name', 'name must not be empty.');
  if (!trimmed) {
    if (required) throw errors.paramMissing('name');
    return undefined;
  }
  if (trimmed.length > MACHINE_NAME_MAX_LENGTH) throw errors.paramMaxLength('name', MACHINE_NAME_MAX_LENGTH);
  return trimmed;
}

export function checkedTtl(ttl: number | undefined): number | undefined {
  if (ttl === undefined) return undefined;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_TTL) {
    throw errors.paramValueInvalid(
      'default_token_ttl',
      `default_token_ttl must be a whole number of seconds between 1 and ${MAX_TOKEN_TTL}.`,
    );
  }
  return ttl;
}

/** Clerk's MachineJSON; `secret_key` only in the answer to a creation. */
export function machineJSON(machine: MachineRow, scoped: MachineRow[], secretKey?: string) {
  return {
    ...nested(machine),
    scoped_machines: scoped.map(nested),
    ...(secretKey === undefined ? {} : { secret_key: secretKey }),
  };
}

function nested(machine: MachineRow) {
  return {
    object: 'machine' as const,
    id: machine.id,
    name: machine.name,
    // One instance per provider: its id is the instance's (the Backend API's `instance.get`).
    instance_id: INSTANCE_ID,
    created_at: machine.created_at.getTime(),
    updated_at: machine.updated_at.getTime(),
    default_token_ttl: machine.default_token_ttl,
    scoped_machines: [] as unknown[],
  };
}

/** The id this provider's instance answers (`instance.get`, machines' `instance_id`). */
export const INSTANCE_ID = 'ins_embedded';

/** One machine with its scoped machines, as the Backend API answers it. */
export async function machineAnswer(db: Queryable, machine: MachineRow, secretKey?: string) {
  const scoped = await scopedMachinesOf(db, [machine.id]);
  return machineJSON(machine, scoped.get(machine.id) ?? [], secretKey);
}

export async function requireMachine(db: Queryable, id: string, lock = false): Promise<MachineRow> {
  const machine = await findMachine(db, id, lock);
  if (!machine) throw errors.notFound('machine');
  return machine;
}

/**
 * A new machine, scoped to `scopedMachines` (every one a machine of this instance, else 404 and nothing
 * is written). Answers it with its secret key, which the caller sees here and through `getSecretKey`.
 */
export async function createMachine(
  tx: Queryable,
  deps: IdentityDeps,
  input: { name: string; ttl: number; scopedMachines: string[] },
  now: Date,
) {
  const wanted = [...new Set(input.scopedMachines)];
  if (wanted.length > MAX_SCOPED_AT_CREATION) {
    throw errors.paramValueInvalid(
      'scoped_machines',
      `scoped_machines may name at most ${MAX_SCOPED_AT_CREATION} machines.`,
    );
  }
  const found = wanted.length ? await existingMachineIds(tx, wanted) : [];
  if (found.length !== wanted.length) throw errors.notFound('machine');
  if ((await countMachines(tx)) >= MAX_MACHINES) {
    throw errors.paramValueInvalid('name', `An instance holds at most ${MAX_MACHINES} machines.`);
  }
  const id = newId('mch');
  const secret = newMachineSecret();
  const machine = await insertMachine(tx, {
    id,
    name: input.name,
    ttl: input.ttl,
    secretHash: machineSecretHash(deps.keys.codePepper, secret),
    secretSealed: sealMachineSecret(deps.keys.secretKey, id, secret),
    now,
  });
  for (const to of wanted) await insertMachineScope(tx, id, to, now);
  return machineAnswer(tx, machine, secret);
}

export function revealMachineSecret(deps: IdentityDeps, machine: MachineRow): string {
  return unsealMachineSecret(deps.keys.secretKey, machine.id, machine.secret_sealed);
}

/** A new secret key; the old one keeps working for `previousDelay` seconds (0: stops at once). */
export async function rotateMachineSecret(
  tx: Queryable,
  deps: IdentityDeps,
  machine: MachineRow,
  previousDelay: number,
  now: Date,
): Promise<string> {
  const secret = newMachineSecret();
  await replaceMachineSecret(
    tx,
    machine.id,
    {
      secretHash: machineSecretHash(deps.keys.codePepper, secret),
      secretSealed: sealMachineSecret(deps.keys.secretKey, machine.id, secret),
      previousUntil: previousDelay > 0 ? new Date(now.getTime() + previousDelay * 1000) : null,
    },
    now,
  );
  return secret;
}

/** The machine a presented secret key is of: found by its keyed hash, compared in constant time. */
export async function machineOfSecret(
  db: Queryable,
  deps: IdentityDeps,
  secret: string,
  now: Date,
): Promise<MachineRow | null> {
  if (!MACHINE_SECRET_SHAPE.test(secret)) return null;
  const hash = machineSecretHash(deps.keys.codePepper, secret);
  const found = await findMachineBySecretHash(db, hash, now);
  if (!found || !hashMatches(hash, found.storedHash)) return null;
  return found.machine;
}
