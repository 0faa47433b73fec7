import type { IdentityDeps } from '../../deps.ts';
import { organizationImageUrl } from '../../serializers/organization.ts';
import { userImageJSON } from '../../serializers/user.ts';
import type { TokenOrganization, TokenUser } from '../session-token.ts';
import { customClaimsTooLarge, type ClaimsSubject } from './claims-template.ts';

/**
 * The instance's session-token claims template rendered for one token, from what minting has already read
 * (store/token-subjects.ts: the user with its primary address and number, the active organisation with
 * the membership), so a template costs no query. Null when the template is empty.
 *
 * Rendered claims over Clerk's 1.2 KB bound (large metadata) are left out of the token, with a warning
 * that names the user but none of the values: the session keeps working, and a consumer missing a claim
 * can still ask the Backend API. Refusing the token instead would sign the user out of everything.
 */
export function customSessionClaims(
  deps: Pick<IdentityDeps, 'settings' | 'avatarUrl' | 'fapiBase'>,
  user: TokenUser,
  organization: TokenOrganization | null,
): Record<string, unknown> | null {
  const template = deps.settings.sessionTokenClaims;
  if (template.empty) return null;
  const claims = template.render(claimsSubjectOf(deps, user, organization));
  if (customClaimsTooLarge(claims)) {
    console.warn(
      `identity: the session token claims rendered for ${user.id} exceed the custom claims bound; minted without them.`,
    );
    return null;
  }
  return claims;
}

/** What a claims template reads of the token's own user and active organisation (and nothing else). */
export function claimsSubjectOf(
  urls: Pick<IdentityDeps, 'avatarUrl' | 'fapiBase'>,
  user: TokenUser,
  org: TokenOrganization | null,
): ClaimsSubject {
  return {
    user: {
      id: user.id,
      external_id: user.external_id,
      first_name: user.first_name,
      last_name: user.last_name,
      username: user.username,
      ...userImageJSON(user, urls),
      public_metadata: user.public_metadata,
      unsafe_metadata: user.unsafe_metadata,
      created_at: new Date(user.created_at),
      updated_at: new Date(user.updated_at),
    },
    primaryEmail: user.primary_email_address,
    primaryPhone: user.primary_phone_number,
    organization: org && {
      id: org.id,
      name: org.name,
      slug: org.slug,
      image_url: organizationImageUrl(org, urls.fapiBase),
      has_image: org.image_type !== null,
      public_metadata: org.public_metadata,
    },
    membership: org && {
      role: org.membership.role,
      permissions: org.membership.permissions,
      public_metadata: org.membership.public_metadata,
    },
  };
}
