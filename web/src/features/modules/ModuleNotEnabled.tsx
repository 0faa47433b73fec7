import { useOrganization } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { selectHasAdminRights } from '../../state/auth/selectors.ts';
import { Loading } from '../../ui/Loading.tsx';
import { helpPagePath } from '../help/help-pages.ts';
import type { ModuleManagerRole } from './admin-contacts.ts';
import type { ModuleDefinition } from './modules.ts';
import { useAdminContacts } from './useAdminContacts.ts';
import { useModuleTexts } from './useModuleTexts.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import './modules.css';

/**
 * A module this organisation has not switched on: not an error, but a plain statement of who can switch
 * it on, with the way to the settings for those who can do it themselves.
 */
export function ModuleNotEnabled({ module }: { module: ModuleDefinition }) {
  const { t } = useTranslation();
  const auth = useAuthState();
  const { organization } = useOrganization();
  const { name } = useModuleTexts()[module.key];
  const canEnable = selectHasAdminRights(auth);

  return (
    <section
      className="card page-narrow module-not-enabled"
      data-testid="module-not-enabled"
      data-module={module.key}
      aria-labelledby="module-not-enabled-heading"
    >
      <PageTitle>{name}</PageTitle>
      <h1 id="module-not-enabled-heading">{t('modules.notEnabled.title', { module: name })}</h1>
      <p>
        {organization?.name
          ? t('modules.notEnabled.textNamed', { module: name, organization: organization.name })
          : t('modules.notEnabled.text', { module: name })}
      </p>
      {canEnable ? (
        <p>
          {t('modules.notEnabled.youCan')}{' '}
          <Link to="/settings" className="button" data-testid="module-not-enabled-settings-link">
            {t('modules.notEnabled.openSettings')}
          </Link>
        </p>
      ) : (
        <AdminContactList />
      )}
      <p className="muted">
        <Link to={helpPagePath(module.helpPage)} data-testid="module-not-enabled-help-link">
          {t('modules.notEnabled.readAbout', { module: name })}
        </Link>
        {' · '}
        <Link to="/dashboard">{t('modules.notEnabled.backToDashboard')}</Link>
      </p>
    </section>
  );
}

function AdminContactList() {
  const { t } = useTranslation();
  const state = useAdminContacts();
  const roleName = (role: ModuleManagerRole) =>
    role === 'org:vciso' ? t('modules.notEnabled.roles.vciso') : t('modules.notEnabled.roles.admin');

  if (state.status === 'loading')
    return <Loading testId="module-admins-loading">{t('modules.notEnabled.loadingContacts')}</Loading>;
  if (state.status === 'error' || state.contacts.length === 0)
    return <p data-testid="module-admins-unavailable">{t('modules.notEnabled.askAnAdmin')}</p>;
  return (
    <>
      <h2 id="module-admins-heading">{t('modules.notEnabled.whoCan')}</h2>
      <ul className="module-admins" aria-labelledby="module-admins-heading" data-testid="module-admins">
        {state.contacts.map((contact) => (
          <li key={contact.userId} data-testid="module-admin">
            <strong>{contact.name}</strong> <span className="badge">{roleName(contact.role)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
