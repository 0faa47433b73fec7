/** The organisation roles of the instance (spec §6); memberships carry one of them. */
export const ORG_ROLES = { admin: 'org:admin', member: 'org:member', vciso: 'org:vciso' } as const;
export type OrgRole = (typeof ORG_ROLES)[keyof typeof ORG_ROLES];

const ROLE_LABELS: Record<OrgRole, string> = {
  [ORG_ROLES.admin]: 'Admin',
  [ORG_ROLES.member]: 'Member',
  [ORG_ROLES.vciso]: 'Virtual security officer',
};

/** The label people see for a role; an unknown (custom) role shows its key without the `org:` prefix. */
export function roleLabel(role: string): string {
  return ROLE_LABELS[role as OrgRole] ?? role.replace(/^org:/, '');
}

/** Admin rights are held by admins and virtual security officers. */
export function roleHasAdminRights(role: string | undefined): boolean {
  return role === ORG_ROLES.admin || role === ORG_ROLES.vciso;
}
