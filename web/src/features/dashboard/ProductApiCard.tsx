import { Loading } from '../../ui/Loading.tsx';
import { useApiMe } from './useApiMe.ts';

/** Proves end to end that the product server accepts this browser's Clerk session token. */
export function ProductApiCard() {
  const { state, check } = useApiMe();
  const loading = state.status === 'loading';

  return (
    <section className="card" aria-labelledby="product-api-heading" data-testid="api-me-card">
      <h2 id="product-api-heading">Product API</h2>
      <p className="muted">
        Sends your session token to <code>/api/me</code>, where the server verifies it independently.
      </p>

      {/* One live region for all three states, so screen readers hear the outcome of each check. */}
      <div aria-live="polite" aria-busy={loading}>
        {state.status === 'loading' && (
          <Loading testId="api-me-loading">Checking with the product API…</Loading>
        )}

        {state.status === 'verified' && (
          <>
            <p className="status status--ok" data-testid="api-me-status">
              Verified by the product API
            </p>
            <dl className="facts">
              <dt>User ID</dt>
              <dd>
                <code data-testid="api-me-user-id">{state.me.userId}</code>
              </dd>
              <dt>Session ID</dt>
              <dd>
                <code data-testid="api-me-session-id">{state.me.sessionId}</code>
              </dd>
              <dt>Checked at</dt>
              <dd data-testid="api-me-checked-at">{state.checkedAt.toLocaleTimeString()}</dd>
            </dl>
          </>
        )}

        {state.status === 'error' && (
          <div className="status status--error" role="alert">
            <p>The product API check failed:</p>
            <p data-testid="api-me-error">{state.message}</p>
          </div>
        )}
      </div>

      <button
        type="button"
        className="button button--secondary"
        onClick={check}
        disabled={loading}
        data-testid="api-me-refresh"
      >
        Check again
      </button>
    </section>
  );
}
