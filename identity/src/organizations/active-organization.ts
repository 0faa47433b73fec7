import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { mintSessionToken, type OrganizationClaims } from '../instance/session-token.ts';
import { findOrganization, membershipOf } from '../store/organizations.ts';
import { factorVerificationAgeOf, type FactorVerificationAge } from '../reverification/factor-age.ts';
import type { SessionRow } from '../store/rows.ts';
import { permissionsOf } from './roles.ts';

/**
 * The organisation claims for a user in an organisation, or null when they are not (or no longer) a
 * member: a removed member's next token simply carries no organisation.
 */
export async function organizationClaims(
  tx: Queryable,
  userId: string,
  organizationId: string | null,
): Promise<OrganizationClaims | null> {
  if (!organizationId) return null;
  const org = await findOrganization(tx, organizationId);
  if (!org) return null;
  const membership = await membershipOf(tx, org.id, userId);
  if (!membership) return null;
  return {
    id: org.id,
    slug: org.slug,
    role: membership.role,
    permissions: [...permissionsOf(membership.role)],
  };
}

/** Mints a token for the session's active organisation (or `organizationId` when the caller names one). */
export async function tokenForSession(
  deps: IdentityDeps,
  tx: Queryable,
  session: SessionRow,
  azp: string | null,
  now: Date,
  organizationId: string | null = session.last_active_organization_id,
  fva?: FactorVerificationAge,
): Promise<string> {
  const org = await organizationClaims(tx, session.user_id, organizationId);
  return mintSessionToken(
    deps.tokens,
    session,
    azp,
    now,
    org,
    fva ?? (await factorVerificationAgeOf(tx, session, now)),
  );
}
