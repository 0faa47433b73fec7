import { useId, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/error-message.ts';
import { useAuthDispatch, useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { authEvents } from '../../state/auth/reducer.ts';
import {
  mergeOrganizationMetadata,
  UI_LANGUAGES,
  type OrganizationPublicMetadata,
  type UiLanguage,
} from '../../state/auth/organization-metadata.ts';
import { selectHasAdminRights } from '../../state/auth/selectors.ts';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { MODULES, moduleStatuses, type ModuleKey } from '../modules/modules.ts';
import { useModuleTexts } from '../modules/useModuleTexts.ts';
import { useCurrentOrganization } from '../organizations/useCurrentOrganization.ts';
import { patchOrganizationSettings } from './api/patch-organization-settings.ts';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import './settings.css';

/** The active organisation's modules and interface language; editable with admin rights, read-only otherwise. */
export function SettingsPage() {
  const { t } = useTranslation();
  const auth = useAuthState();
  const { state, retry } = useCurrentOrganization();
  const canEdit = selectHasAdminRights(auth);

  return (
    <section
      className="card page-narrow settings"
      data-testid="settings-page"
      aria-labelledby="settings-heading"
    >
      <PageTitle>{t('settings.title')}</PageTitle>
      <h1 id="settings-heading">{t('settings.heading')}</h1>
      {state.status === 'none' && (
        <p>
          {t('settings.noOrganization')} <Link to="/organizations">{t('organizations.yours')}</Link>
        </p>
      )}
      {state.status === 'loading' && <Loading testId="settings-loading">{t('settings.loading')}</Loading>}
      {state.status === 'error' && (
        <LoadError
          what={t('settings.what')}
          message={state.message}
          testId="settings-error"
          onRetry={retry}
        />
      )}
      {state.status === 'loaded' && (
        // Keyed by organisation: switching organisations starts again from that one's saved settings.
        <SettingsForm
          key={state.organization.id}
          organizationName={state.organization.name}
          metadata={mergeOrganizationMetadata(
            state.organization.publicMetadata,
            auth.organization?.publicMetadata,
          )}
          canEdit={canEdit}
        />
      )}
    </section>
  );
}

type Feedback = { kind: 'saved' } | { kind: 'error'; error: unknown } | null;

function SettingsForm({
  organizationName,
  metadata,
  canEdit,
}: {
  organizationName: string;
  metadata: OrganizationPublicMetadata;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const moduleTexts = useModuleTexts();
  const http = useHttpClient();
  const dispatch = useAuthDispatch();
  const languageId = useId();
  const [modules, setModules] = useState<Record<ModuleKey, boolean>>(
    () =>
      Object.fromEntries(moduleStatuses(metadata).map((m) => [m.key, m.enabled])) as Record<
        ModuleKey,
        boolean
      >,
  );
  const [language, setLanguage] = useState<UiLanguage>(metadata.uiLanguage ?? 'FR');
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const disabled = !canEdit || busy;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!canEdit) return;
    setBusy(true);
    setFeedback(null);
    try {
      const organization = await patchOrganizationSettings(http, { modules, uiLanguage: language });
      // The dashboard reads the auth state, so it shows the new modules without a reload.
      dispatch(authEvents.updateOrganizationMetadata(organization.publicMetadata));
      setFeedback({ kind: 'saved' });
    } catch (error) {
      setFeedback({ kind: 'error', error });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void save(e)} aria-describedby={canEdit ? undefined : 'settings-readonly-note'}>
      <p className="muted">
        <Trans
          t={t}
          i18nKey="settings.forOrganization"
          values={{ name: organizationName }}
          components={{ name: <strong /> }}
        />
      </p>
      {!canEdit && (
        <p className="status" id="settings-readonly-note" data-testid="settings-readonly-note">
          {t('settings.readOnly')}
        </p>
      )}
      <fieldset className="settings__group" disabled={disabled}>
        <legend>{t('settings.modules')}</legend>
        {MODULES.map((module) => (
          <label key={module.key} className="settings__switch">
            <input
              type="checkbox"
              role="switch"
              checked={modules[module.key]}
              onChange={(e) => {
                const enabled = e.currentTarget.checked;
                setModules((current) => ({ ...current, [module.key]: enabled }));
                setFeedback(null);
              }}
              data-testid={`settings-module-${module.key}`}
            />
            <span>{moduleTexts[module.key].name}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="settings__group" disabled={disabled}>
        <legend>{t('settings.language')}</legend>
        <label htmlFor={languageId}>{t('settings.interfaceLanguage')}</label>{' '}
        <select
          id={languageId}
          value={language}
          onChange={(e) => {
            setLanguage(e.currentTarget.value as UiLanguage);
            setFeedback(null);
          }}
          data-testid="settings-language"
        >
          {UI_LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {`${t(`language.names.${code}`)} (${code})`}
            </option>
          ))}
        </select>
      </fieldset>
      {canEdit && (
        <p className="actions">
          <button type="submit" className="button" disabled={busy} data-testid="settings-save">
            {busy ? t('common.saving') : t('common.save')}
          </button>
        </p>
      )}
      <div aria-live="polite">
        {feedback?.kind === 'saved' && (
          <p className="status status--ok" data-testid="settings-saved">
            {t('settings.saved')}
          </p>
        )}
        {feedback?.kind === 'error' && (
          <p className="status status--error" role="alert" data-testid="settings-error">
            {errorMessage(feedback.error, t, 'settings.notSaved')}
          </p>
        )}
      </div>
    </form>
  );
}
