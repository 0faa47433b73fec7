import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useAppConfig } from '../../app/AppConfigContext.tsx';

/** The pricing page in the main navigation, when the instance bills. */
export function PricingNavLink() {
  const { t } = useTranslation();
  if (!useAppConfig().billing?.enabled) return null;
  return (
    <NavLink to="/pricing" className="main-nav__link" data-testid="nav-pricing">
      {t('nav.pricing')}
    </NavLink>
  );
}

/** For visitors (no main navigation yet): the pricing link in a navigation of its own, when the instance bills. */
export function VisitorPricingNav() {
  const { t } = useTranslation();
  if (!useAppConfig().billing?.enabled) return null;
  return (
    <nav className="main-nav" aria-label={t('nav.label')}>
      <PricingNavLink />
    </nav>
  );
}
