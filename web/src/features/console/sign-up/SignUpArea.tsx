import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';

/** The sign-up area's sections, each a page under /console/sign-up. */
const SECTIONS = [
  { path: 'waitlist', labelKey: 'console.signUp.sections.waitlist' },
  { path: 'invitations', labelKey: 'console.signUp.sections.invitations' },
  { path: 'lists', labelKey: 'console.signUp.sections.lists' },
] as const;

/**
 * /console/sign-up — who may sign up (docs/sign-up-modes.md): the waitlist, the invitations to the
 * application, and the allow and block lists of identifiers.
 */
export function SignUpArea() {
  const { t } = useTranslation();
  return (
    <div data-testid="console-sign-up">
      <h2>{t('console.signUp.title')}</h2>
      <nav className="console__subnav" aria-label={t('console.signUp.sectionsLabel')}>
        {SECTIONS.map((section) => (
          <NavLink
            key={section.path}
            to={`/console/sign-up/${section.path}`}
            className="console__nav-link"
            data-testid={`console-sign-up-nav-${section.path}`}
          >
            {t(section.labelKey)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
