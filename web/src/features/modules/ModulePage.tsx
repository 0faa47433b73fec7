import { useTranslation } from 'react-i18next';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { useCurrentOrganization } from '../organizations/useCurrentOrganization.ts';
import { ModuleNotEnabled } from './ModuleNotEnabled.tsx';
import { ModuleOverview } from './ModuleOverview.tsx';
import type { ModuleDefinition } from './modules.ts';

/**
 * `/modules/<slug>`: the module's overview when the active organisation has it, otherwise the page that
 * says it is not enabled. Unknown slugs never get here (the router has one route per module).
 */
export function ModulePage({ module }: { module: ModuleDefinition }) {
  const { t } = useTranslation();
  const organization = useAuthState().organization;
  // The organisation rule is still making one active (or sending the user to create one).
  if (!organization) return <Loading testId="module-loading">{t('modules.loading')}</Loading>;
  if (organization.publicMetadata[module.flag] === true) return <ModuleOverview module={module} />;
  return <ConfirmedNotEnabled module={module} />;
}

/**
 * Clerk's copy of the metadata can be older than the server's (an admin switched the module on since this
 * page loaded), so the server is asked once before saying no; its answer is merged into the auth state,
 * and the overview replaces this page if the module is on after all.
 */
function ConfirmedNotEnabled({ module }: { module: ModuleDefinition }) {
  const { t } = useTranslation();
  const { state } = useCurrentOrganization();
  if (state.status === 'loading') return <Loading testId="module-loading">{t('modules.loading')}</Loading>;
  return <ModuleNotEnabled module={module} />;
}
