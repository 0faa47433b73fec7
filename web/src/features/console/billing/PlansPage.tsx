import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { billingPlansQuery } from '../api/console-queries.ts';
import { formatMoney } from '../format.ts';
import { QueryBody } from '../layout/QueryBody.tsx';
import { useConsole } from '../useConsole.ts';

export const PAYER_TYPES = ['user', 'org'] as const;

/**
 * /console/billing/plans — the catalogue of the instance settings' `billing`: every plan (hidden ones
 * too), for users or organisations, its fees by month and by year, and its features.
 */
export function PlansPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const [params, setParams] = useSearchParams();
  const payerType = params.get('payer_type') ?? '';
  const plans = useQuery(billingPlansQuery(client, userId, payerType));
  return (
    <div data-testid="console-billing-plans">
      <form className="console__filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          <span>{t('console.billing.payerType')}</span>
          <select
            value={payerType}
            onChange={(event) => setParams(event.target.value ? { payer_type: event.target.value } : {})}
            data-testid="console-billing-plans-payer-type"
          >
            <option value="">{t('console.billing.any')}</option>
            {PAYER_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`console.billing.payerTypes.${type}`)}
              </option>
            ))}
          </select>
        </label>
      </form>
      <QueryBody
        query={plans}
        what={t('console.billing.plans.what')}
        empty={t('console.billing.plans.none')}
        testId="console-billing-plans"
      >
        {(data) => (
          <table className="console__table" data-testid="console-billing-plans-table">
            <thead>
              <tr>
                <th>{t('console.billing.plan')}</th>
                <th>{t('console.billing.payerType')}</th>
                <th>{t('console.billing.plans.monthlyFee')}</th>
                <th>{t('console.billing.plans.annualMonthlyFee')}</th>
                <th>{t('console.billing.plans.features')}</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((plan) => (
                <tr key={plan.id} data-testid="console-billing-plan-row" data-slug={plan.slug}>
                  <td>
                    <strong>{plan.name}</strong> <code>{plan.id}</code>
                    {plan.is_default ? ` · ${t('console.billing.plans.default')}` : ''}
                    {plan.publicly_visible ? '' : ` · ${t('console.billing.plans.hidden')}`}
                    {plan.description ? <div className="muted">{plan.description}</div> : null}
                  </td>
                  <td>{t(`console.billing.payerTypes.${plan.for_payer_type}`)}</td>
                  <td data-testid="console-billing-plan-fee">{formatMoney(plan.fee, language)}</td>
                  <td>
                    {plan.annual_monthly_fee.amount > 0
                      ? formatMoney(plan.annual_monthly_fee, language)
                      : t('console.billing.plans.noAnnual')}
                  </td>
                  <td data-testid="console-billing-plan-features">
                    {plan.features.length ? plan.features.map((f) => f.name).join(', ') : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryBody>
    </div>
  );
}
