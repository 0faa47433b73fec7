import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import {
  countCreatedBy,
  deleteOrganization as deleteOrganizationRow,
  insertMembership,
  insertOrganization,
  lockOrganizationMetadata,
  lockOrganizationSlugs,
  setOrganizationImage,
  slugTaken,
  updateOrganization as updateOrganizationRow,
  type OrganizationChanges,
  type OrganizationImage,
} from '../store/organizations.ts';
import type { OrganizationRow, UserRow } from '../store/rows.ts';
import { usersWithActiveOrganization } from '../store/user-sessions.ts';
import { deepMerge } from '../util/deep-merge.ts';
import { settleSessionsWithoutOrganization } from './memberships.ts';
import { CREATOR_ROLE } from './roles.ts';

/**
 * Organisations themselves, shared by the Frontend API (the Clerk components) and the Backend API:
 * creating one with its creator as admin, the name and slug rules, updates, metadata merges, deletion
 * and the logo. Authorisation (who may call what) stays with the callers.
 */

export const MAX_NAME_LENGTH = 256;
export const MAX_SLUG_LENGTH = 64;
/** Lowercase letters, digits and hyphens, neither starting nor ending with a hyphen. */
const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const FALLBACK_SLUG = 'organization';

/** The trimmed name; missing and over-long names are the `name` field's errors. */
export function validateName(raw: string | undefined): string {
  const name = raw?.trim() ?? '';
  if (!name) throw errors.paramMissing('name');
  if (name.length > MAX_NAME_LENGTH) throw errors.paramMaxLength('name', MAX_NAME_LENGTH);
  return name;
}

export function validateSlug(raw: string): string {
  // clerk-js fills the slug field from the name as the user types, so "Acme Inc." arrives as
  // "acme-inc-": edge hyphens are dropped rather than refused.
  const slug = raw.trim().replace(/^-+|-+$/g, '');
  if (slug.length > MAX_SLUG_LENGTH || !SLUG_PATTERN.test(slug)) {
    throw errors.paramFormatInvalid(
      'slug',
      `1 to ${MAX_SLUG_LENGTH} lowercase letters, digits or hyphens, not starting or ending with a hyphen`,
    );
  }
  return slug;
}

/** A slug made from a name: accents dropped, every other run of non-alphanumerics one hyphen. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return trimSlug(slug, MAX_SLUG_LENGTH) || FALLBACK_SLUG;
}

/**
 * Whether `slug` is what clerk-js's own form filled in from `name` (ui/utils/createSlug: lowercase, every
 * run of other characters one hyphen) and it lost letters doing so: the choose-organization task always
 * shows that field, and createSlug drops accented letters ("Acme Sécurité" → `acme-s-curit-`). Such a
 * slug was never the user's choice, so the name's transliterated slug is used instead.
 */
export function isMangledSlug(name: string, slug: string): boolean {
  const clerkJs = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return (
    slug === clerkJs && /[\u0080-\uffff]/.test(name) && clerkJs.replace(/^-+|-+$/g, '') !== slugFromName(name)
  );
}

function trimSlug(slug: string, max: number): string {
  return slug.slice(0, max).replace(/-+$/, '');
}

/** `base`, or `base-2`, `base-3`, … whichever is free first (kept within the length limit). */
async function uniqueSlug(tx: Queryable, base: string): Promise<string> {
  if (!(await slugTaken(tx, base))) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${trimSlug(base, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
    if (!(await slugTaken(tx, candidate))) return candidate;
  }
}

/** What `POST /v1/organizations` on the Frontend API additionally requires of the signed-in user. */
export async function assertMayCreateOrganization(tx: Queryable, user: UserRow): Promise<void> {
  if (!user.create_organization_enabled) throw errors.organizationCreationNotAllowed();
  // As in Clerk, 0 (like null) means no limit: clerk-js itself reads `create_organizations_limit || null`.
  const limit = user.create_organizations_limit;
  if (limit !== null && limit > 0 && (await countCreatedBy(tx, user.id)) >= limit) {
    throw errors.organizationCreationLimitExceeded(limit);
  }
}

export interface NewOrganization {
  /** An id kept from another system (`organizations import`). */
  id?: string;
  name: string | undefined;
  /** Explicit slug; derived from the name (made unique with a numeric suffix) when absent. */
  slug?: string;
  /** The creator, who becomes its first admin unless `firstAdmin` says otherwise. */
  createdBy: string | null;
  /** The user who becomes its first admin when it is not the creator (an impersonation's user). */
  firstAdmin?: string;
  publicMetadata?: Record<string, unknown>;
  privateMetadata?: Record<string, unknown>;
  maxAllowedMemberships?: number;
  /** When it was created in another system (`organizations import`). */
  createdAt?: Date;
}

export async function createOrganization(
  tx: Queryable,
  input: NewOrganization,
  now: Date,
): Promise<OrganizationRow> {
  const name = validateName(input.name);
  const explicit =
    input.slug === undefined || isMangledSlug(name, input.slug) ? undefined : validateSlug(input.slug);
  if (input.maxAllowedMemberships !== undefined) validateMaxAllowedMemberships(input.maxAllowedMemberships);
  await lockOrganizationSlugs(tx);
  let slug: string;
  if (explicit !== undefined) {
    if (await slugTaken(tx, explicit)) throw errors.organizationSlugTaken();
    slug = explicit;
  } else {
    slug = await uniqueSlug(tx, slugFromName(name));
  }
  const organization = await insertOrganization(tx, {
    id: input.id,
    name,
    slug,
    createdBy: input.createdBy,
    publicMetadata: input.publicMetadata,
    privateMetadata: input.privateMetadata,
    maxAllowedMemberships: input.maxAllowedMemberships,
    createdAt: input.createdAt,
    now,
  });
  const firstAdmin = input.firstAdmin ?? input.createdBy;
  if (firstAdmin) {
    await insertMembership(tx, {
      organizationId: organization.id,
      userId: firstAdmin,
      role: CREATOR_ROLE,
      now,
    });
  }
  return organization;
}

export function validateMaxAllowedMemberships(value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw errors.paramValueInvalid(
      'max_allowed_memberships',
      'max_allowed_memberships must be a whole number, 0 for no limit.',
    );
  }
}

export interface OrganizationUpdate {
  name?: string;
  slug?: string;
  /** Replaced wholesale (the Backend API's update; use `mergeOrganizationMetadata` to merge). */
  publicMetadata?: Record<string, unknown>;
  privateMetadata?: Record<string, unknown>;
  maxAllowedMemberships?: number;
  adminDeleteEnabled?: boolean;
}

/** Applies the given changes; fields left undefined keep their value. */
export async function updateOrganization(
  tx: Queryable,
  organization: OrganizationRow,
  update: OrganizationUpdate,
  now: Date,
): Promise<OrganizationRow> {
  const changes: OrganizationChanges = {};
  if (update.name !== undefined) changes.name = validateName(update.name);
  if (update.slug !== undefined) {
    const slug = validateSlug(update.slug);
    if (slug !== organization.slug) {
      await lockOrganizationSlugs(tx);
      if (await slugTaken(tx, slug, organization.id)) throw errors.organizationSlugTaken();
      changes.slug = slug;
    }
  }
  if (update.publicMetadata !== undefined) changes.public_metadata = update.publicMetadata;
  if (update.privateMetadata !== undefined) changes.private_metadata = update.privateMetadata;
  if (update.maxAllowedMemberships !== undefined) {
    validateMaxAllowedMemberships(update.maxAllowedMemberships);
    changes.max_allowed_memberships = update.maxAllowedMemberships;
  }
  if (update.adminDeleteEnabled !== undefined) changes.admin_delete_enabled = update.adminDeleteEnabled;
  return updateOrganizationRow(tx, organization.id, changes, now);
}

/**
 * Clerk's metadata merge: nested objects merge, anything else replaces, `null` deletes the key at any
 * depth. The row is locked first so concurrent merges do not lose each other's keys.
 */
export async function mergeOrganizationMetadata(
  tx: Queryable,
  organizationId: string,
  patch: { publicMetadata?: Record<string, unknown>; privateMetadata?: Record<string, unknown> },
  now: Date,
): Promise<OrganizationRow> {
  const current = await lockOrganizationMetadata(tx, organizationId);
  if (!current) throw errors.notFound('organization');
  const changes: OrganizationChanges = {};
  if (patch.publicMetadata)
    changes.public_metadata = deepMerge(current.public_metadata, patch.publicMetadata);
  if (patch.privateMetadata) {
    changes.private_metadata = deepMerge(current.private_metadata, patch.privateMetadata);
  }
  return updateOrganizationRow(tx, organizationId, changes, now);
}

/**
 * Deletes the organisation with its memberships and invitations. Sessions that had it active fall back
 * to no organisation (or, when organisation selection is forced, back to the choose-organization task).
 */
export async function deleteOrganization(
  tx: Queryable,
  deps: Pick<IdentityDeps, 'config'>,
  organization: OrganizationRow,
  now: Date,
): Promise<{ object: 'organization'; id: string; slug: string; deleted: true }> {
  const affected = await usersWithActiveOrganization(tx, organization.id);
  await deleteOrganizationRow(tx, organization.id);
  await settleSessionsWithoutOrganization(tx, deps, affected, now);
  return { object: 'organization', id: organization.id, slug: organization.slug, deleted: true };
}

// ---------------------------------------------------------------------------------------------------------
// Logo (validated by images/image-file.ts)

export async function setOrganizationLogo(
  tx: Queryable,
  organizationId: string,
  logo: OrganizationImage | null,
  now: Date,
): Promise<OrganizationRow> {
  return setOrganizationImage(tx, organizationId, logo, now);
}
