import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { selectCanSeeApiKeys } from './access.ts';

/** The organisation's API keys in the main navigation, for who may see them. */
export function ApiKeysNavLink() {
  const { t } = useTranslation();
  if (!selectCanSeeApiKeys(useAuthState())) return null;
  return (
    <NavLink to="/api-keys" className="main-nav__link" data-testid="nav-api-keys">
      {t('nav.apiKeys')}
    </NavLink>
  );
}
