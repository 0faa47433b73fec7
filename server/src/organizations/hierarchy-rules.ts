/**
 * The rules of the virtual-security-officer hierarchy, pure so they can be tested on their own: who
 * may run the client-organisation console, which links are allowed, and how the two sides of a link
 * change. The routes read the facts through the Backend API and refuse with what these answer.
 *
 * The link has two sides in public metadata (spec §3): the child's `parentOrganizationId` and the
 * parent's `vcisoChildOrganizations`. The child's side is the authority on who its parent is: it holds
 * one value, so a child can never have two parents there, whatever the parents' lists say.
 */

export const VCISO_ROLE = 'org:vciso';

/** Roles that let a user bring an organisation they belong to under their vCISO organisation. */
export const ATTACH_ROLES: readonly string[] = ['org:admin', 'org:vciso'];

/**
 * How far up the parent chain a cycle check looks. The spec sets no depth; this bounds the number of
 * Backend API reads per change and is far beyond any real hierarchy.
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

/**
 * The ancestors of an organisation, nearest first, from a lookup of each one's parent. Stops at the
 * top, at an organisation that no longer exists (`parentOf` answers undefined), at a loop already in
 * the data (complete: false) or after MAX_ANCESTOR_DEPTH (complete: false).
 */
export async function ancestorsOf(
  organizationId: string,
  parentOf: (id: string) => Promise<string | null | undefined>,
): Promise<{ ids: string[]; complete: boolean }> {
  const ids: string[] = [];
  const seen = new Set([organizationId]);
  let current = await parentOf(organizationId);
  while (current) {
    if (seen.has(current) || ids.length >= MAX_ANCESTOR_DEPTH) return { ids, complete: false };
    seen.add(current);
    ids.push(current);
    current = await parentOf(current);
  }
  return { ids, complete: true };
}

/** Who may attach an organisation: its admins and virtual security officers (role read from the Backend API). */
export function attachPermissionRefusal(callerRoleInChild: string | null): HierarchyRefusal | null {
  if (callerRoleInChild && ATTACH_ROLES.includes(callerRoleInChild)) return null;
  return {
    code: 'forbidden',
    message: 'You can only attach an organisation where you are an admin or a virtual security officer.',
  };
}

/** Whether `childId` may become a child of `parentId`: no cycle, and at most one parent. */
export function linkRefusal(facts: {
  parentId: string;
  childId: string;
  /** The parent's ancestors, nearest first (ancestorsOf). */
  parentAncestors: { ids: string[]; complete: boolean };
  /** The child's current `parentOrganizationId`. */
  childParentId: string | null;
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
  if (!facts.parentAncestors.complete) {
    return {
      code: 'hierarchy_too_deep',
      message: `The hierarchy above the active organisation is more than ${MAX_ANCESTOR_DEPTH} levels deep or loops; it cannot take more organisations.`,
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

/**
 * Whether `childId` may be detached from `parentId`: only a real child, one that either side of the
 * link names (so a half-written link can still be undone).
 */
export function detachRefusal(facts: {
  parentId: string;
  childId: string;
  parentChildren: readonly string[];
  /** The child's `parentOrganizationId`; undefined when the child no longer exists. */
  childParentId: string | null | undefined;
}): HierarchyRefusal | null {
  if (facts.parentChildren.includes(facts.childId) || facts.childParentId === facts.parentId) return null;
  return {
    code: 'not_a_child',
    message: 'This organisation is not a client organisation of the active one.',
  };
}

/** The parent's list with the child added once, order kept. */
export function childrenWith(children: readonly string[], childId: string): string[] {
  return children.includes(childId) ? [...children] : [...children, childId];
}

/** The parent's list without the child. */
export function childrenWithout(children: readonly string[], childId: string): string[] {
  return children.filter((id) => id !== childId);
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
