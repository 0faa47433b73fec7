import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { ApiKeysNavLink } from '../features/api-keys/ApiKeysNavLink.tsx';
import { PricingNavLink } from '../features/billing/PricingNavLink.tsx';
import { ModuleNavLinks } from '../features/modules/ModuleNavLinks.tsx';
import { ClientsNavLink } from '../features/vciso/ClientsNavLink.tsx';
import { ConsoleNavLink } from '../features/console/ConsoleNavLink.tsx';
import { useAuthState } from '../state/auth/AuthStateProvider.tsx';
import { selectHasAdminRights } from '../state/auth/selectors.ts';

/**
 * The signed-in sections; members management only shows for users with admin rights, and each module
 * only when the active organisation has switched it on.
 */
export function MainNav() {
  const { t } = useTranslation();
  const auth = useAuthState();
  if (!auth.organization) return null;
  return (
    <nav className="main-nav" aria-label={t('nav.label')}>
      <NavLink to="/dashboard" className="main-nav__link" data-testid="nav-dashboard">
        {t('nav.dashboard')}
      </NavLink>
      <ModuleNavLinks />
      <NavLink to="/organization" className="main-nav__link" data-testid="nav-organization">
        {t('nav.organization')}
      </NavLink>
      <NavLink to="/settings" className="main-nav__link" data-testid="nav-settings">
        {t('nav.settings')}
      </NavLink>
      {selectHasAdminRights(auth) && (
        <NavLink to="/members" className="main-nav__link" data-testid="nav-members">
          {t('nav.members')}
        </NavLink>
      )}
      <ClientsNavLink />
      <ApiKeysNavLink />
      <PricingNavLink />
      <ConsoleNavLink />
      <NavLink to="/help" className="main-nav__link" data-testid="nav-help">
        {t('nav.help')}
      </NavLink>
    </nav>
  );
}
