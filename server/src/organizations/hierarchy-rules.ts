/**
 * The rules of the virtual-security-officer hierarchy, pure so they can be tested on their own: who
 * may run the client-organisation console and which links are allowed. The hierarchy store reads the
 * facts from the product database, under the hierarchy lock, and refuses with what these answer.
 *
 * Public metadata (spec §3) shows each link twice — the child's `parentOrganizationId` and the parent's
 * `vcisoChildOrganizations` — as a projection of the relational state (metadata-projection.ts).
 */
import { ADMIN_RIGHTS_ROLES, ORG_ROLES } from '@app/contract';

export const VCISO_ROLE = ORG_ROLES.vciso;

/** Roles that let a user bring an organisation they belong to under their vCISO organisation. */
export const ATTACH_ROLES: readonly string[] = ADMIN_RIGHTS_ROLES;

/**
 * The most organisations above any organisation. The spec sets no depth; this bounds the recursive reads
 * of a change and is far beyond any real hierarchy.
 */
export const MAX_ANCESTOR_DEPTH = 32;

export type HierarchyRefusalCode =
  'forbidden' | 'hierarchy_cycle' | 'hierarchy_too_deep' | 'already_has_parent' | 'not_a_child';

/** Why a change is refused; null everywhere below means "allowed". */
export interface HierarchyRefusal {
  code: HierarchyRefusalCode;
  message: string;
}

/** Only a virtual security officer of an organisation with the vCISO module runs its console. */
export function consoleRefusal(facts: {
  role: string | null;
  vCisoModuleEnabled: boolean;
}): HierarchyRefusal | null {
  if (facts.role !== VCISO_ROLE) {
    return {
      code: 'forbidden',
      message:
        'Only a virtual security officer of the active organisation can manage its client organisations.',
    };
  }
  if (!facts.vCisoModuleEnabled) {
    return {
      code: 'forbidden',
      message: 'The virtual security officer module is not enabled for the active organisation.',
    };
  }
  return null;
}

/** Who may attach an organisation: its admins and virtual security officers (role read from the Backend API). */
export function attachPermissionRefusal(callerRoleInChild: string | null): HierarchyRefusal | null {
  if (callerRoleInChild && ATTACH_ROLES.includes(callerRoleInChild)) return null;
  return {
    code: 'forbidden',
    message: 'You can only attach an organisation where you are an admin or a virtual security officer.',
  };
}

/**
 * Whether `childId` may become a child of `parentId`: no cycle, at most one parent, and no organisation
 * with more than MAX_ANCESTOR_DEPTH above it once the child and everything under it hang below the parent.
 */
export function linkRefusal(facts: {
  parentId: string;
  childId: string;
  /**
   * The parent's ancestors, nearest first; `complete` is false when the chain was not read to its top
   * (longer than MAX_ANCESTOR_DEPTH, or a loop already in the data).
   */
  parentAncestors: { ids: string[]; complete: boolean };
  /** The child's current parent. */
  childParentId: string | null;
  /** The levels below the child (0 without children of its own). */
  childHeight: number;
}): HierarchyRefusal | null {
  if (facts.childId === facts.parentId) {
    return { code: 'hierarchy_cycle', message: 'An organisation cannot be its own client organisation.' };
  }
  if (facts.parentAncestors.ids.includes(facts.childId)) {
    return {
      code: 'hierarchy_cycle',
      message:
        'This organisation is above the active organisation in the hierarchy; attaching it would make a cycle.',
    };
  }
  if (
    !facts.parentAncestors.complete ||
    facts.parentAncestors.ids.length + 1 + facts.childHeight > MAX_ANCESTOR_DEPTH
  ) {
    return {
      code: 'hierarchy_too_deep',
      message: `The hierarchy would be more than ${MAX_ANCESTOR_DEPTH} levels deep; it cannot take this organisation here.`,
    };
  }
  if (facts.childParentId && facts.childParentId !== facts.parentId) {
    return {
      code: 'already_has_parent',
      message:
        'This organisation already belongs to another organisation; it must be detached from it first.',
    };
  }
  return null;
}

/** Whether `childId` may be detached from `parentId`: only a child the product database links to it. */
export function detachRefusal(facts: {
  parentId: string;
  /** The child's parent in the product database (null when it has none). */
  childParentId: string | null;
}): HierarchyRefusal | null {
  if (facts.childParentId === facts.parentId) return null;
  return {
    code: 'not_a_child',
    message: 'This organisation is not a client organisation of the active one.',
  };
}

/** Metadata arrives as untyped JSON: only an array of strings counts as a list of children. */
export function childrenOf(metadata: Record<string, unknown> | null | undefined): string[] {
  const value = metadata?.vcisoChildOrganizations;
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

/** Only a non-empty string counts as a parent. */
export function parentOf(metadata: Record<string, unknown> | null | undefined): string | null {
  const value = metadata?.parentOrganizationId;
  return typeof value === 'string' && value !== '' ? value : null;
}
