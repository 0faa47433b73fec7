import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { consoleMeQuery } from './api/console-queries.ts';
import { useConsole } from './useConsole.ts';

/** The console in the main navigation, for the instance's operators only (GET /console/api/me). */
export function ConsoleNavLink() {
  const { t } = useTranslation();
  const { client, userId } = useConsole();
  const me = useQuery(consoleMeQuery(client, userId));
  if (!me.isSuccess) return null;
  return (
    <NavLink to="/console" className="main-nav__link" data-testid="nav-console">
      {t('nav.console')}
    </NavLink>
  );
}
