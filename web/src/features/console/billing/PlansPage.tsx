import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { billingPlansQuery } from '../api/console-queries.ts';
import { formatMoney } from '../format.ts';
import { ConsoleTable } from '../layout/ConsoleTable.tsx';
import { QueryBody } from '../layout/QueryBody.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { useConsole } from '../useConsole.ts';
import { PayerTypeSelect } from './PayerTypeSelect.tsx';

/**
 * /console/billing/plans — the catalogue of the instance settings' `billing`: every plan (hidden ones
 * too), for users or organisations, its fees by month and by year, and its features.
 */
export function PlansPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { params, setParams } = useListAddress();
  const payerType = params.get('payer_type') ?? '';
  const plans = useQuery(billingPlansQuery(client, userId, language, payerType));
  return (
    <div data-testid="console-billing-plans">
      <form className="console__filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <PayerTypeSelect
          value={payerType}
          onChange={(event) => setParams(event.target.value ? { payer_type: event.target.value } : {})}
          data-testid="console-billing-plans-payer-type"
        />
      </form>
      <QueryBody
        query={plans}
        what={t('console.billing.plans.what')}
        empty={t('console.billing.plans.none')}
        testId="console-billing-plans"
      >
        {(data) => (
          <ConsoleTable
            rows={data.data}
            testId="console-billing-plans-table"
            columns={[
              {
                header: t('console.billing.plan'),
                cell: (plan) => (
                  <>
                    <strong>{plan.name}</strong> <code>{plan.id}</code>
                    {plan.is_default ? ` · ${t('console.billing.plans.default')}` : ''}
                    {plan.publicly_visible ? '' : ` · ${t('console.billing.plans.hidden')}`}
                    {plan.description ? <div className="muted">{plan.description}</div> : null}
                  </>
                ),
              },
              {
                header: t('console.billing.payerType'),
                cell: (plan) => t(`console.billing.payerTypes.${plan.for_payer_type}`),
              },
              {
                header: t('console.billing.plans.monthlyFee'),
                cell: (plan) => formatMoney(plan.fee, language),
                testId: 'console-billing-plan-fee',
              },
              {
                header: t('console.billing.plans.annualMonthlyFee'),
                cell: (plan) =>
                  plan.annual_monthly_fee.amount > 0
                    ? formatMoney(plan.annual_monthly_fee, language)
                    : t('console.billing.plans.noAnnual'),
              },
              {
                header: t('console.billing.plans.features'),
                cell: (plan) => (plan.features.length ? plan.features.map((f) => f.name).join(', ') : '—'),
                testId: 'console-billing-plan-features',
              },
            ]}
            rowKey={(plan) => plan.id}
            rowAttributes={(plan) => ({ 'data-testid': 'console-billing-plan-row', 'data-slug': plan.slug })}
          />
        )}
      </QueryBody>
    </div>
  );
}
