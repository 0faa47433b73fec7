import { z } from '../zod.ts';
import { moduleFlagsOf, subscriptionStatusOf, type ModuleFlag } from '../organization-metadata.ts';

/**
 * The virtual security officer's console: the active organisation's client organisations
 * (`/api/organizations/current/children`) and its parent (`/api/organizations/current/parent`).
 */
export const CHILDREN_PATH = '/api/organizations/current/children';
export const PARENT_PATH = '/api/organizations/current/parent';

/** Clerk's limits (spec §5: names up to 256 characters; slugs as the identity provider accepts them). */
export const MAX_NAME_LENGTH = 256;
export const MAX_SLUG_LENGTH = 64;
const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** Only ids: the Backend API also takes a slug where an id goes, which must not sneak in here. */
export const ORGANIZATION_ID_PATTERN = /^org_[A-Za-z0-9]{1,96}$/;

/** `:organizationId` of PUT and DELETE `/children/:organizationId`. */
export const organizationIdSchema = z
  .string()
  .regex(ORGANIZATION_ID_PATTERN, 'The organisation must be given by its id (org_…).');

/**
 * POST /children `{ name, slug? }`: strict; the name trimmed and not empty; a blank or null slug means
 * "derive it from the name".
 */
export const newChildOrganizationSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, '"name" must not be empty.')
      .max(MAX_NAME_LENGTH, `"name" must be at most ${MAX_NAME_LENGTH} characters.`),
    slug: z
      .string()
      .trim()
      .nullish()
      .transform((slug) => slug || undefined)
      .pipe(
        z
          .string()
          .max(MAX_SLUG_LENGTH)
          .regex(
            SLUG_PATTERN,
            `"slug" must be 1 to ${MAX_SLUG_LENGTH} lowercase letters, digits or hyphens, not starting or ending with a hyphen.`,
          )
          .optional(),
      ),
  })
  // Without a slug the key is left out, so the Backend API derives one.
  .transform(({ name, slug }) => (slug ? { name, slug } : { name }));
export type NewChildOrganization = z.input<typeof newChildOrganizationSchema>;
export type ParsedNewChildOrganization = z.output<typeof newChildOrganizationSchema>;

/**
 * A client organisation as the console lists it (GET /children, and the answer of POST and PUT).
 * Missing or malformed flags read as off, an unknown subscription status as NO.
 */
export const childOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string().nullable(),
  modules: z
    .unknown()
    .optional()
    .transform((modules): Record<ModuleFlag, boolean> => moduleFlagsOf(modules)),
  hasActiveSubscription: z
    .unknown()
    .transform((status) => subscriptionStatusOf({ hasActiveSubscription: status })),
});
export type ChildOrganization = z.output<typeof childOrganizationSchema>;

export const childOrganizationListSchema = z.object({ data: z.array(childOrganizationSchema) });
export type ChildOrganizationList = z.output<typeof childOrganizationListSchema>;

/** DELETE /children/:organizationId: the organisation stays, no longer a client. */
export const detachedChildSchema = z.object({ id: z.string(), detached: z.literal(true) });
export type DetachedChild = z.infer<typeof detachedChildSchema>;

/** GET /parent: the active organisation's parent, or null; a parent that no longer exists reads as none. */
export const parentOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string().nullable(),
  /** Whether the caller can switch to it (a membership, asked of the Backend API). */
  isMember: z.boolean(),
});
export type ParentOrganization = z.infer<typeof parentOrganizationSchema>;
export const parentOrganizationAnswerSchema = z.object({ parent: parentOrganizationSchema.nullable() });
export type ParentOrganizationAnswer = z.infer<typeof parentOrganizationAnswerSchema>;
