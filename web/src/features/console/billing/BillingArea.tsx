import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';

/** The billing area's sections, each a page under /console/billing. */
const SECTIONS = [
  { path: 'plans', labelKey: 'console.billing.sections.plans' },
  { path: 'subscriptions', labelKey: 'console.billing.sections.subscriptions' },
  { path: 'statements', labelKey: 'console.billing.sections.statements' },
] as const;

/**
 * /console/billing — the plans with their features and prices, every payer's subscriptions, and the
 * statements with their payments (docs/billing.md). Read-only: plans are instance settings.
 */
export function BillingArea() {
  const { t } = useTranslation();
  return (
    <div data-testid="console-billing">
      <h2>{t('console.billing.title')}</h2>
      <nav className="console__subnav" aria-label={t('console.billing.sectionsLabel')}>
        {SECTIONS.map((section) => (
          <NavLink
            key={section.path}
            to={`/console/billing/${section.path}`}
            className="console__nav-link"
            data-testid={`console-billing-nav-${section.path}`}
          >
            {t(section.labelKey)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
