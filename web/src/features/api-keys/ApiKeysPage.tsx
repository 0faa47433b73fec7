import { APIKeys } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { selectApiKeysAccess, type ApiKeysAccess } from './access.ts';

/**
 * /api-keys — the active organisation's API keys, with Clerk's own <APIKeys/> (create with an
 * expiration, reveal and copy, revoke): the same list as <OrganizationProfile/>'s "API keys" page.
 * A key lets a script call the product API for the organisation (docs/api-keys.md).
 */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const access = selectApiKeysAccess(useAuthState());
  return (
    <section className="clerk-page" data-testid="api-keys-page" aria-labelledby="api-keys-heading">
      <PageTitle>{t('apiKeys.title')}</PageTitle>
      <h1 id="api-keys-heading">{t('apiKeys.title')}</h1>
      {access === 'open' ? (
        <>
          <p className="muted">
            {t('apiKeys.intro')} <Link to="/help/api-access">{t('apiKeys.howTo')}</Link>
          </p>
          <APIKeys showDescription fallback={<Loading />} />
        </>
      ) : (
        <Unavailable access={access} />
      )}
    </section>
  );
}

function Unavailable({ access }: { access: Exclude<ApiKeysAccess, 'open'> }) {
  const { t } = useTranslation();
  return (
    <div className="status" role="alert" data-testid="api-keys-unavailable" data-reason={access}>
      <p>
        <strong>{t('apiKeys.unavailable.heading')}</strong>
      </p>
      <p>
        {access === 'no-organization'
          ? t('apiKeys.unavailable.noOrganization')
          : t('apiKeys.unavailable.noPermission')}
      </p>
      <p>
        <Link to="/dashboard">{t('common.backToDashboard')}</Link>
      </p>
    </div>
  );
}
