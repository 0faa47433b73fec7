import { OrganizationList } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';

export function OrganizationListPage() {
  const { t } = useTranslation();
  return (
    <section
      className="clerk-page"
      data-testid="organization-list-page"
      aria-label={t('organizations.yours')}
    >
      <PageTitle>{t('organizations.yours')}</PageTitle>
      <OrganizationList
        hidePersonal
        afterSelectOrganizationUrl="/dashboard"
        afterCreateOrganizationUrl="/dashboard"
        // The slug is the provider's, transliterated from the name (see CreateOrganizationPage).
        hideSlug
        fallback={<Loading />}
      />
    </section>
  );
}
