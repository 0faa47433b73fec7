import type { NewOrganization } from '../../organizations/organizations.ts';
import type { BapiFieldKind } from '../json-input.ts';
import type { JsonBody } from '../request-input.ts';

/** The body fields of `organizations.createOrganization` that describe the organisation itself. */
export const ORGANIZATION_CREATE_FIELDS = {
  name: 'string',
  slug: 'string',
  public_metadata: 'object',
  private_metadata: 'object',
  max_allowed_memberships: 'integer',
} as const satisfies Record<string, BapiFieldKind>;

/**
 * The organisation a creation body describes, for `createOrganization` to check (the Backend API's
 * `POST /v1/organizations` and `organizations import` alike); who creates it is the caller's.
 */
export function newOrganizationOf(body: JsonBody): Omit<NewOrganization, 'createdBy'> {
  return {
    name: body.string('name'),
    slug: body.string('slug') || undefined,
    publicMetadata: body.object('public_metadata'),
    privateMetadata: body.object('private_metadata'),
    maxAllowedMemberships: body.integer('max_allowed_memberships'),
  };
}
