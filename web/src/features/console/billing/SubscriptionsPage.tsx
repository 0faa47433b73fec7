import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import {
  billingPlansQuery,
  billingSubscriptionsQuery,
  PAGE_SIZE,
  type SubscriptionFilters,
} from '../api/console-queries.ts';
import { formatInstant, formatMoney } from '../format.ts';
import { FilterSelect } from '../layout/FilterSelect.tsx';
import { PagedTable } from '../layout/PagedTable.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { useConsole } from '../useConsole.ts';
import { PayerLink } from './PayerLink.tsx';
import { PayerTypeSelect } from './PayerTypeSelect.tsx';

/** An item's statuses, as billing keeps them (docs/billing.md). */
export const ITEM_STATUSES = ['active', 'past_due', 'upcoming', 'ended', 'abandoned'] as const;

/**
 * /console/billing/subscriptions — every payer's subscription items, newest first: the payer (a user or
 * an organisation), the plan, its status and period; filtered by status, payer type and plan.
 */
export function SubscriptionsPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { params, offset, setOffset, submitFilters } = useListAddress();
  const filters: SubscriptionFilters = {
    status: params.get('status') ?? '',
    payerType: params.get('payer_type') ?? '',
    planId: params.get('plan_id') ?? '',
  };
  const items = useQuery(billingSubscriptionsQuery(client, userId, language, filters, offset));
  const plans = useQuery(billingPlansQuery(client, userId, language, ''));
  const statusText = (status: string) =>
    (ITEM_STATUSES as readonly string[]).includes(status) ? t(`console.billing.statuses.${status}`) : status;
  return (
    <div data-testid="console-billing-subscriptions">
      <form className="console__filters" role="search" onSubmit={submitFilters} key={params.toString()}>
        <FilterSelect
          label={t('console.billing.status')}
          anyLabel={t('console.billing.anyButAbandoned')}
          choices={ITEM_STATUSES.map((status) => ({ value: status, label: statusText(status) }))}
          name="status"
          defaultValue={filters.status}
          data-testid="console-billing-subscriptions-status"
        />
        <PayerTypeSelect name="payer_type" defaultValue={filters.payerType} />
        <FilterSelect
          label={t('console.billing.plan')}
          anyLabel={t('console.billing.any')}
          choices={(plans.data?.data ?? []).map((plan) => ({ value: plan.id, label: plan.name }))}
          name="plan_id"
          defaultValue={filters.planId}
        />
        <button type="submit" className="button button--secondary">
          {t('console.billing.filter')}
        </button>
      </form>
      <PagedTable
        query={items}
        what={t('console.billing.subscriptions.what')}
        empty={t('console.billing.subscriptions.none')}
        testId="console-billing-subscriptions"
        columns={[
          { header: t('console.billing.payer'), cell: (item) => <PayerLink payer={item.payer} /> },
          {
            header: t('console.billing.plan'),
            cell: (item) => (
              <>
                {item.plan?.name ?? '—'}
                {item.plan_period
                  ? ` · ${t(`console.billing.subscriptions.periods.${item.plan_period}`)}`
                  : ''}
                {item.is_free_trial ? ` · ${t('console.billing.subscriptions.freeTrial')}` : ''}
              </>
            ),
          },
          {
            header: t('console.billing.status'),
            cell: (item) => (
              <>
                {statusText(item.status)}
                {item.canceled_at
                  ? ` · ${t('console.billing.subscriptions.canceledAt', {
                      date: formatInstant(item.canceled_at, language),
                    })}`
                  : ''}
              </>
            ),
          },
          {
            header: t('console.billing.subscriptions.period'),
            cell: (item) =>
              t('console.billing.subscriptions.periodRange', {
                start: formatInstant(item.period_start, language),
                // The default plan has no end; an item ended early, its end.
                end:
                  item.period_end || item.ended_at
                    ? formatInstant(item.period_end ?? item.ended_at, language)
                    : t('console.billing.subscriptions.noEnd'),
              }),
          },
          {
            header: t('console.billing.subscriptions.amount'),
            cell: (item) => formatMoney(item.amount, language),
          },
        ]}
        rowKey={(item) => item.id}
        rowAttributes={(item) => ({
          'data-testid': 'console-billing-subscription-row',
          'data-status': item.status,
        })}
        actions={(item) => (
          <Link
            to={`/console/billing/statements?payer_id=${item.payer.id}`}
            data-testid="console-billing-subscription-statements"
          >
            {t('console.billing.subscriptions.statements')}
          </Link>
        )}
        offset={offset}
        size={PAGE_SIZE}
        onPage={setOffset}
      />
    </div>
  );
}
