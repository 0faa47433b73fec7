import { useMutation, useQueryClient } from '@tanstack/react-query';
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
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useQueryScope } from '../../lib/query/query-scope.ts';
import { settingsChange } from './settings-change.ts';
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
  const dispatch = useAuthDispatch();
  const saving = useMutation(settingsChange(useHttpClient(), useQueryClient(), useQueryScope()));
  const languageId = useId();
  const [modules, setModules] = useState<Record<ModuleKey, boolean>>(
    () =>
      Object.fromEntries(moduleStatuses(metadata).map((m) => [m.key, m.enabled])) as Record<
        ModuleKey,
        boolean
      >,
  );
  const [language, setLanguage] = useState<UiLanguage>(metadata.uiLanguage ?? 'FR');
  const busy = saving.isPending;
  const disabled = !canEdit || busy;

  function save(event: FormEvent) {
    event.preventDefault();
    if (!canEdit) return;
    saving.mutate(
      { modules, uiLanguage: language },
      {
        // The navigation and dashboard read the auth state, so they show the new modules without a reload.
        onSuccess: (organization) =>
          dispatch(authEvents.updateOrganizationMetadata(organization.publicMetadata)),
      },
    );
  }

  return (
    <form onSubmit={save} aria-describedby={canEdit ? undefined : 'settings-readonly-note'}>
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
                // A new edit hides the outcome of the previous save.
                saving.reset();
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
            saving.reset();
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
        {saving.isSuccess && (
          <p className="status status--ok" data-testid="settings-saved">
            {t('settings.saved')}
          </p>
        )}
        {saving.isError && (
          <p className="status status--error" role="alert" data-testid="settings-error">
            {errorMessage(saving.error, t, 'settings.notSaved')}
          </p>
        )}
      </div>
    </form>
  );
}
