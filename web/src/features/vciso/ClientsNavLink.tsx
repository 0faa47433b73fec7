import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { selectCanUseVcisoConsole } from './access.ts';

/** The console's entry in the main navigation, for the users who may use it. */
export function ClientsNavLink() {
  const { t } = useTranslation();
  if (!selectCanUseVcisoConsole(useAuthState())) return null;
  return (
    <NavLink to="/clients" className="main-nav__link" data-testid="nav-clients">
      {t('vciso.nav')}
    </NavLink>
  );
}
