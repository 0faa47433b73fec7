import { isRouteErrorResponse, useRouteError } from 'react-router';
import { PRODUCT_NAME } from '../lib/product.ts';

/**
 * Replaces react-router's developer-oriented default error screen.
 * Uses no Clerk hooks: at the root route it renders outside ClerkProvider.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;

  return (
    <main id="main" className="site-main">
      <section className="card card--error page-narrow" role="alert" data-testid="route-error">
        <title>{`Something went wrong · ${PRODUCT_NAME}`}</title>
        <h1>Something went wrong</h1>
        <p>This page ran into an unexpected problem. Reloading usually helps.</p>
        {detail && <p className="muted">Details: {detail}</p>}
        <p className="actions">
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload
          </button>
          {/* A plain anchor: a full page load also resets whatever state caused the error. */}
          <a href="/">Go to the home page</a>
        </p>
      </section>
    </main>
  );
}
