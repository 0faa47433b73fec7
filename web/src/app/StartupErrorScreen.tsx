import { PRODUCT_NAME } from '../lib/product.ts';

/** Rendered by main.tsx instead of the app when the runtime config cannot be loaded. */
export function StartupErrorScreen({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main id="main" className="site-main">
      <section className="card card--error page-narrow" role="alert" data-testid="app-config-error">
        <title>{`Unavailable · ${PRODUCT_NAME}`}</title>
        <h1>{PRODUCT_NAME} could not start</h1>
        <p>The application settings could not be loaded from the server, so nothing else can work yet.</p>
        <p className="muted" data-testid="app-config-error-detail">
          {detail}
        </p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Try again
        </button>
      </section>
    </main>
  );
}
