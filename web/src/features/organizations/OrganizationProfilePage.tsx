import { OrganizationProfile } from '@clerk/clerk-react';
import { PRODUCT_NAME } from '../../lib/product.ts';
import { Loading } from '../../ui/Loading.tsx';
import { organizationProfileAppearance } from './organization-profile-appearance.ts';

export const ORGANIZATION_PROFILE_PATH = '/organization';

export function OrganizationProfilePage() {
  return (
    <section
      className="clerk-page"
      data-testid="organization-profile-page"
      aria-label="Organisation settings"
    >
      <title>{`Organisation · ${PRODUCT_NAME}`}</title>
      {/* Path routing: each profile tab (e.g. /organization/organization-members) is a real URL. */}
      <OrganizationProfile
        routing="path"
        path={ORGANIZATION_PROFILE_PATH}
        afterLeaveOrganizationUrl="/dashboard"
        appearance={organizationProfileAppearance}
        fallback={<Loading />}
      />
    </section>
  );
}
