import { ORG_ROLES } from '../../state/auth/roles.ts';

/** The roles whose holders can switch modules on (admin rights, spec §6). */
export const MODULE_MANAGER_ROLES = [ORG_ROLES.admin, ORG_ROLES.vciso] as const;
export type ModuleManagerRole = (typeof MODULE_MANAGER_ROLES)[number];

export interface AdminContact {
  userId: string;
  /** Their name, or their sign-in identifier (an email address) when they gave none. */
  name: string;
  role: ModuleManagerRole;
}

/** The fields of clerk-js's OrganizationMembershipResource read here (structural, so this stays pure). */
export interface MembershipFields {
  role: string;
  publicUserData?: {
    userId?: string;
    firstName: string | null;
    lastName: string | null;
    identifier: string;
  } | null;
}

const isManagerRole = (role: string): role is ModuleManagerRole =>
  (MODULE_MANAGER_ROLES as readonly string[]).includes(role);

/** Who to ask to switch a module on: the admins, then the virtual security officers, each by name. */
export function adminContacts(memberships: readonly MembershipFields[]): AdminContact[] {
  const contacts: AdminContact[] = [];
  for (const { role, publicUserData: user } of memberships) {
    if (!user?.userId || !isManagerRole(role)) continue;
    const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.identifier;
    contacts.push({ userId: user.userId, name, role });
  }
  const rank = (role: ModuleManagerRole) => MODULE_MANAGER_ROLES.indexOf(role);
  return contacts.sort((a, b) => rank(a.role) - rank(b.role) || a.name.localeCompare(b.name));
}
