import { CreateOrganization } from '@clerk/clerk-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CREATE_ORGANIZATION_PATH } from '../../app/navigation/navigation-rule.ts';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';

export function CreateOrganizationPage() {
  const { t } = useTranslation();
  return (
    <section
      className="clerk-page"
      data-testid="create-organization-page"
      aria-label={t('organizations.create')}
    >
      <PageTitle>{t('organizations.create')}</PageTitle>
      <CreateOrganization
        routing="path"
        path={CREATE_ORGANIZATION_PATH}
        afterCreateOrganizationUrl="/dashboard"
        // The provider derives the slug from the name, transliterated ("Acme Sécurité" → acme-securite);
        // clerk-js would fill the field with its own derivation, which drops accented letters (acme-s-curit-).
        hideSlug
        fallback={<Loading />}
      />
      <p className="muted clerk-page__aside">
        <Trans
          t={t}
          i18nKey="organizations.invitedAside"
          components={{ invitations: <Link to="/organizations" /> }}
        />
      </p>
    </section>
  );
}
