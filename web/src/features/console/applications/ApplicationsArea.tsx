import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';

/** The applications area's sections, each a page under /console/applications. */
const SECTIONS = [
  { path: 'api-keys', labelKey: 'console.applications.sections.apiKeys' },
  { path: 'oauth', labelKey: 'console.applications.sections.oauth' },
  { path: 'machines', labelKey: 'console.applications.sections.machines' },
] as const;

/**
 * /console/applications — what reaches the instance besides people: API keys, OAuth applications and
 * machines (webhook endpoints have their own area).
 */
export function ApplicationsArea() {
  const { t } = useTranslation();
  return (
    <div data-testid="console-applications">
      <h2>{t('console.applications.title')}</h2>
      <nav className="console__subnav" aria-label={t('console.applications.sectionsLabel')}>
        {SECTIONS.map((section) => (
          <NavLink
            key={section.path}
            to={`/console/applications/${section.path}`}
            className="console__nav-link"
            data-testid={`console-applications-nav-${section.path}`}
          >
            {t(section.labelKey)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
