import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { MODULES } from '../../modules/modules.ts';
import { organizationExtrasQuery } from '../api/console-queries.ts';
import type { OrganizationExtras as Extras } from '../api/types.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { formatInstant } from '../format.ts';
import { ActionButton } from '../layout/ActionButton.tsx';
import { ActionOutcome } from '../layout/ActionOutcome.tsx';
import { ConsoleTable } from '../layout/ConsoleTable.tsx';
import { useActionOutcome } from '../layout/useActionOutcome.ts';
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
  const { done, run } = useActionOutcome(change);
  const { roles, modules, subscription } = extras;
  const statusText = (status: string) =>
    SUBSCRIPTION_STATUSES.includes(status) ? t(`console.details.subscriptionStatus.${status}`) : status;
  return (
    <>
      <h3>{t('console.details.roles')}</h3>
      <ConsoleTable
        rows={roles}
        columns={[
          {
            header: t('console.details.role'),
            cell: (r) => t(`organizations.roles.${r.key.replace(/^org:/, '')}`, { defaultValue: r.name }),
          },
          { header: t('console.details.roleKey'), cell: (r) => <code>{r.key}</code> },
          { header: t('console.details.membersCount'), cell: (r) => r.members_count },
        ]}
        rowKey={(r) => r.key}
        testId="console-organization-roles"
      />

      <h3>{t('console.details.modules')}</h3>
      <ConsoleTable
        rows={MODULES}
        columns={[
          { cell: (m) => t(`modules.${m.key}.name`) },
          {
            cell: (m) => (modules[m.key] ? t('console.details.moduleOn') : t('console.details.moduleOff')),
          },
        ]}
        rowKey={(m) => m.key}
        rowAttributes={(m) => ({ 'data-testid': `console-organization-module-${m.key}` })}
        actions={(m) => {
          const enabled = modules[m.key];
          return (
            <ActionButton
              kind="secondary"
              pending={change.isPending}
              onClick={() =>
                run({ module: m.key, enabled: !enabled }, () =>
                  t(enabled ? 'console.details.done.moduleOff' : 'console.details.done.moduleOn', {
                    name: t(`modules.${m.key}.name`),
                  }),
                )
              }
            >
              {enabled ? t('console.details.switchOff') : t('console.details.switchOn')}
            </ActionButton>
          );
        }}
        testId="console-organization-modules"
      />
      <ActionOutcome error={change.error} done={done} testId="console-organization-modules-action" />

      <h3>{t('console.details.subscription')}</h3>
      <ConsoleTable
        rows={subscription?.subscription_items ?? []}
        empty={t('console.details.noSubscription')}
        emptyTestId="console-organization-subscription"
        columns={[
          {
            header: t('console.details.plan'),
            cell: (item) => (
              <>
                {item.plan?.name ?? '—'}
                {item.is_free_trial ? ` · ${t('console.details.freeTrial')}` : ''}
              </>
            ),
          },
          { header: t('console.details.status'), cell: (item) => statusText(item.status) },
          {
            header: t('console.details.period'),
            cell: (item) =>
              t('console.details.periodRange', {
                start: formatInstant(item.period_start, language),
                end: formatInstant(item.period_end, language),
              }),
          },
        ]}
        rowKey={(item) => item.id}
        testId="console-organization-subscription"
      />
    </>
  );
}
