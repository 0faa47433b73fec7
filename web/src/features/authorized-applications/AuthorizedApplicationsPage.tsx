import { useClerk } from '@clerk/clerk-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../../app/AppConfigContext.tsx';
import { formatDate } from '../../lib/i18n/format.ts';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import {
  fetchAuthorizedApplications,
  withdrawAuthorizedApplication,
  type AuthorizedApplication,
} from './api/authorized-applications-api.ts';

type View =
  { kind: 'loading' } | { kind: 'loaded'; applications: AuthorizedApplication[] } | { kind: 'error' };

/**
 * /authorized-applications — the OAuth applications the signed-in user allowed to sign them in
 * (docs/oauth-provider.md), with what each may do and since when; withdrawing one stops its tokens at once
 * and its next authorization asks again. About the user alone: it needs no organisation.
 */
export function AuthorizedApplicationsPage() {
  const { t, i18n } = useTranslation();
  const clerk = useClerk();
  const { proxyUrl } = useAppConfig();
  const sessionId = clerk.session?.id ?? null;
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // The list is read again after a withdrawal (shown as it was until then) and on "Try again".
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const retry = useCallback(() => {
    setView({ kind: 'loading' });
    reload();
  }, [reload]);

  useEffect(() => {
    if (!proxyUrl || !sessionId) return;
    let live = true;
    fetchAuthorizedApplications(proxyUrl, sessionId, i18n.language)
      .then((applications) => live && setView({ kind: 'loaded', applications }))
      .catch(() => live && setView({ kind: 'error' }));
    return () => {
      live = false;
    };
  }, [proxyUrl, sessionId, i18n.language, attempt]);

  return (
    <section
      className="clerk-page"
      data-testid="authorized-applications-page"
      aria-labelledby="authorized-applications-heading"
    >
      <PageTitle>{t('authorizedApplications.title')}</PageTitle>
      <h1 id="authorized-applications-heading">{t('authorizedApplications.title')}</h1>
      <p className="muted">{t('authorizedApplications.intro')}</p>
      {!proxyUrl ? (
        <p className="status" role="alert" data-testid="authorized-applications-unavailable">
          {t('authorizedApplications.unavailable')}
        </p>
      ) : view.kind === 'loading' ? (
        <Loading testId="authorized-applications-loading" />
      ) : view.kind === 'error' ? (
        <LoadError
          what={t('authorizedApplications.what')}
          message={t('authorizedApplications.loadFailed')}
          testId="authorized-applications-error"
          onRetry={retry}
        />
      ) : view.applications.length === 0 ? (
        <p data-testid="authorized-applications-empty">{t('authorizedApplications.empty')}</p>
      ) : (
        <ul className="authorized-applications" data-testid="authorized-applications-list">
          {view.applications.map((application) => (
            <AuthorizedApplicationItem
              key={application.application_id}
              application={application}
              proxyUrl={proxyUrl}
              sessionId={sessionId}
              onWithdrawn={reload}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

type ItemState = { kind: 'idle' } | { kind: 'confirming' } | { kind: 'busy' } | { kind: 'error' };

function AuthorizedApplicationItem({
  application,
  proxyUrl,
  sessionId,
  onWithdrawn,
}: {
  application: AuthorizedApplication;
  proxyUrl: string;
  sessionId: string | null;
  onWithdrawn: () => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [state, setState] = useState<ItemState>({ kind: 'idle' });
  const name = application.oauth_application_name;
  const headingId = `authorized-application-${application.application_id}`;

  async function withdraw() {
    if (!sessionId) return;
    setState({ kind: 'busy' });
    try {
      await withdrawAuthorizedApplication(proxyUrl, sessionId, application.application_id);
      onWithdrawn();
    } catch {
      setState({ kind: 'error' });
    }
  }

  return (
    <li
      className="card"
      data-testid="authorized-application"
      data-application-id={application.application_id}
      aria-labelledby={headingId}
    >
      <h2 id={headingId} data-testid="authorized-application-name">
        {name}
      </h2>
      <p className="muted" data-testid="authorized-application-date">
        {t('authorizedApplications.allowedOn', { date: formatDate(application.created_at, language) })}
      </p>
      <p>{t('authorizedApplications.scopes')}</p>
      <ul data-testid="authorized-application-scopes">
        {application.scopes.map((scope) => (
          <li key={scope.scope}>{scope.description ?? scope.scope}</li>
        ))}
      </ul>
      {state.kind === 'confirming' ? (
        <div
          className="actions"
          role="group"
          aria-label={t('authorizedApplications.withdraw.confirm', { name })}
        >
          <span>{t('authorizedApplications.withdraw.confirm', { name })}</span>
          <button
            type="button"
            className="button button--danger"
            data-testid="authorized-application-withdraw-confirm"
            onClick={() => void withdraw()}
          >
            {t('authorizedApplications.withdraw.confirmButton')}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setState({ kind: 'idle' })}
          >
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <div className="actions">
          <button
            type="button"
            className="button button--secondary"
            data-testid="authorized-application-withdraw"
            aria-label={t('authorizedApplications.withdraw.label', { name })}
            disabled={state.kind === 'busy'}
            onClick={() => setState({ kind: 'confirming' })}
          >
            {t('authorizedApplications.withdraw.button')}
          </button>
        </div>
      )}
      {state.kind === 'error' && (
        <p className="status status--error" role="alert" data-testid="authorized-application-error">
          {t('authorizedApplications.withdraw.failed', { name })}
        </p>
      )}
    </li>
  );
}
