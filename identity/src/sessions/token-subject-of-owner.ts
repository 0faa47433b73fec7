import { permissionsOf } from '../organizations/roles.ts';
import { twoFactorEnabled } from '../second-factors/second-factor-state.ts';
import type { SessionRow } from '../store/rows.ts';
import type { TokenSubject } from '../store/token-subjects.ts';
import type { Owner } from '../users/load-users.ts';

/**
 * The token subject of a session whose user is already loaded (a client's answer loads every session's
 * user for its JSON): what store/token-subjects.ts reads in one query, taken from memory instead. The
 * organisation is the session's active one while the user is a member of it, as in that query.
 */
export function tokenSubjectOfOwner(session: SessionRow, owner: Owner): TokenSubject {
  const { user } = owner;
  const email = owner.emails.find((e) => e.id === user.primary_email_address_id);
  const phone = owner.phones.find((p) => p.id === user.primary_phone_number_id);
  const membership = session.last_active_organization_id
    ? owner.memberships.find((m) => m.organization_id === session.last_active_organization_id)
    : undefined;
  const org = membership ? owner.organizations.get(membership.organization_id) : undefined;
  return {
    session,
    user: {
      id: user.id,
      external_id: user.external_id,
      first_name: user.first_name,
      last_name: user.last_name,
      username: user.username,
      image_id: user.image_id,
      public_metadata: user.public_metadata,
      unsafe_metadata: user.unsafe_metadata,
      created_at: user.created_at,
      updated_at: user.updated_at,
      primary_email_address: email
        ? { email_address: email.email_address, verified: email.verified_at !== null }
        : null,
      primary_phone_number: phone
        ? { phone_number: phone.phone_number, verified: phone.verified_at !== null }
        : null,
    },
    twoFactor: twoFactorEnabled(owner.secondFactors),
    organization:
      membership && org
        ? {
            id: org.id,
            name: org.name,
            slug: org.slug,
            image_type: org.image_type,
            public_metadata: org.public_metadata,
            updated_at: org.updated_at,
            membership: {
              role: membership.role,
              permissions: [...permissionsOf(membership.role)],
              public_metadata: membership.public_metadata,
            },
          }
        : null,
    billing: {
      user: owner.billingPlans.filter((b) => b.organizationId === null).map((b) => b.plan),
      organization:
        membership && org
          ? owner.billingPlans.filter((b) => b.organizationId === org.id).map((b) => b.plan)
          : [],
    },
  };
}
