import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { membershipJSON } from '../serializers/organization.ts';
import { publicUserDataJSON, userJSON } from '../serializers/user.ts';
import { membershipsOfUsers, organizationsByIds } from '../store/organizations.ts';
import type { EmailAddressRow, MembershipRow, OrganizationRow, UserRow } from '../store/rows.ts';
import { emailAddressesOf } from '../store/users.ts';
import { phoneNumbersOf, type PhoneNumberRow } from '../store/phone-numbers.ts';
import {
  NO_SECOND_FACTORS,
  secondFactorStates,
  type SecondFactorState,
} from '../second-factors/second-factor-state.ts';

export interface Owner {
  user: UserRow;
  emails: EmailAddressRow[];
  phones: PhoneNumberRow[];
  memberships: MembershipRow[];
  organizations: Map<string, OrganizationRow>;
  secondFactors: SecondFactorState;
}

/** Users with their email addresses, organisation memberships and second factors, in a fixed number of queries. */
export async function loadUsers(tx: Queryable, ids: string[]): Promise<Map<string, Owner>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const users = await tx.query<UserRow>('SELECT * FROM users WHERE id = ANY($1)', [unique]);
  const emails = await emailAddressesOf(tx, unique);
  const phones = await phoneNumbersOf(tx, unique);
  const memberships = await membershipsOfUsers(tx, unique);
  const organizations = await organizationsByIds(
    tx,
    memberships.map((m) => m.organization_id),
  );
  const secondFactors = await secondFactorStates(tx, unique);
  return new Map(
    users.map((u) => [
      u.id,
      {
        user: u,
        emails: emails.get(u.id) ?? [],
        phones: phones.get(u.id) ?? [],
        memberships: memberships.filter((m) => m.user_id === u.id),
        organizations,
        secondFactors: secondFactors.get(u.id) ?? NO_SECOND_FACTORS,
      },
    ]),
  );
}

/** Clerk's full UserJSON, memberships included (the organisation UI reads permissions from them). */
export function fullUserJSON(
  deps: IdentityDeps,
  owner: Owner,
  now: Date,
  opts: { includePrivate?: boolean } = {},
) {
  const publicData = publicUserDataJSON(owner.user, owner.emails, deps);
  return userJSON(owner.user, owner.emails, {
    images: deps,
    deleteSelfEnabled: deps.config.deleteSelfEnabled,
    now,
    includePrivate: opts.includePrivate,
    secondFactors: owner.secondFactors,
    phoneNumbers: owner.phones,
    organizationMemberships: owner.memberships.flatMap((m) => {
      const org = owner.organizations.get(m.organization_id);
      return org ? [membershipJSON(m, org, publicData, { imageBase: deps.fapiBase })] : [];
    }),
  });
}
