import {
  defaultOrganizationMetadata,
  moduleFlagsOf,
  subscriptionStatusOf,
  type ChildOrganization,
} from '@app/contract';
import type { BackendApi, BackendOrganization } from '../api/backend-api.ts';
import { isBackendNotFound } from '../api/errors.ts';
import { VCISO_ROLE, type HierarchyRefusal } from './hierarchy-rules.ts';
import { attachChild, newChildRefusal, type HierarchyChange } from './hierarchy-store.ts';
import type { ProductHierarchy } from './product-hierarchy.ts';

type Organizations = BackendApi['organizations'];

/** Where an organisation left behind is reported, so an operator can remove it (Fastify's logger fits). */
export interface HierarchyLog {
  error(details: object, message: string): void;
}

/** A client organisation as the console lists it (the contract's `childOrganizationSchema`). */
export type ChildOrganizationSummary = ChildOrganization;

export function childSummary(organization: BackendOrganization): ChildOrganizationSummary {
  const metadata = organization.publicMetadata ?? {};
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug || null,
    // Only an explicit true is on; until billing lands an operator sets the status by hand, and anything
    // unexpected reads as no subscription.
    modules: moduleFlagsOf(metadata),
    hasActiveSubscription: subscriptionStatusOf(metadata),
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

/** The organisation, or null when the Backend API does not know it. */
export async function findOrganization(
  organizations: Organizations,
  organizationId: string,
): Promise<BackendOrganization | null> {
  try {
    return await organizations.getOrganization({ organizationId });
  } catch (error) {
    if (isBackendNotFound(error)) return null;
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
    if (isBackendNotFound(error)) return null;
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

/**
 * Creates a client organisation under `parentId` with the default metadata and `userId` as its virtual
 * security officer, then links it in the product database.
 *
 * Created without `createdBy`, then the membership added as `org:vciso`: with a creator, Clerk makes
 * them `org:admin`, and demoting an organisation's only admin is refused
 * (`organization_minimum_permissions_needed`). The vCISO can invite the client's own admins.
 *
 * The Backend API and the product database cannot share a transaction. The organisation is created first
 * (its id is needed for the link); when adding the membership or the link then fails — the Backend API or
 * the database is away, or the parent became too deep meanwhile — the organisation, which nobody else
 * knows of yet, is deleted again, and the failure answered. If even that deletion fails, it is logged: what
 * is left is an organisation with the vCISO as its member and no parent (its metadata names none, as the
 * parent is only ever written by the projection), which the vCISO can attach or delete.
 */
export async function createChild(
  hierarchy: ProductHierarchy,
  parentId: string,
  input: { name: string; slug?: string; userId: string },
  log: HierarchyLog,
): Promise<{ child: BackendOrganization; refusal: null } | { refusal: HierarchyRefusal }> {
  const early = await newChildRefusal(hierarchy.db, parentId);
  if (early) return { refusal: early };
  const organizations = hierarchy.organizations();
  // The organisationId marker is left for the first read to add (organization-with-defaults.ts): the
  // id is not known before the organisation exists. The hierarchy fields and the subscription flag are the
  // projection's to write.
  const {
    organizationId: _unknownYet,
    parentOrganizationId: _projected,
    vcisoChildOrganizations: _alsoProjected,
    hasActiveSubscription: _derived,
    ...defaults
  } = defaultOrganizationMetadata('');
  let child: BackendOrganization;
  try {
    child = await organizations.createOrganization({
      name: input.name,
      ...(input.slug ? { slug: input.slug } : {}),
      publicMetadata: defaults,
    });
  } catch (error) {
    throw CreationRefused.from(error) ?? error;
  }
  let change: HierarchyChange;
  try {
    await organizations.createOrganizationMembership({
      organizationId: child.id,
      userId: input.userId,
      role: VCISO_ROLE,
    });
    change = await attachChild(hierarchy.db, parentId, child.id);
  } catch (error) {
    await deleteNewOrganization(organizations, child.id, parentId, log);
    throw error;
  }
  if (change.refusal) {
    await deleteNewOrganization(organizations, child.id, parentId, log);
    return { refusal: change.refusal };
  }
  await hierarchy.afterCommit([parentId, child.id]);
  return { child, refusal: null };
}

async function deleteNewOrganization(
  organizations: Organizations,
  childId: string,
  parentId: string,
  log: HierarchyLog,
): Promise<void> {
  try {
    await organizations.deleteOrganization(childId);
  } catch (error) {
    log.error(
      { operation: 'create', parentId, childId, err: error },
      'vCISO client organisation created but not linked, and deleting it failed',
    );
  }
}
