import { useOrganization, useUser } from '@clerk/clerk-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { selectVcisoConsoleAccess, type VcisoConsoleAccess } from './access.ts';
import { AttachOrganizationForm } from './AttachOrganizationForm.tsx';
import { ChildOrganizationTable } from './ChildOrganizationTable.tsx';
import { CreateChildForm } from './CreateChildForm.tsx';
import { useChildOrganizations } from './useChildOrganizations.ts';
import { useVcisoErrorMessage } from './useVcisoErrorMessage.ts';
import './vciso.css';

/**
 * /clients — the client organisations of the active organisation, for its virtual security officers
 * (with the vCISO module on); everyone else gets a short explanation instead.
 */
export function ClientOrganizationsPage() {
  const { t } = useTranslation();
  const access = selectVcisoConsoleAccess(useAuthState());
  return (
    <section className="card vciso" data-testid="clients-page" aria-labelledby="clients-heading">
      <PageTitle>{t('vciso.title')}</PageTitle>
      <h1 id="clients-heading">{t('vciso.title')}</h1>
      {access === 'open' ? <ClientOrganizationsConsole /> : <ConsoleUnavailable access={access} />}
    </section>
  );
}

function ConsoleUnavailable({ access }: { access: Exclude<VcisoConsoleAccess, 'open'> }) {
  const { t } = useTranslation();
  return (
    <div className="status" data-testid="clients-unavailable" data-reason={access}>
      <p>
        <strong>{t('vciso.unavailable.heading')}</strong>
      </p>
      <p>
        {access === 'no-organization' && t('vciso.unavailable.noOrganization')}
        {access === 'not-vciso' && t('vciso.unavailable.notVciso')}
        {access === 'module-off' && t('vciso.unavailable.moduleOff')}
      </p>
      <p className="actions">
        {access === 'module-off' && <Link to="/settings">{t('vciso.unavailable.toSettings')}</Link>}
        <Link to="/dashboard">{t('vciso.unavailable.toDashboard')}</Link>
      </p>
    </div>
  );
}

function ClientOrganizationsConsole() {
  const { t } = useTranslation();
  const { organization } = useOrganization();
  const { user } = useUser();
  const errorMessage = useVcisoErrorMessage();
  const { state, reload } = useChildOrganizations();
  const [notice, setNotice] = useState<string | null>(null);
  const childIds = state.status === 'loaded' ? state.children.map((child) => child.id) : [];

  /** After a change (the list is already read again): say what happened; read the memberships a creation added. */
  function changed(message: string) {
    setNotice(message);
    void user?.reload().catch((error: unknown) => console.warn('Reloading the user failed.', error));
  }

  return (
    <>
      {organization && <p className="muted">{t('vciso.intro', { name: organization.name })}</p>}
      <div aria-live="polite">
        {notice && (
          <p className="status status--ok" data-testid="clients-notice">
            {notice}
          </p>
        )}
      </div>

      <section aria-labelledby="clients-list-heading">
        <h2 id="clients-list-heading">{t('vciso.list.heading')}</h2>
        {state.status === 'loading' && <Loading testId="clients-loading">{t('vciso.list.loading')}</Loading>}
        {state.status === 'error' && (
          <div className="status status--error" role="alert">
            <p data-testid="clients-error">{errorMessage(state.error)}</p>
            <button type="button" className="button button--secondary" onClick={reload}>
              {t('vciso.list.retry')}
            </button>
          </div>
        )}
        {state.status === 'loaded' &&
          (state.children.length === 0 ? (
            <p className="muted" data-testid="clients-empty">
              {t('vciso.list.empty')}
            </p>
          ) : (
            <ChildOrganizationTable
              organizations={state.children}
              onDetached={(child) => changed(t('vciso.detach.detached', { name: child.name }))}
            />
          ))}
      </section>

      <CreateChildForm onCreated={(child) => changed(t('vciso.create.created', { name: child.name }))} />
      <AttachOrganizationForm
        excludedIds={organization ? [organization.id, ...childIds] : childIds}
        onAttached={(child) => changed(t('vciso.attach.attached', { name: child.name }))}
      />
    </>
  );
}
