import { useUser } from '@clerk/clerk-react';
import { Trans, useTranslation } from 'react-i18next';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { OrganizationCard } from './OrganizationCard.tsx';

export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  // clerk-js joins first and last name, which yields an empty string when neither is set.
  const fullName = user?.fullName?.trim() || null;
  const email = user?.primaryEmailAddress?.emailAddress ?? null;

  return (
    <div className="dashboard" data-testid="dashboard">
      <PageTitle>{t('dashboard.title')}</PageTitle>
      <section className="dashboard__welcome" aria-labelledby="dashboard-heading">
        <h1 id="dashboard-heading">
          {fullName ? (
            <Trans
              t={t}
              i18nKey="dashboard.welcomeNamed"
              values={{ name: fullName }}
              components={{ name: <span data-testid="user-name" /> }}
            />
          ) : (
            t('dashboard.welcome')
          )}
        </h1>
        {email && (
          <p className="muted">
            <Trans
              t={t}
              i18nKey="dashboard.signedInAs"
              values={{ email }}
              components={{ email: <span data-testid="user-email" /> }}
            />
          </p>
        )}
      </section>
      <div className="dashboard__grid">
        <OrganizationCard />
      </div>
    </div>
  );
}
