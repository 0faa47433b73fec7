import { SignJWT } from 'jose';
import { factorVerificationAge, type FactorVerificationAge } from '../reverification/factor-age.ts';
import type { SessionRow } from '../store/rows.ts';
import type { SigningKey } from './signing-keys.ts';

/** Version 1 organisation claims (`org_id`, `org_slug`, `org_role`, `org_permissions`), which both
 * clerk-js 5.90.0 and @clerk/backend 2.10.1 parse when the token carries no `v` claim. */
export interface OrganizationClaims {
  id: string;
  slug: string;
  role: string;
  permissions: string[];
}

export interface TokenContext {
  signingKey: SigningKey;
  issuer: string;
  ttlSeconds: number;
}

/**
 * Mints a session token with the claims clerk-js 5.90.0 and @clerk/backend 2.10.1 read (version 1
 * organisation claims: both parse them, and they carry full permission keys without a feature table).
 * `azp` is the page origin that asked for it, so servers can pin `authorizedParties`.
 */
export async function mintSessionToken(
  ctx: TokenContext,
  session: SessionRow,
  azp: string | null,
  now: Date,
  org: OrganizationClaims | null = null,
  /** `fva`: minutes since each factor group was proven (see reverification/factor-age.ts). */
  fva: FactorVerificationAge = factorVerificationAge(session, false, now),
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const claims: Record<string, unknown> = {
    sid: session.id,
    sts: session.status === 'pending' ? 'pending' : 'active',
    fva,
  };
  if (org) {
    claims.org_id = org.id;
    claims.org_slug = org.slug;
    claims.org_role = org.role;
    claims.org_permissions = org.permissions;
  }
  if (azp) claims.azp = azp;
  if (session.actor) claims.act = session.actor;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: ctx.signingKey.kid, typ: 'JWT' })
    .setSubject(session.user_id)
    .setIssuer(ctx.issuer)
    .setIssuedAt(iat)
    .setNotBefore(iat - 10)
    .setExpirationTime(iat + ctx.ttlSeconds)
    .sign(ctx.signingKey.privateKey);
}
