import { invalidRequest } from './errors.ts';

/** Clerk's limits (spec §5: names up to 256 characters; slugs as the identity provider accepts them). */
export const MAX_NAME_LENGTH = 256;
export const MAX_SLUG_LENGTH = 64;
const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** Only ids: the Backend API also takes a slug where an id goes, which must not sneak in here. */
const ORGANIZATION_ID_PATTERN = /^org_[A-Za-z0-9]{1,96}$/;

export interface NewChildInput {
  name: string;
  /** Absent: the Backend API derives one from the name. */
  slug?: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Strict: `{ name, slug? }` and nothing else; a blank slug means "derive it". */
export function parseNewChild(body: unknown): NewChildInput {
  if (!isPlainObject(body)) throw invalidRequest('The body must be a JSON object.');
  for (const key of Object.keys(body)) {
    if (key !== 'name' && key !== 'slug') {
      throw invalidRequest(`Unknown field "${key}"; expected name and, optionally, slug.`);
    }
  }
  if (typeof body.name !== 'string') throw invalidRequest('"name" must be a string.');
  const name = body.name.trim();
  if (!name) throw invalidRequest('"name" must not be empty.');
  if (name.length > MAX_NAME_LENGTH) {
    throw invalidRequest(`"name" must be at most ${MAX_NAME_LENGTH} characters.`);
  }
  if (body.slug === undefined || body.slug === null) return { name };
  if (typeof body.slug !== 'string') throw invalidRequest('"slug" must be a string.');
  const slug = body.slug.trim();
  if (!slug) return { name };
  if (slug.length > MAX_SLUG_LENGTH || !SLUG_PATTERN.test(slug)) {
    throw invalidRequest(
      `"slug" must be 1 to ${MAX_SLUG_LENGTH} lowercase letters, digits or hyphens, not starting or ending with a hyphen.`,
    );
  }
  return { name, slug };
}

export function parseOrganizationId(raw: unknown): string {
  if (typeof raw !== 'string' || !ORGANIZATION_ID_PATTERN.test(raw)) {
    throw invalidRequest('The organisation must be given by its id (org_…).');
  }
  return raw;
}
