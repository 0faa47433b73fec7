import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { PageTitle } from '../../../ui/PageTitle.tsx';
import { CONSOLE_AREAS } from '../areas.ts';

/** The console's frame: its title and the navigation between its areas. */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="console" data-testid="console" aria-labelledby="console-heading">
      <PageTitle>{t('console.title')}</PageTitle>
      <h1 id="console-heading">{t('console.title')}</h1>
      <nav className="console__nav" aria-label={t('console.nav.label')}>
        {CONSOLE_AREAS.map((area) => (
          <NavLink
            key={area.path}
            to={`/console/${area.path}`}
            className="console__nav-link"
            data-testid={`console-nav-${area.path}`}
          >
            {t(area.labelKey)}
          </NavLink>
        ))}
      </nav>
      <div className="console__content">{children}</div>
    </section>
  );
}
