import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { newId } from '../ids.ts';
import {
  findM2mTokenByHash,
  hasMachineScope,
  insertM2mToken,
  scopedMachinesOf,
  type M2mTokenRow,
  type MachineRow,
} from '../store/machines.ts';
import { checkJwtClaims, mintM2mJwt } from './m2m-jwt.ts';
import { hashMatches, M2M_TOKEN_SHAPE, m2mTokenHash, newM2mToken } from './machine-secrets.ts';
import { MAX_TOKEN_TTL } from './machines.ts';

export const M2M_REASON_MAX_LENGTH = 500;
/** Custom claims: a JSON object of at most this many bytes (they travel in every verification). */
export const M2M_CLAIMS_MAX_BYTES = 4096;

/** Clerk's `token_format`: an opaque `mt_…` token, stored and revocable, or a JWT verifiable offline. */
export const M2M_TOKEN_FORMATS = ['opaque', 'jwt'] as const;
export type M2mTokenFormat = (typeof M2M_TOKEN_FORMATS)[number];

/** `token_format` as sent (absent or `null`: opaque, as @clerk/backend 2.10.1 sends none). */
export function tokenFormatOf(value: string | undefined): M2mTokenFormat {
  if (value === undefined) return 'opaque';
  if (!(M2M_TOKEN_FORMATS as readonly string[]).includes(value)) {
    throw errors.paramValueInvalid(
      'token_format',
      `token_format must be one of ${M2M_TOKEN_FORMATS.join(', ')}.`,
    );
  }
  return value as M2mTokenFormat;
}

export const isM2mTokenExpired = (token: M2mTokenRow, now: Date): boolean =>
  token.expires_at !== null && token.expires_at.getTime() <= now.getTime();

/** Clerk's M2MTokenJSON (times in epoch milliseconds); `token` only in the answer to a creation. */
export function m2mTokenJSON(token: M2mTokenRow, now: Date, secret?: string) {
  return {
    object: 'machine_to_machine_token' as const,
    id: token.id,
    subject: token.machine_id,
    scopes: token.scopes,
    claims: token.claims,
    revoked: token.revoked_at !== null,
    revocation_reason: token.revocation_reason,
    expired: isM2mTokenExpired(token, now),
    expiration: token.expires_at ? token.expires_at.getTime() : null,
    created_at: token.created_at.getTime(),
    updated_at: token.updated_at.getTime(),
    ...(secret === undefined ? {} : { token: secret }),
  };
}

/**
 * A token for `machine`: it lives `seconds` (absent: the machine's `default_token_ttl`), and its scopes
 * are the machines `machine` is scoped to now. An opaque token is stored (by its hash); a JWT is not.
 */
export async function createM2mToken(
  tx: Queryable,
  deps: IdentityDeps,
  machine: MachineRow,
  input: {
    seconds: number | undefined;
    claims: Record<string, unknown> | undefined;
    format: M2mTokenFormat;
  },
  now: Date,
) {
  const seconds = input.seconds ?? machine.default_token_ttl;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TOKEN_TTL) {
    throw errors.paramValueInvalid(
      'seconds_until_expiration',
      `seconds_until_expiration must be a whole number of seconds between 1 and ${MAX_TOKEN_TTL}.`,
    );
  }
  const claims = input.claims ?? null;
  if (claims && Buffer.byteLength(JSON.stringify(claims)) > M2M_CLAIMS_MAX_BYTES) {
    throw errors.paramValueInvalid('claims', `claims must be at most ${M2M_CLAIMS_MAX_BYTES} bytes of JSON.`);
  }
  if (input.format === 'jwt') checkJwtClaims(claims);
  const scopes = ((await scopedMachinesOf(tx, [machine.id])).get(machine.id) ?? []).map((m) => m.id);
  if (input.format === 'jwt')
    return mintM2mJwt(deps, { machineId: machine.id, scopes, claims, seconds }, now);
  const secret = newM2mToken();
  const row = await insertM2mToken(tx, {
    id: newId('m2m'),
    machineId: machine.id,
    tokenHash: m2mTokenHash(deps.keys.codePepper, secret),
    scopes,
    claims,
    expiresAt: new Date(now.getTime() + seconds * 1000),
    now,
  });
  return m2mTokenJSON(row, now, secret);
}

/**
 * The token a presented string is, if it is valid now for `verifier`: found by its keyed hash, compared
 * in constant time, not revoked, not expired. A machine verifies only the tokens of machines scoped to
 * it now (a scope deleted stops its tokens at once); the instance secret key verifies any. Null for
 * anything else: the caller cannot tell why.
 */
export async function verifyM2mToken(
  db: Queryable,
  deps: IdentityDeps,
  presented: string,
  verifier: MachineRow | null,
  now: Date,
): Promise<M2mTokenRow | null> {
  if (!M2M_TOKEN_SHAPE.test(presented)) return null;
  const hash = m2mTokenHash(deps.keys.codePepper, presented);
  const found = await findM2mTokenByHash(db, hash);
  if (!found || !hashMatches(hash, found.storedHash)) return null;
  const { token } = found;
  if (token.revoked_at || isM2mTokenExpired(token, now)) return null;
  if (verifier && !(await hasMachineScope(db, token.machine_id, verifier.id))) return null;
  return token;
}
