import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { newId } from '../ids.ts';
import { isReservedClaim } from '../instance/settings/claims-template.ts';
import { findMachine, hasMachineScope, type MachineRow } from '../store/machines.ts';

/**
 * M2M tokens in Clerk's JWT format (`token_format: 'jwt'`, @clerk/backend 2.33's `m2m.createToken`): signed
 * with the instance's session-signing key (RS256, its `kid`, `typ: JWT`), so `m2m.verify` checks them
 * against the JWKS or `jwtKey` with no call here. The SDK tells one from a session token by its `sub`, a
 * machine's id (tokens/machine.ts `isM2MJwt`), and reads `jti` as the token's id, `scopes` (space-joined)
 * or `aud` as its scopes, `exp` and `iat` (api/resources/M2MToken.ts `fromJwtPayload`). Nothing is stored:
 * such a token is not listed and cannot be revoked, as Clerk's are not (docs/backend-api.md).
 */

const MACHINE_ID_PREFIX = 'mch_';
/** What a session token's consumers allow between servers (@clerk/backend's 5 s skew). */
const CLOCK_TOLERANCE_SECONDS = 5;

/** The claims the token sets itself, and those a session token's consumers trust: no custom claim takes them. */
const isM2mReservedClaim = (name: string) => name === 'aud' || name === 'scopes' || isReservedClaim(name);

/** Refuses custom claims that would overwrite the token's own, or make it pass for a session's (`sid`…). */
export function checkJwtClaims(claims: Record<string, unknown> | null): void {
  const taken = Object.keys(claims ?? {}).filter(isM2mReservedClaim);
  if (taken.length) {
    throw errors.paramValueInvalid(
      'claims',
      `claims of a JWT token cannot set ${taken.join(', ')}: the token sets them itself.`,
    );
  }
}

/** Clerk's M2MTokenJSON of a JWT token, from its claims: never revoked (nothing to revoke), times from `iat`. */
function m2mJwtJSON(payload: JWTPayload, now: Date, token?: string) {
  const custom = Object.fromEntries(Object.entries(payload).filter(([name]) => !isM2mReservedClaim(name)));
  const scopes = typeof payload.scopes === 'string' && payload.scopes ? payload.scopes.split(' ') : [];
  const issuedAt = payload.iat! * 1000;
  const expiration = payload.exp! * 1000;
  return {
    object: 'machine_to_machine_token' as const,
    id: payload.jti!,
    subject: payload.sub!,
    scopes,
    claims: Object.keys(custom).length ? custom : null,
    revoked: false,
    revocation_reason: null,
    expired: expiration <= now.getTime(),
    expiration,
    created_at: issuedAt,
    updated_at: issuedAt,
    ...(token === undefined ? {} : { token }),
  };
}

/** A JWT token of `machineId`, living `seconds`, for the `scopes` (machine ids) it may be presented to. */
export async function mintM2mJwt(
  deps: IdentityDeps,
  t: { machineId: string; scopes: string[]; claims: Record<string, unknown> | null; seconds: number },
  now: Date,
) {
  const iat = Math.floor(now.getTime() / 1000);
  const payload: JWTPayload = {
    ...t.claims,
    jti: newId('m2m'),
    sub: t.machineId,
    // No scope: neither claim, as `''.split(' ')` would read as one empty scope.
    ...(t.scopes.length ? { aud: t.scopes, scopes: t.scopes.join(' ') } : {}),
    iss: deps.tokens.issuer,
    iat,
    nbf: iat - 10,
    exp: iat + t.seconds,
  };
  const key = deps.signingKeys.current(now);
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
  return m2mJwtJSON(payload, now, token);
}

/**
 * A JWT token presented to the Backend API's verification (what @clerk/backend 2.10.1's `m2m.verifyToken`
 * sends, not knowing the format): valid if signed by a published key of this instance, current, of a
 * machine that still exists and, for a verifying machine, scoped to it now. Null for anything else. This
 * check knows more than the offline one, which accepts the token until `exp` whatever happened since.
 */
export async function verifyM2mJwt(
  db: Queryable,
  deps: IdentityDeps,
  presented: string,
  verifier: MachineRow | null,
  now: Date,
) {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(presented, deps.signingKeys.verificationKey, {
      algorithms: ['RS256'],
      typ: 'JWT',
      issuer: deps.tokens.issuer,
      requiredClaims: ['jti', 'sub', 'iat', 'exp'],
      currentDate: now,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch {
    return null;
  }
  const machineId = payload.sub!;
  // A session token is signed with the same key: only a machine's token is one of these.
  if (!machineId.startsWith(MACHINE_ID_PREFIX) || !(await findMachine(db, machineId))) return null;
  if (verifier && !(await hasMachineScope(db, machineId, verifier.id))) return null;
  return m2mJwtJSON(payload, now);
}

/** Whether a presented token has the JWT's three dot-separated parts (tokens/machine.ts `isJwtFormat`). */
export const isJwtFormat = (token: string): boolean =>
  /^[a-zA-Z0-9\-_]+\.[a-zA-Z0-9\-_]+\.[a-zA-Z0-9\-_]+$/.test(token);
