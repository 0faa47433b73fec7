import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { oauthApplicationsQuery, PAGE_SIZE } from '../api/console-queries.ts';
import type { ConsoleOAuthApplication } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { Pager } from '../layout/Pager.tsx';
import { QueryBody } from '../layout/QueryBody.tsx';
import { ActionOutcome } from '../sign-up/ActionOutcome.tsx';
import { useConsole } from '../useConsole.ts';
import { useApplicationAction, type NewOAuthApplication } from './application-actions.ts';
import { SecretOnce } from './SecretOnce.tsx';

/** The scopes an application may ask of this instance (docs/oauth-provider.md). */
const SCOPES = ['openid', 'profile', 'email', 'offline_access', 'public_metadata', 'private_metadata'];

/**
 * /console/applications/oauth — the instance's OAuth applications (docs/oauth-provider.md): register one
 * (its client secret shown once), rotate a confidential one's secret and delete one (both re-verified).
 */
export function OAuthApplicationsPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const [params, setParams] = useSearchParams();
  const offset = Number(params.get('offset')) || 0;
  const applications = useQuery(oauthApplicationsQuery(client, userId, offset));
  const action = useApplicationAction();
  const [done, setDone] = useState<{ text: string; secret?: string } | null>(null);
  const create = (application: NewOAuthApplication, onCreated: () => void) => {
    setDone(null);
    action.mutate(
      { kind: 'create-oauth-application', application },
      {
        onSuccess: (answer) => {
          onCreated();
          const made = answer as ConsoleOAuthApplication;
          setDone({
            text: t('console.applications.oauth.created', { name: made.name, clientId: made.client_id }),
            secret: made.client_secret,
          });
        },
      },
    );
  };
  const rotate = (app: ConsoleOAuthApplication) => {
    if (!window.confirm(t('console.applications.oauth.confirmRotate', { name: app.name }))) return;
    setDone(null);
    action.mutate(
      { kind: 'rotate-oauth-secret', applicationId: app.id },
      {
        onSuccess: (answer) =>
          setDone({
            text: t('console.applications.oauth.rotated', { name: app.name }),
            secret: (answer as ConsoleOAuthApplication).client_secret,
          }),
      },
    );
  };
  const remove = (app: ConsoleOAuthApplication) => {
    if (!window.confirm(t('console.applications.oauth.confirmDelete', { name: app.name }))) return;
    setDone(null);
    action.mutate(
      { kind: 'delete-oauth-application', applicationId: app.id },
      { onSuccess: () => setDone({ text: t('console.applications.oauth.deleted', { name: app.name }) }) },
    );
  };
  return (
    <div data-testid="console-oauth-applications">
      <h3>{t('console.applications.oauth.create')}</h3>
      <OAuthApplicationForm pending={action.isPending} onSubmit={create} />
      <ActionOutcome error={action.error} done={done?.text} testId="console-oauth-action" />
      {done?.secret && (
        <SecretOnce
          label={t('console.applications.oauth.clientSecret')}
          secret={done.secret}
          testId="console-oauth-secret"
        />
      )}
      <h3>{t('console.applications.sections.oauth')}</h3>
      <QueryBody
        query={applications}
        what={t('console.applications.oauth.what')}
        empty={t('console.applications.oauth.none')}
        testId="console-oauth-applications"
      >
        {(data) => (
          <>
            <table className="console__table" data-testid="console-oauth-applications-table">
              <thead>
                <tr>
                  <th>{t('console.applications.name')}</th>
                  <th>{t('console.applications.oauth.clientId')}</th>
                  <th>{t('console.applications.oauth.kind')}</th>
                  <th>{t('console.applications.oauth.scopes')}</th>
                  <th>{t('console.applications.oauth.redirectUris')}</th>
                  <th>{t('console.applications.createdAt')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.data.map((app) => (
                  <tr key={app.id} data-testid="console-oauth-application-row" data-name={app.name}>
                    <td>{app.name}</td>
                    <td>
                      <code>{app.client_id}</code>
                    </td>
                    <td>
                      {app.public
                        ? t('console.applications.oauth.public')
                        : t('console.applications.oauth.confidential')}
                    </td>
                    <td>{app.scopes || '—'}</td>
                    <td>
                      {app.redirect_uris.map((uri) => (
                        <div key={uri}>
                          <code>{uri}</code>
                        </div>
                      ))}
                    </td>
                    <td>{formatInstant(app.created_at, language)}</td>
                    <td>
                      {!app.public && (
                        <button
                          type="button"
                          className="button"
                          disabled={action.isPending}
                          onClick={() => rotate(app)}
                          data-testid="console-oauth-application-rotate"
                        >
                          {t('console.applications.oauth.rotate')}
                        </button>
                      )}{' '}
                      <button
                        type="button"
                        className="button button--danger"
                        disabled={action.isPending}
                        onClick={() => remove(app)}
                        data-testid="console-oauth-application-delete"
                      >
                        {t('console.applications.delete')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              offset={offset}
              size={PAGE_SIZE}
              total={data.total_count}
              onChange={(next) => setParams(next ? { offset: String(next) } : {})}
            />
          </>
        )}
      </QueryBody>
    </div>
  );
}

/** A new application: its name, its redirect URIs (one a line), public or confidential, its scopes. */
function OAuthApplicationForm({
  pending,
  onSubmit,
}: {
  pending: boolean;
  onSubmit: (application: NewOAuthApplication, onCreated: () => void) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [scopes, setScopes] = useState<string[]>(['profile', 'email']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const redirectUris = uris
      .split('\n')
      .map((u) => u.trim())
      .filter(Boolean);
    if (!name.trim() || !redirectUris.length) return;
    onSubmit({ name: name.trim(), redirect_uris: redirectUris, public: isPublic, scopes }, () => {
      setName('');
      setUris('');
    });
  };
  const toggle = (scope: string, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  return (
    <form className="console__filters" onSubmit={submit}>
      <label>
        <span>{t('console.applications.name')}</span>
        <input
          type="text"
          value={name}
          maxLength={256}
          required
          onChange={(e) => setName(e.target.value)}
          data-testid="console-oauth-name"
        />
      </label>
      <label>
        <span>{t('console.applications.oauth.redirectUrisLabel')}</span>
        <textarea
          value={uris}
          rows={3}
          required
          placeholder="https://app.example.com/callback"
          onChange={(e) => setUris(e.target.value)}
          data-testid="console-oauth-redirect-uris"
        />
      </label>
      <fieldset>
        <legend>{t('console.applications.oauth.kind')}</legend>
        <label className="console__choice">
          <input
            type="radio"
            name="oauth-kind"
            checked={!isPublic}
            onChange={() => setPublic(false)}
            data-testid="console-oauth-confidential"
          />{' '}
          {t('console.applications.oauth.confidentialHint')}
        </label>
        <label className="console__choice">
          <input
            type="radio"
            name="oauth-kind"
            checked={isPublic}
            onChange={() => setPublic(true)}
            data-testid="console-oauth-public"
          />{' '}
          {t('console.applications.oauth.publicHint')}
        </label>
      </fieldset>
      <fieldset>
        <legend>{t('console.applications.oauth.scopes')}</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="console__choice">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
              data-testid={`console-oauth-scope-${scope}`}
            />{' '}
            <code>{scope}</code>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button" disabled={pending} data-testid="console-oauth-create">
        {t('console.applications.oauth.submit')}
      </button>
    </form>
  );
}
