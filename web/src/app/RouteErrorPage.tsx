import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { PageTitle } from '../ui/PageTitle.tsx';

/**
 * Replaces react-router's developer-oriented default error screen.
 * Uses no Clerk hooks: at the root route it renders outside ClerkProvider (i18next is above the router).
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;

  return (
    <main id="main" className="site-main">
      <section className="card card--error page-narrow" role="alert" data-testid="route-error">
        <PageTitle>{t('errors.route.title')}</PageTitle>
        <h1>{t('errors.route.title')}</h1>
        <p>{t('errors.route.body')}</p>
        {/* The technical detail stays as the code gave it: it is for whoever reports the problem. */}
        {detail && <p className="muted">{t('errors.route.detail', { detail })}</p>}
        <p className="actions">
          <button type="button" className="button" onClick={() => window.location.reload()}>
            {t('common.reload')}
          </button>
          {/* A plain anchor: a full page load also resets whatever state caused the error. */}
          <a href="/">{t('common.goHome')}</a>
        </p>
      </section>
    </main>
  );
}
