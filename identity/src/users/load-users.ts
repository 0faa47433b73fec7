import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { membershipJSON } from '../serializers/organization.ts';
import { publicUserDataJSON, userJSON } from '../serializers/user.ts';
import type { EmailAddressRow, MembershipRow, OrganizationRow, UserRow } from '../store/rows.ts';
import type { PhoneNumberRow } from '../store/phone-numbers.ts';
import {
  ownerRowOfIdentifier,
  ownerRowOfIdentifierWithLimits,
  ownerRowsOf,
  type OwnerRow,
} from '../store/owners.ts';
import type { RateLimitRule } from '../store/rate-limits.ts';
import type { ExternalAccountRow } from '../store/external-accounts.ts';
import type { EnterpriseAccountRow } from '../store/enterprise-sso.ts';
import type { Web3WalletRow } from '../store/web3-wallets.ts';
import type { PasskeySummary } from '../store/passkeys.ts';
import { secondFactorStateOfRow, type SecondFactorState } from '../second-factors/second-factor-state.ts';

export interface Owner {
  user: UserRow;
  emails: EmailAddressRow[];
  phones: PhoneNumberRow[];
  memberships: MembershipRow[];
  organizations: Map<string, OrganizationRow>;
  secondFactors: SecondFactorState;
  externalAccounts: ExternalAccountRow[];
  enterpriseAccounts: EnterpriseAccountRow[];
  web3Wallets: Web3WalletRow[];
  passkeys: PasskeySummary[];
  /** Current plans of the user (`organizationId` null) and of their organisations (store/owners.ts). */
  billingPlans: OwnerRow['billingPlans'];
}

/**
 * Users with their email addresses, phone numbers, organisation memberships and second factors, in one
 * statement (store/owners.ts): every answer with a client and every Backend API user read pays for it.
 */
export async function loadUsers(tx: Queryable, ids: string[]): Promise<Map<string, Owner>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await ownerRowsOf(tx, unique);
  // One organisation object for all the users given, as a client's users share them.
  const organizations = new Map<string, OrganizationRow>();
  return new Map(rows.map((row) => [row.user.id, ownerOfRow(row, organizations)]));
}

/** The user who signs in with `identifier`, loaded as loadUsers loads users (one statement). */
export async function loadOwnerByIdentifier(tx: Queryable, identifier: string): Promise<Owner | null> {
  const row = await ownerRowOfIdentifier(tx, identifier);
  return row ? ownerOfRow(row, new Map()) : null;
}

/**
 * loadOwnerByIdentifier with, in the same statement, the waits of the rate limits the sign-in will check
 * (store/owners.ts `ownerRowOfIdentifierWithLimits`).
 */
export async function loadOwnerByIdentifierWithLimits(
  tx: Queryable,
  identifier: string,
  rules: RateLimitRule[],
  now: Date,
): Promise<{ account: Owner | null; waits: Map<string, number> }> {
  const { row, waits } = await ownerRowOfIdentifierWithLimits(tx, identifier, rules, now);
  return { account: row ? ownerOfRow(row, new Map()) : null, waits };
}

function ownerOfRow(row: OwnerRow, organizations: Map<string, OrganizationRow>): Owner {
  for (const { organization } of row.memberships) {
    if (!organizations.has(organization.id)) organizations.set(organization.id, organization);
  }
  return {
    user: row.user,
    emails: row.emails,
    phones: row.phones,
    memberships: row.memberships.map((m) => m.membership),
    organizations,
    secondFactors: secondFactorStateOfRow(row),
    externalAccounts: row.externalAccounts,
    enterpriseAccounts: row.enterpriseAccounts,
    web3Wallets: row.web3Wallets,
    passkeys: row.passkeys,
    billingPlans: row.billingPlans,
  };
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
    externalAccounts: owner.externalAccounts,
    enterpriseAccounts: owner.enterpriseAccounts,
    web3Wallets: owner.web3Wallets,
    passkeys: owner.passkeys,
    enterpriseConnections: deps.settings.settings.enterpriseConnections,
    organizationMemberships: owner.memberships.flatMap((m) => {
      const org = owner.organizations.get(m.organization_id);
      return org ? [membershipJSON(m, org, publicData, { imageBase: deps.fapiBase })] : [];
    }),
  });
}
