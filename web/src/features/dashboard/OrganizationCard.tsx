import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { roleLabel } from '../../state/auth/roles.ts';
import { selectRole } from '../../state/auth/selectors.ts';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { moduleStatuses } from '../modules/modules.ts';
import { useModuleTexts } from '../modules/useModuleTexts.ts';
import { useCurrentOrganization } from '../organizations/useCurrentOrganization.ts';
import { SubscriptionFact } from '../subscription/SubscriptionBadge.tsx';
import { ParentOrganizationFact } from '../vciso/ParentOrganizationFact.tsx';

/** The active organisation: its name, the user's role in it and which modules it has switched on. */
export function OrganizationCard() {
  const { t } = useTranslation();
  const moduleTexts = useModuleTexts();
  const auth = useAuthState();
  const { state, retry } = useCurrentOrganization();
  const role = selectRole(auth);

  return (
    <section className="card" aria-labelledby="organization-heading" data-testid="dashboard-organization">
      <h2 id="organization-heading">{t('dashboard.organization.heading')}</h2>
      <div aria-live="polite" aria-busy={state.status === 'loading'}>
        {state.status === 'none' && (
          <div data-testid="dashboard-no-organization">
            <p>{t('dashboard.organization.none')}</p>
            <p className="actions">
              <Link to="/create-organization" className="button">
                {t('organizations.create')}
              </Link>
              <Link to="/organizations" className="button button--secondary">
                {t('organizations.yours')}
              </Link>
            </p>
          </div>
        )}

        {state.status === 'loading' && (
          <Loading testId="dashboard-organization-loading">{t('dashboard.organization.loading')}</Loading>
        )}

        {state.status === 'error' && (
          <LoadError
            what={t('dashboard.organization.what')}
            message={state.message}
            testId="dashboard-organization-error"
            onRetry={retry}
          />
        )}

        {state.status === 'loaded' && (
          <>
            <dl className="facts">
              <dt>{t('dashboard.organization.name')}</dt>
              <dd data-testid="dashboard-org-name">{state.organization.name}</dd>
              <dt>{t('dashboard.organization.yourRole')}</dt>
              <dd data-testid="dashboard-role">
                {role ? roleLabel(role, t) : t('dashboard.organization.noRole')}
              </dd>
              <SubscriptionFact status={state.organization.publicMetadata.hasActiveSubscription} />
              <ParentOrganizationFact />
            </dl>
            <h3 id="modules-heading">{t('dashboard.modules.heading')}</h3>
            <ul className="modules" aria-labelledby="modules-heading" data-testid="dashboard-modules">
              {moduleStatuses(auth.organization?.publicMetadata ?? {}).map((module) => (
                <li
                  key={module.key}
                  className={`module ${module.enabled ? 'module--on' : 'module--off'}`}
                  data-testid={`module-${module.key}`}
                  data-enabled={module.enabled ? 'true' : 'false'}
                >
                  <span className="module__label">{moduleTexts[module.key].name}</span>
                  <span className="module__state">
                    {module.enabled ? t('dashboard.modules.on') : t('dashboard.modules.off')}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}
