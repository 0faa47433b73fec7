import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { mintSessionToken, type TokenBilling, type TokenPlan } from '../instance/session-token.ts';
import { findOrganization, membershipOf } from '../store/organizations.ts';
import { factorVerificationAge, type FactorVerificationAge } from '../reverification/factor-age.ts';
import type { SessionRow } from '../store/rows.ts';
import type { TokenSubject } from '../store/token-subjects.ts';
import { permissionsOf } from './roles.ts';
import { customSessionClaims } from '../instance/settings/custom-claims.ts';

/** A user's place in an organisation, as a session's active organisation. */
export interface ActiveOrganization {
  id: string;
  slug: string;
  role: string;
  permissions: string[];
}

/**
 * The user's place in an organisation, or null when they are not (or no longer) a member: a removed
 * member's next token simply carries no organisation.
 */
export async function organizationClaims(
  tx: Queryable,
  userId: string,
  organizationId: string | null,
): Promise<ActiveOrganization | null> {
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

/**
 * The `pla`/`fea` input: only while the instance bills (read with the rest either way: no query of their
 * own). A payer without a current item is on its type's default plan, as clerk-js shows it
 * (`isDefaultPlanImplicitlyActive`): a user who never opened billing still carries `u:free_user`.
 */
function tokenBilling(deps: IdentityDeps, subject: TokenSubject): TokenBilling | null {
  const catalogue = deps.billing.catalogue();
  if (!catalogue) return null;
  const implicit = (type: 'user' | 'org'): TokenPlan[] => {
    const plan = catalogue.defaultFor(type);
    return plan ? [{ slug: plan.slug, features: plan.features.map((f) => f.slug) }] : [];
  };
  return {
    user: subject.billing.user.length ? subject.billing.user : implicit('user'),
    organization: !subject.organization
      ? []
      : subject.billing.organization.length
        ? subject.billing.organization
        : implicit('org'),
  };
}

/**
 * Mints the token of a subject read by store/token-subjects.ts. `session` is the session as the caller
 * holds it (its status and factors, as changed in the caller's transaction); `fva` when already known.
 */
export function tokenForSubject(
  deps: IdentityDeps,
  subject: TokenSubject,
  opts: {
    session?: Pick<SessionRow, 'id' | 'user_id' | 'status' | 'actor'> &
      Parameters<typeof factorVerificationAge>[0];
    azp: string | null;
    now: Date;
    fva?: FactorVerificationAge;
  },
): Promise<string> {
  const session = opts.session ?? subject.session;
  deps.metrics.sessionTokens.inc();
  return mintSessionToken(deps.tokens, {
    session,
    user: subject.user,
    organization: subject.organization,
    fva: opts.fva ?? factorVerificationAge(session, subject.twoFactor, opts.now),
    azp: opts.azp,
    now: opts.now,
    customClaims: customSessionClaims(deps, subject.user, subject.organization),
    billing: tokenBilling(deps, subject),
  });
}
