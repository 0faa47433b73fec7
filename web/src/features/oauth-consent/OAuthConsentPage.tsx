import { useClerk } from '@clerk/clerk-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useAppConfig } from '../../app/AppConfigContext.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import {
  ConsentRequestError,
  fetchConsentRequest,
  postConsentDecision,
  type ConsentRequest,
} from './api/oauth-consent-api.ts';

type View =
  | { kind: 'loading' }
  | { kind: 'asking'; request: ConsentRequest }
  | { kind: 'leaving' }
  | { kind: 'error'; reason: 'not_found' | 'failed' | 'unavailable' };

/**
 * /oauth/consent?interaction=<id> — where the instance's authorization server sends a signed-in user when
 * an application asks to sign them in (docs/oauth-provider.md). It reads the request, shows clerk-js's own
 * consent screen (`__internal_mountOAuthConsent`, clerk-js 5.90.0) with the application and the scopes in
 * the interface's language, and posts Allow or Deny; a consent already given (or an application without a
 * consent screen) is allowed at once. The browser then goes back into the authorization server, which
 * sends it to the application.
 */
export function OAuthConsentPage() {
  const { t, i18n } = useTranslation();
  const clerk = useClerk();
  const { proxyUrl } = useAppConfig();
  const [params] = useSearchParams();
  const uid = params.get('interaction');
  const sessionId = clerk.session?.id ?? null;
  const [view, setView] = useState<View>({ kind: 'loading' });
  const node = useRef<HTMLDivElement>(null);

  /** Allow or Deny, then on into the authorization server (which sends the browser to the application). */
  const decide = useCallback(
    async (allow: boolean) => {
      if (!proxyUrl || !uid || !sessionId) return;
      setView({ kind: 'leaving' });
      try {
        window.location.assign(await postConsentDecision(proxyUrl, uid, sessionId, allow));
      } catch (err) {
        setView({ kind: 'error', reason: err instanceof ConsentRequestError ? err.kind : 'failed' });
      }
    },
    [proxyUrl, uid, sessionId],
  );

  // Nothing to ask without the Frontend API proxy (hosted Clerk shows its own page), an id or a session.
  const missing = !proxyUrl ? 'unavailable' : !uid || !sessionId ? 'not_found' : null;
  const shown: View = missing ? { kind: 'error', reason: missing } : view;
  const asking = shown.kind === 'asking' ? shown.request : null;

  useEffect(() => {
    if (!proxyUrl || !uid || !sessionId) return;
    let live = true;
    fetchConsentRequest(proxyUrl, uid, sessionId, i18n.language)
      .then((request) => {
        if (!live) return;
        if (request.consent_required) setView({ kind: 'asking', request });
        else void decide(true);
      })
      .catch((err: unknown) => {
        if (live)
          setView({ kind: 'error', reason: err instanceof ConsentRequestError ? err.kind : 'failed' });
      });
    return () => {
      live = false;
    };
  }, [proxyUrl, uid, sessionId, i18n.language, decide]);

  useEffect(() => {
    const target = node.current;
    const request = asking;
    if (!request || !target) return;
    clerk.__internal_mountOAuthConsent(target, {
      oAuthApplicationName: request.oauth_application_name,
      ...(request.oauth_application_logo_url
        ? { oAuthApplicationLogoUrl: request.oauth_application_logo_url }
        : {}),
      ...(request.oauth_application_url ? { oAuthApplicationUrl: request.oauth_application_url } : {}),
      scopes: request.scopes,
      redirectUrl: request.redirect_url,
      onAllow: () => void decide(true),
      onDeny: () => void decide(false),
    });
    return () => clerk.__internal_unmountOAuthConsent(target);
  }, [asking, clerk, decide]);

  return (
    <section className="clerk-page" data-testid="oauth-consent-page" aria-labelledby="oauth-consent-heading">
      <PageTitle>{t('oauthConsent.title')}</PageTitle>
      <h1 id="oauth-consent-heading">{t('oauthConsent.title')}</h1>
      {shown.kind === 'asking' && (
        <>
          <p className="muted" data-testid="oauth-consent-intro">
            {t('oauthConsent.intro', { application: shown.request.oauth_application_name })}
          </p>
          <div ref={node} data-testid="oauth-consent-component" />
        </>
      )}
      {(shown.kind === 'loading' || shown.kind === 'leaving') && <Loading testId="oauth-consent-loading" />}
      {shown.kind === 'error' && (
        <div className="status" role="alert" data-testid="oauth-consent-error" data-reason={shown.reason}>
          <p>{t(`oauthConsent.errors.${shown.reason}`)}</p>
          <p>
            <Link to="/dashboard">{t('common.backToDashboard')}</Link>
          </p>
        </div>
      )}
    </section>
  );
}
