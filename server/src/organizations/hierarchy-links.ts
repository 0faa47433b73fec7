import type { BackendApi, BackendOrganization } from '../api/deps.ts';
import {
  defaultOrganizationMetadata,
  MODULE_FLAGS,
  type ModuleFlag,
  type SubscriptionStatus,
} from './default-metadata.ts';
import { ancestorsOf, childrenWith, childrenWithout, parentOf, VCISO_ROLE } from './hierarchy-rules.ts';

type Organizations = BackendApi['organizations'];

/** Where a link left half-written is reported, so an operator can repair it (Fastify's logger fits). */
export interface HierarchyLog {
  error(details: object, message: string): void;
}

/** A client organisation as the console lists it. */
export interface ChildOrganizationSummary {
  id: string;
  name: string;
  slug: string | null;
  /** Each module flag of spec §3; only an explicit true is on. */
  modules: Record<ModuleFlag, boolean>;
  hasActiveSubscription: SubscriptionStatus;
}

const SUBSCRIPTION_STATUSES: readonly string[] = ['YES', 'NO', 'TRIAL'];

export function childSummary(organization: BackendOrganization): ChildOrganizationSummary {
  const metadata = organization.publicMetadata ?? {};
  const subscription = metadata.hasActiveSubscription;
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug || null,
    modules: Object.fromEntries(MODULE_FLAGS.map((flag) => [flag, metadata[flag] === true])) as Record<
      ModuleFlag,
      boolean
    >,
    // Until billing lands an operator sets it by hand; anything unexpected reads as no subscription.
    hasActiveSubscription: SUBSCRIPTION_STATUSES.includes(subscription as string)
      ? (subscription as SubscriptionStatus)
      : 'NO',
  };
}

/** The Backend API refused to create the organisation for what was asked (nothing was created). */
export class CreationRefused extends Error {
  override name = 'CreationRefused';

  constructor(
    readonly reason: 'slug_taken' | 'invalid',
    message: string,
  ) {
    super(message);
  }

  /** A Clerk 4xx about the input (ClerkAPIResponseError: status and errors), or null for anything else. */
  static from(error: unknown): CreationRefused | null {
    const { status, errors } = error as { status?: unknown; errors?: unknown };
    if (status !== 400 && status !== 422) return null;
    const first = (Array.isArray(errors) ? errors[0] : undefined) as
      { code?: string; message?: string; longMessage?: string } | undefined;
    if (first?.code === 'form_identifier_exists') {
      return new CreationRefused('slug_taken', 'That slug is taken; choose another.');
    }
    return new CreationRefused(
      'invalid',
      first?.longMessage || first?.message || 'The organisation could not be created as asked.',
    );
  }
}

const isNotFound = (error: unknown) => (error as { status?: unknown }).status === 404;

/** The organisation, or null when the Backend API does not know it. */
export async function findOrganization(
  organizations: Organizations,
  organizationId: string,
): Promise<BackendOrganization | null> {
  try {
    return await organizations.getOrganization({ organizationId });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The user's role in the organisation, read from the Backend API; null when not a member or no such organisation. */
export async function roleIn(
  organizations: Organizations,
  organizationId: string,
  userId: string,
): Promise<string | null> {
  try {
    const { data } = await organizations.getOrganizationMembershipList({
      organizationId,
      userId: [userId],
      limit: 1,
    });
    return data[0]?.role ?? null;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The organisations a parent lists, in its order; ids that no longer exist are left out. */
export async function listChildren(
  organizations: Organizations,
  childIds: readonly string[],
): Promise<ChildOrganizationSummary[]> {
  const found = new Map<string, BackendOrganization>();
  // The Backend API filters by at most 100 ids per call.
  for (let start = 0; start < childIds.length; start += 100) {
    const ids = childIds.slice(start, start + 100);
    const { data } = await organizations.getOrganizationList({ organizationId: ids, limit: 100 });
    for (const organization of data) found.set(organization.id, organization);
  }
  return childIds.flatMap((id) => {
    const organization = found.get(id);
    return organization ? [childSummary(organization)] : [];
  });
}

/** The organisation's ancestors, nearest first, read one Backend API call per level. */
export function ancestorsOfOrganization(organizations: Organizations, organization: BackendOrganization) {
  return ancestorsOf(organization.id, async (id) => {
    if (id === organization.id) return parentOf(organization.publicMetadata);
    const ancestor = await findOrganization(organizations, id);
    return ancestor ? parentOf(ancestor.publicMetadata) : undefined;
  });
}

/** Runs `step`; if it fails, runs `undo` and rethrows the step's error. A failed undo is logged. */
async function compensated<T>(
  step: () => Promise<T>,
  undo: (() => Promise<unknown>) | null,
  log: HierarchyLog,
  context: object,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (undo) {
      try {
        await undo();
      } catch (undoError) {
        log.error(
          { ...context, err: undoError, cause: error },
          'vCISO hierarchy link left half-written: the compensating Backend API write failed',
        );
      }
    }
    throw error;
  }
}

const setParent = (organizations: Organizations, childId: string, parentId: string | null) =>
  organizations.updateOrganizationMetadata(childId, { publicMetadata: { parentOrganizationId: parentId } });

const setChildren = (organizations: Organizations, parentId: string, children: string[]) =>
  organizations.updateOrganizationMetadata(parentId, {
    publicMetadata: { vcisoChildOrganizations: children },
  });

/*
 * Write order. The child's `parentOrganizationId` is written first when a link is made and cleared
 * last when it is undone, and a failed second write is compensated. If even the compensation fails
 * (or the process dies in between), what is left is a child naming a parent that does not list it:
 * nobody else can attach it (it has a parent), the parent's console does not show it, and attaching
 * or detaching it again from the parent repairs it. The opposite order could leave a child listed by
 * a parent while free to be attached elsewhere — two parents.
 */

/** Links `child` under `parent` (both as just read); writes only the sides not already linked. */
export async function linkChild(
  organizations: Organizations,
  parent: BackendOrganization,
  parentChildren: readonly string[],
  child: BackendOrganization,
  log: HierarchyLog,
): Promise<BackendOrganization> {
  let linkedChild = child;
  const childWritten = parentOf(child.publicMetadata) !== parent.id;
  if (childWritten) linkedChild = await setParent(organizations, child.id, parent.id);
  if (!parentChildren.includes(child.id)) {
    await compensated(
      () => setChildren(organizations, parent.id, childrenWith(parentChildren, child.id)),
      childWritten ? () => setParent(organizations, child.id, null) : null,
      log,
      { operation: 'attach', parentId: parent.id, childId: child.id },
    );
  }
  return linkedChild;
}

/** Undoes the link; `child` is null when the child organisation no longer exists. */
export async function unlinkChild(
  organizations: Organizations,
  parent: BackendOrganization,
  parentChildren: readonly string[],
  childId: string,
  child: BackendOrganization | null,
  log: HierarchyLog,
): Promise<void> {
  const listed = parentChildren.includes(childId);
  if (listed) await setChildren(organizations, parent.id, childrenWithout(parentChildren, childId));
  if (child && parentOf(child.publicMetadata) === parent.id) {
    await compensated(
      () => setParent(organizations, childId, null),
      listed ? () => setChildren(organizations, parent.id, [...parentChildren]) : null,
      log,
      { operation: 'detach', parentId: parent.id, childId },
    );
  }
}

/**
 * Creates a client organisation under `parent`, with the default metadata and its parent already set,
 * and `userId` as its virtual security officer.
 *
 * Created without `createdBy`, then the membership added as `org:vciso`: with a creator, Clerk makes
 * them `org:admin`, and demoting an organisation's only admin is refused
 * (`organization_minimum_permissions_needed`). The vCISO can invite the client's own admins.
 */
export async function createChild(
  organizations: Organizations,
  parent: BackendOrganization,
  parentChildren: readonly string[],
  input: { name: string; slug?: string; userId: string },
  log: HierarchyLog,
): Promise<BackendOrganization> {
  // The organisationId marker is left for the first read to add (organization-with-defaults.ts): the
  // id is not known before the organisation exists.
  const { organizationId: _unknownYet, ...defaults } = defaultOrganizationMetadata('');
  let child: BackendOrganization;
  try {
    child = await organizations.createOrganization({
      name: input.name,
      ...(input.slug ? { slug: input.slug } : {}),
      publicMetadata: { ...defaults, parentOrganizationId: parent.id },
    });
  } catch (error) {
    throw CreationRefused.from(error) ?? error;
  }
  await compensated(
    async () => {
      await organizations.createOrganizationMembership({
        organizationId: child.id,
        userId: input.userId,
        role: VCISO_ROLE,
      });
      await setChildren(organizations, parent.id, childrenWith(parentChildren, child.id));
    },
    () => organizations.deleteOrganization(child.id),
    log,
    { operation: 'create', parentId: parent.id, childId: child.id },
  );
  return child;
}
