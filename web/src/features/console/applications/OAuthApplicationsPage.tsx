import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { oauthApplicationsQuery, PAGE_SIZE } from '../api/console-queries.ts';
import type { ConsoleOAuthApplication } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { ActionButton } from '../layout/ActionButton.tsx';
import { useActionOutcome } from '../layout/useActionOutcome.ts';
import { ActionOutcome } from '../layout/ActionOutcome.tsx';
import { useConsole } from '../useConsole.ts';
import {
  useApplicationAction,
  type ApplicationAction,
  type NewOAuthApplication,
} from './application-actions.ts';
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
  const { setParams, offset } = useListAddress();
  const applications = useQuery(oauthApplicationsQuery(client, userId, offset));
  const action = useApplicationAction();
  const { done, run } = useActionOutcome<ApplicationAction, { text: string; secret?: string }>(action);
  const create = (application: NewOAuthApplication, onCreated: () => void) =>
    run({ kind: 'create-oauth-application', application }, (answer) => {
      onCreated();
      const made = answer as ConsoleOAuthApplication;
      return {
        text: t('console.applications.oauth.created', { name: made.name, clientId: made.client_id }),
        secret: made.client_secret,
      };
    });
  const rotate = (app: ConsoleOAuthApplication) =>
    run({ kind: 'rotate-oauth-secret', applicationId: app.id }, (answer) => ({
      text: t('console.applications.oauth.rotated', { name: app.name }),
      secret: (answer as ConsoleOAuthApplication).client_secret,
    }));
  const remove = (app: ConsoleOAuthApplication) =>
    run({ kind: 'delete-oauth-application', applicationId: app.id }, () => ({
      text: t('console.applications.oauth.deleted', { name: app.name }),
    }));
  return (
    <div data-testid="console-oauth-applications">
      <h3>{t('console.applications.oauth.create')}</h3>
      <OAuthApplicationForm pending={action.isPending} onSubmit={create} />
      <ActionOutcome error={action.error} done={done?.text} testId="console-oauth-action" />
      <SecretOnce
        label={t('console.applications.oauth.clientSecret')}
        secret={done?.secret}
        testId="console-oauth-secret"
      />
      <h3>{t('console.applications.sections.oauth')}</h3>
      <PagedTable
        query={applications}
        what={t('console.applications.oauth.what')}
        empty={t('console.applications.oauth.none')}
        testId="console-oauth-applications"
        columns={[
          { header: t('console.applications.name'), cell: (app) => app.name },
          { header: t('console.applications.oauth.clientId'), cell: (app) => <code>{app.client_id}</code> },
          {
            header: t('console.applications.oauth.kind'),
            cell: (app) =>
              app.public
                ? t('console.applications.oauth.public')
                : t('console.applications.oauth.confidential'),
          },
          { header: t('console.applications.oauth.scopes'), cell: (app) => app.scopes || '—' },
          {
            header: t('console.applications.oauth.redirectUris'),
            cell: (app) =>
              app.redirect_uris.map((uri) => (
                <div key={uri}>
                  <code>{uri}</code>
                </div>
              )),
          },
          {
            header: t('console.applications.createdAt'),
            cell: (app) => formatInstant(app.created_at, language),
          },
        ]}
        rowKey={(app) => app.id}
        rowAttributes={(app) => ({ 'data-testid': 'console-oauth-application-row', 'data-name': app.name })}
        actions={(app) => (
          <>
            {!app.public && (
              <ActionButton
                pending={action.isPending}
                confirm={t('console.applications.oauth.confirmRotate', { name: app.name })}
                onClick={() => rotate(app)}
                testId="console-oauth-application-rotate"
              >
                {t('console.applications.oauth.rotate')}
              </ActionButton>
            )}{' '}
            <ActionButton
              kind="danger"
              pending={action.isPending}
              confirm={t('console.applications.oauth.confirmDelete', { name: app.name })}
              onClick={() => remove(app)}
              testId="console-oauth-application-delete"
            >
              {t('console.applications.delete')}
            </ActionButton>
          </>
        )}
        offset={offset}
        size={PAGE_SIZE}
        onPage={(next) => setParams(next ? { offset: String(next) } : {})}
      />
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
