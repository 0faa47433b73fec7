import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { MODULES } from '../../modules/modules.ts';
import { organizationExtrasQuery } from '../api/console-queries.ts';
import type { OrganizationExtras as Extras } from '../api/types.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { formatInstant } from '../format.ts';
import { ActionOutcome } from '../sign-up/ActionOutcome.tsx';
import { useConsole } from '../useConsole.ts';
import { useModulesChange } from './organization-modules-change.ts';

const SUBSCRIPTION_STATUSES = [
  'active',
  'past_due',
  'upcoming',
  'ended',
  'canceled',
  'abandoned',
  'incomplete',
];

/**
 * The organisation page's roles (the instance's, with how many members hold each), modules (switched on or
 * off as the organisation's admins do, recorded in the audit log as the operator's) and subscription.
 */
export function OrganizationExtras({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const { client, userId } = useConsole();
  const extras = useQuery(organizationExtrasQuery(client, userId, organizationId));
  const errorText = useConsoleErrorText();
  if (extras.isPending) return <Loading testId="console-organization-details-loading" />;
  if (extras.isError) {
    return (
      <LoadError
        what={t('console.details.organizationWhat')}
        message={errorText(extras.error)}
        testId="console-organization-details-error"
        onRetry={() => void extras.refetch()}
      />
    );
  }
  return <ExtrasView organizationId={organizationId} extras={extras.data} />;
}

function ExtrasView({ organizationId, extras }: { organizationId: string; extras: Extras }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const change = useModulesChange(organizationId);
  const [done, setDone] = useState<string | null>(null);
  const { roles, modules, subscription } = extras;
  const statusText = (status: string) =>
    SUBSCRIPTION_STATUSES.includes(status) ? t(`console.details.subscriptionStatus.${status}`) : status;
  return (
    <>
      <h3>{t('console.details.roles')}</h3>
      <table className="console__table" data-testid="console-organization-roles">
        <thead>
          <tr>
            <th>{t('console.details.role')}</th>
            <th>{t('console.details.roleKey')}</th>
            <th>{t('console.details.membersCount')}</th>
          </tr>
        </thead>
        <tbody>
          {roles.map((r) => (
            <tr key={r.key}>
              <td>{t(`organizations.roles.${r.key.replace(/^org:/, '')}`, { defaultValue: r.name })}</td>
              <td>
                <code>{r.key}</code>
              </td>
              <td>{r.members_count}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>{t('console.details.modules')}</h3>
      <table className="console__table" data-testid="console-organization-modules">
        <tbody>
          {MODULES.map((m) => {
            const enabled = modules[m.key];
            const name = t(`modules.${m.key}.name`);
            return (
              <tr key={m.key} data-testid={`console-organization-module-${m.key}`}>
                <td>{name}</td>
                <td>{enabled ? t('console.details.moduleOn') : t('console.details.moduleOff')}</td>
                <td>
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={change.isPending}
                    onClick={() => {
                      setDone(null);
                      change.mutate(
                        { module: m.key, enabled: !enabled },
                        {
                          onSuccess: () =>
                            setDone(
                              t(
                                enabled ? 'console.details.done.moduleOff' : 'console.details.done.moduleOn',
                                {
                                  name,
                                },
                              ),
                            ),
                        },
                      );
                    }}
                  >
                    {enabled ? t('console.details.switchOff') : t('console.details.switchOn')}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ActionOutcome error={change.error} done={done} testId="console-organization-modules-action" />

      <h3>{t('console.details.subscription')}</h3>
      {!subscription || subscription.subscription_items.length === 0 ? (
        <p className="muted" data-testid="console-organization-subscription">
          {t('console.details.noSubscription')}
        </p>
      ) : (
        <table className="console__table" data-testid="console-organization-subscription">
          <thead>
            <tr>
              <th>{t('console.details.plan')}</th>
              <th>{t('console.details.status')}</th>
              <th>{t('console.details.period')}</th>
            </tr>
          </thead>
          <tbody>
            {subscription.subscription_items.map((item) => (
              <tr key={item.id}>
                <td>
                  {item.plan?.name ?? '—'}
                  {item.is_free_trial ? ` · ${t('console.details.freeTrial')}` : ''}
                </td>
                <td>{statusText(item.status)}</td>
                <td>
                  {t('console.details.periodRange', {
                    start: formatInstant(item.period_start, language),
                    end: formatInstant(item.period_end, language),
                  })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
