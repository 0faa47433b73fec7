import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { membershipJSON } from '../serializers/organization.ts';
import { publicUserDataJSON, userJSON } from '../serializers/user.ts';
import { membershipsWithOrganizationsOfUsers } from '../store/organizations.ts';
import type { EmailAddressRow, MembershipRow, OrganizationRow, UserRow } from '../store/rows.ts';
import { emailAddressesOf } from '../store/users.ts';
import { phoneNumbersOf, type PhoneNumberRow } from '../store/phone-numbers.ts';
import { secondFactorStateOfRow, type SecondFactorState } from '../second-factors/second-factor-state.ts';
import { usersWithSecondFactorColumns } from '../store/second-factors.ts';

export interface Owner {
  user: UserRow;
  emails: EmailAddressRow[];
  phones: PhoneNumberRow[];
  memberships: MembershipRow[];
  organizations: Map<string, OrganizationRow>;
  secondFactors: SecondFactorState;
}

/**
 * Users with their email addresses, phone numbers, organisation memberships and second factors, in four
 * queries sent together (every Backend API user read, /api/me's included, pays for them: on PostgreSQL
 * outside a transaction they run on separate pool connections; PGlite runs them one after the other).
 */
export async function loadUsers(tx: Queryable, ids: string[]): Promise<Map<string, Owner>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const [users, emails, phones, { memberships, organizations }] = await Promise.all([
    usersWithSecondFactorColumns(tx, unique),
    emailAddressesOf(tx, unique),
    phoneNumbersOf(tx, unique),
    membershipsWithOrganizationsOfUsers(tx, unique),
  ]);
  return new Map(
    users.map(({ sf_totp, sf_backup_codes, sf_phones, ...user }) => [
      user.id,
      {
        user,
        emails: emails.get(user.id) ?? [],
        phones: phones.get(user.id) ?? [],
        memberships: memberships.filter((m) => m.user_id === user.id),
        organizations,
        secondFactors: secondFactorStateOfRow({ sf_totp, sf_backup_codes, sf_phones }),
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
