import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LOCALES } from '../../../lib/i18n/languages.ts';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { billingStatementsQuery, PAGE_SIZE } from '../api/console-queries.ts';
import type { ConsolePayment, ConsoleStatement } from '../api/types.ts';
import { formatInstant, formatMoney } from '../format.ts';
import { Pager, useOffsetInAddress } from '../layout/Pager.tsx';
import { QueryBody } from '../layout/QueryBody.tsx';
import { useConsole } from '../useConsole.ts';
import { PayerLink } from './PayerLink.tsx';

/**
 * /console/billing/statements — the statements (a payer's month), newest first, of every payer or of one
 * (`?payer_id=`, from the subscriptions page): what was paid in each, and each payment with its card,
 * plan, kind and outcome.
 */
export function StatementsPage() {
  const { t } = useTranslation();
  const { client, userId } = useConsole();
  const [params] = useSearchParams();
  const payerId = params.get('payer_id') ?? '';
  const [offset, setOffset] = useOffsetInAddress();
  const statements = useQuery(billingStatementsQuery(client, userId, payerId, offset));
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
      {payments.length === 0 ? (
        <p className="muted">{t('console.billing.statements.noPayments')}</p>
      ) : (
        <table className="console__table">
          <thead>
            <tr>
              <th>{t('console.billing.statements.date')}</th>
              <th>{t('console.billing.plan')}</th>
              <th>{t('console.billing.statements.kind')}</th>
              <th>{t('console.billing.statements.card')}</th>
              <th>{t('console.billing.statements.amount')}</th>
              <th>{t('console.billing.status')}</th>
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <PaymentRow key={payment.id} payment={payment} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function PaymentRow({ payment }: { payment: ConsolePayment }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const card = payment.payment_source?.last4
    ? `${payment.payment_source.card_type} ···· ${payment.payment_source.last4}`
    : '—';
  return (
    <tr data-testid="console-billing-payment-row" data-status={payment.status}>
      <td>{formatInstant(payment.paid_at ?? payment.failed_at ?? payment.updated_at, language)}</td>
      <td>{payment.subscription_item?.plan?.name ?? '—'}</td>
      <td>{t(`console.billing.statements.kinds.${payment.charge_type}`)}</td>
      <td>{card}</td>
      <td>{formatMoney(payment.amount, language)}</td>
      <td>{t(`console.billing.statements.paymentStatuses.${payment.status}`)}</td>
    </tr>
  );
}
