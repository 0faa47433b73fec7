import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { MODULES } from '../modules/modules.ts';
import { useModuleTexts } from '../modules/useModuleTexts.ts';
import { SubscriptionBadge } from '../subscription/SubscriptionBadge.tsx';
import type { ChildOrganization } from './api/child-organization.ts';
import { detachChildOrganization } from './api/detach-child-organization.ts';
import { useHierarchyChange } from './useHierarchyChange.ts';
import { useSwitchOrganization } from './useSwitchOrganization.ts';
import { useVcisoErrorMessage } from './useVcisoErrorMessage.ts';

/** The client organisations with their modules, subscription, and what the vCISO can do with each. */
export function ChildOrganizationTable({
  organizations,
  onDetached,
}: {
  organizations: ChildOrganization[];
  onDetached: (child: ChildOrganization) => void;
}) {
  const { t } = useTranslation();
  return (
    <table className="clients-table" data-testid="clients-table">
      <thead>
        <tr>
          <th scope="col">{t('vciso.list.organization')}</th>
          <th scope="col">{t('vciso.list.modules')}</th>
          <th scope="col">{t('vciso.list.subscription')}</th>
          <th scope="col">
            <span className="visually-hidden">{t('vciso.list.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {organizations.map((child) => (
          <ChildOrganizationRow key={child.id} child={child} onDetached={onDetached} />
        ))}
      </tbody>
    </table>
  );
}

type RowState =
  { kind: 'idle' } | { kind: 'confirming' } | { kind: 'busy' } | { kind: 'error'; message: string };

function ChildOrganizationRow({
  child,
  onDetached,
}: {
  child: ChildOrganization;
  onDetached: (child: ChildOrganization) => void;
}) {
  const { t } = useTranslation();
  const detachment = useHierarchyChange(detachChildOrganization);
  const errorMessage = useVcisoErrorMessage();
  const switchTo = useSwitchOrganization();
  const moduleTexts = useModuleTexts();
  const isMember =
    useAuthState().user?.organizationMemberships.some((m) => m.organization.id === child.id) ?? false;
  const [state, setState] = useState<RowState>({ kind: 'idle' });
  const enabled = MODULES.filter((module) => child.modules[module.flag]);

  async function run(action: () => Promise<void>) {
    setState({ kind: 'busy' });
    try {
      await action();
    } catch (error) {
      setState({ kind: 'error', message: errorMessage(error) });
    }
  }

  // mutateAsync rejects on failure, which `run` words like any other; the list is read again on success.
  const detach = () =>
    run(async () => {
      await detachment.mutateAsync(child.id);
      onDetached(child);
    });

  return (
    <tr data-testid="client-row" data-organization-id={child.id}>
      <td>
        <span data-testid="client-name">{child.name}</span>
        {child.slug && <span className="clients-table__slug">{child.slug}</span>}
      </td>
      <td data-testid="client-modules">
        {enabled.length
          ? enabled.map((module) => moduleTexts[module.key].name).join(', ')
          : t('vciso.list.noModules')}
      </td>
      <td>
        <SubscriptionBadge status={child.hasActiveSubscription} />
      </td>
      <td className="clients-table__actions">
        {state.kind === 'confirming' ? (
          <div className="actions" role="group" aria-label={t('vciso.detach.confirm', { name: child.name })}>
            <span>{t('vciso.detach.confirm', { name: child.name })}</span>
            <button
              type="button"
              className="button button--danger"
              data-testid="client-detach-confirm"
              onClick={() => void detach()}
            >
              {t('vciso.detach.confirmButton')}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setState({ kind: 'idle' })}
            >
              {t('vciso.detach.cancel')}
            </button>
          </div>
        ) : (
          <div className="actions">
            {isMember ? (
              <button
                type="button"
                className="button"
                data-testid="client-switch"
                aria-label={t('vciso.switch.label', { name: child.name })}
                disabled={state.kind === 'busy'}
                onClick={() => void run(() => switchTo(child.id))}
              >
                {t('vciso.switch.button')}
              </button>
            ) : (
              <span className="muted">{t('vciso.switch.notMember')}</span>
            )}
            <button
              type="button"
              className="button button--secondary"
              data-testid="client-detach"
              aria-label={t('vciso.detach.label', { name: child.name })}
              disabled={state.kind === 'busy'}
              onClick={() => setState({ kind: 'confirming' })}
            >
              {t('vciso.detach.button')}
            </button>
          </div>
        )}
        {state.kind === 'error' && (
          <p className="status status--error" role="alert" data-testid="client-error">
            {state.message}
          </p>
        )}
      </td>
    </tr>
  );
}
