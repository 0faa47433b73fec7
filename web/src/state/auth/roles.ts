import { ORG_ROLES, type OrgRole } from '@app/contract';

/** The organisation roles of the instance (spec §6), as the contract declares them. */
export { ORG_ROLES, roleHasAdminRights, roleIsVciso, type OrgRole } from '@app/contract';

/** Where each role's label lives in the translations (`organizations.roles.*`). */
export const ROLE_LABEL_KEYS = {
  [ORG_ROLES.admin]: 'organizations.roles.admin',
  [ORG_ROLES.member]: 'organizations.roles.member',
  [ORG_ROLES.vciso]: 'organizations.roles.vciso',
} as const satisfies Record<OrgRole, string>;

/** The translation key of a role's label, or null for a role we do not know (a custom one). */
export function roleLabelKey(role: string): string | null {
  return Object.hasOwn(ROLE_LABEL_KEYS, role) ? ROLE_LABEL_KEYS[role as OrgRole] : null;
}

/**
 * The label people see for a role, in the interface language: the translation of a known role, else
 * the name the identity provider gives it, else its key without the `org:` prefix.
 */
export function roleLabel(role: string, t: (key: string) => string, providerName?: string): string {
  const key = roleLabelKey(role);
  return key ? t(key) : providerName || role.replace(/^org:/, '');
}
