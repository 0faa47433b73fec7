import { OrganizationProfile } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { organizationProfileAppearance } from './organization-profile-appearance.ts';

export const ORGANIZATION_PROFILE_PATH = '/organization';

export function OrganizationProfilePage() {
  const { t } = useTranslation();
  return (
    <section
      className="clerk-page"
      data-testid="organization-profile-page"
      aria-label={t('organizations.profile')}
    >
      <PageTitle>{t('organizations.profileTitle')}</PageTitle>
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
