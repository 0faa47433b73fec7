import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LOCALES } from '../../../lib/i18n/languages.ts';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { billingStatementsQuery, PAGE_SIZE } from '../api/console-queries.ts';
import type { ConsoleStatement } from '../api/types.ts';
import { formatInstant, formatMoney } from '../format.ts';
import { ConsoleTable } from '../layout/ConsoleTable.tsx';
import { Pager } from '../layout/Pager.tsx';
import { QueryBody } from '../layout/QueryBody.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { useConsole } from '../useConsole.ts';
import { PayerLink } from './PayerLink.tsx';

/**
 * /console/billing/statements — the statements (a payer's month), newest first, of every payer or of one
 * (`?payer_id=`, from the subscriptions page): what was paid in each, and each payment with its card,
 * plan, kind and outcome.
 */
export function StatementsPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { params, offset, setOffset } = useListAddress();
  const payerId = params.get('payer_id') ?? '';
  const statements = useQuery(billingStatementsQuery(client, userId, language, payerId, offset));
  return (
    <div data-testid="console-billing-statements">
      {payerId && (
        <p>
          {t('console.billing.statements.ofPayer', { payer: payerId })}{' '}
          <Link to="/console/billing/statements">{t('console.billing.statements.allPayers')}</Link>
        </p>
      )}
      <QueryBody
        query={statements}
        what={t('console.billing.statements.what')}
        empty={t('console.billing.statements.none')}
        testId="console-billing-statements"
      >
        {(data) => (
          <>
            {data.data.map((statement) => (
              <StatementView key={statement.id} statement={statement} />
            ))}
            <Pager offset={offset} size={PAGE_SIZE} total={data.total_count} onChange={setOffset} />
          </>
        )}
      </QueryBody>
    </div>
  );
}

function StatementView({ statement }: { statement: ConsoleStatement }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const month = new Intl.DateTimeFormat(LOCALES[language], {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(statement.timestamp);
  const payments = statement.groups.flatMap((g) => g.items);
  return (
    <section className="console__card" data-testid="console-billing-statement" data-id={statement.id}>
      <h3>
        {month} · {t(`console.billing.statements.statuses.${statement.status}`)}
      </h3>
      <p>
        <PayerLink payer={statement.payer} /> · {t('console.billing.statements.total')}{' '}
        <strong data-testid="console-billing-statement-total">
          {formatMoney(statement.totals.grand_total, language)}
        </strong>
      </p>
      <ConsoleTable
        rows={payments}
        empty={t('console.billing.statements.noPayments')}
        testId="console-billing-payments-table"
        columns={[
          {
            header: t('console.billing.statements.date'),
            cell: (payment) =>
              formatInstant(payment.paid_at ?? payment.failed_at ?? payment.updated_at, language),
          },
          {
            header: t('console.billing.plan'),
            cell: (payment) => payment.subscription_item?.plan?.name ?? '—',
          },
          {
            header: t('console.billing.statements.kind'),
            cell: (payment) => t(`console.billing.statements.kinds.${payment.charge_type}`),
          },
          {
            header: t('console.billing.statements.card'),
            cell: (payment) =>
              payment.payment_source?.last4
                ? `${payment.payment_source.card_type} ···· ${payment.payment_source.last4}`
                : '—',
          },
          {
            header: t('console.billing.statements.amount'),
            cell: (payment) => formatMoney(payment.amount, language),
          },
          {
            header: t('console.billing.status'),
            cell: (payment) => t(`console.billing.statements.paymentStatuses.${payment.status}`),
          },
        ]}
        rowKey={(payment) => payment.id}
        rowAttributes={(payment) => ({
          'data-testid': 'console-billing-payment-row',
          'data-status': payment.status,
        })}
      />
    </section>
  );
}
