import { Trans, useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message.ts';
import { formatTime } from '../../lib/i18n/format.ts';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import { Loading } from '../../ui/Loading.tsx';
import { useApiMe } from './useApiMe.ts';

/** Proves end to end that the product server accepts this browser's Clerk session token. */
export function ProductApiCard() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { state, check } = useApiMe();
  const loading = state.status === 'loading';

  return (
    <section className="card" aria-labelledby="product-api-heading" data-testid="api-me-card">
      <h2 id="product-api-heading">{t('diagnostics.api.heading')}</h2>
      <p className="muted">
        <Trans t={t} i18nKey="diagnostics.api.intro" components={{ path: <code /> }} />
      </p>

      {/* One live region for all three states, so screen readers hear the outcome of each check. */}
      <div aria-live="polite" aria-busy={loading}>
        {state.status === 'loading' && (
          <Loading testId="api-me-loading">{t('diagnostics.api.checking')}</Loading>
        )}

        {state.status === 'verified' && (
          <>
            <p className="status status--ok" data-testid="api-me-status">
              {t('diagnostics.api.verified')}
            </p>
            <dl className="facts">
              <dt>{t('diagnostics.api.userId')}</dt>
              <dd>
                <code data-testid="api-me-user-id">{state.me.userId}</code>
              </dd>
              <dt>{t('diagnostics.api.sessionId')}</dt>
              <dd>
                <code data-testid="api-me-session-id">{state.me.sessionId}</code>
              </dd>
              <dt>{t('diagnostics.api.checkedAt')}</dt>
              <dd data-testid="api-me-checked-at">{formatTime(state.checkedAt, language)}</dd>
            </dl>
          </>
        )}

        {state.status === 'error' && (
          <div className="status status--error" role="alert">
            <p>{t('diagnostics.api.failed')}</p>
            <p data-testid="api-me-error">{errorMessage(state.error, t, 'diagnostics.api.failedUnknown')}</p>
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
        {t('diagnostics.api.checkAgain')}
      </button>
    </section>
  );
}
