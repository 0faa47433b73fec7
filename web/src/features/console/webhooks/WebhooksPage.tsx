import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { QueryBody } from '../layout/QueryBody.tsx';
import {
  PAGE_SIZE,
  webhookDeliveriesQuery,
  webhookEndpointsQuery,
  type DeliveryFilters,
} from '../api/console-queries.ts';
import { formatInstant } from '../format.ts';
import { ConsoleTable } from '../layout/ConsoleTable.tsx';
import { PagedTable } from '../layout/PagedTable.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { useConsole } from '../useConsole.ts';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/**
 * /console/webhooks — the endpoints the instance delivers to, and its deliveries (newest first) filtered
 * by endpoint, status and event type (docs/webhooks.md); a delivery opens its page (payload, attempts,
 * replay).
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { params, offset, setOffset, submitFilters } = useListAddress();
  const filters: DeliveryFilters = {
    endpoint_id: params.get('endpoint_id') || undefined,
    event_type: params.get('event_type') || undefined,
    status: params.get('status') || undefined,
  };
  const endpoints = useQuery(webhookEndpointsQuery(client, userId));
  const deliveries = useQuery(webhookDeliveriesQuery(client, userId, filters, offset));
  return (
    <div data-testid="console-webhooks">
      <h2>{t('console.webhooks.endpoints')}</h2>
      <QueryBody
        query={endpoints}
        what={t('console.webhooks.endpoints')}
        empty={t('console.webhooks.noEndpoint')}
        testId="console-webhook-endpoints"
      >
        {(data) => (
          <ConsoleTable
            rows={data.data}
            columns={[
              { header: t('console.webhooks.id'), cell: (endpoint) => <code>{endpoint.id}</code> },
              {
                header: t('console.webhooks.url'),
                cell: (endpoint) => (
                  <>
                    <code>{endpoint.url}</code>
                    {endpoint.description && <div className="muted">{endpoint.description}</div>}
                  </>
                ),
              },
              {
                header: t('console.webhooks.events'),
                cell: (endpoint) =>
                  endpoint.events?.length ? endpoint.events.join(', ') : t('console.webhooks.allEvents'),
              },
              {
                header: t('console.webhooks.state'),
                cell: (endpoint) => (
                  <>
                    {endpoint.enabled ? t('console.webhooks.enabled') : t('console.webhooks.disabled')}
                    {!endpoint.secret_set && ` · ${t('console.webhooks.noSecret')}`}
                  </>
                ),
              },
            ]}
            rowKey={(endpoint) => endpoint.id}
            rowAttributes={() => ({ 'data-testid': 'console-webhook-endpoint' })}
            testId="console-webhook-endpoints"
          />
        )}
      </QueryBody>

      <h2>{t('console.webhooks.deliveries')}</h2>
      <form className="console__filters" onSubmit={submitFilters} key={params.toString()}>
        <label>
          <span>{t('console.webhooks.endpoint')}</span>
          <select
            name="endpoint_id"
            defaultValue={filters.endpoint_id ?? ''}
            data-testid="console-deliveries-endpoint"
          >
            <option value="">{t('console.webhooks.any')}</option>
            {endpoints.data?.data.map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('console.webhooks.status')}</span>
          <select name="status" defaultValue={filters.status ?? ''} data-testid="console-deliveries-status">
            <option value="">{t('console.webhooks.any')}</option>
            {DELIVERY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`console.webhooks.statuses.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('console.webhooks.eventType')}</span>
          <input
            name="event_type"
            maxLength={100}
            placeholder="user.created"
            defaultValue={filters.event_type ?? ''}
            data-testid="console-deliveries-event-type"
          />
        </label>
        <button type="submit" className="button" data-testid="console-deliveries-filter">
          {t('console.webhooks.filter')}
        </button>
      </form>
      <PagedTable
        query={deliveries}
        what={t('console.webhooks.deliveries')}
        empty={t('console.webhooks.noDelivery')}
        testId="console-deliveries"
        tableTestId="console-deliveries"
        columns={[
          {
            header: t('console.webhooks.when'),
            cell: (delivery) => (
              <Link to={`/console/webhooks/deliveries/${delivery.id}`}>
                {formatInstant(delivery.created_at, language)}
              </Link>
            ),
          },
          { header: t('console.webhooks.eventType'), cell: (delivery) => <code>{delivery.event_type}</code> },
          { header: t('console.webhooks.endpoint'), cell: (delivery) => <code>{delivery.endpoint_id}</code> },
          {
            header: t('console.webhooks.status'),
            cell: (delivery) => (
              <>
                {t(`console.webhooks.statuses.${delivery.status}`)}
                {delivery.last_status_code !== null && ` (${delivery.last_status_code})`}
              </>
            ),
          },
          { header: t('console.webhooks.attempts'), cell: (delivery) => delivery.attempt_count },
        ]}
        rowKey={(delivery) => delivery.id}
        rowAttributes={(delivery) => ({
          'data-testid': 'console-delivery-row',
          'data-event-type': delivery.event_type,
          'data-status': delivery.status,
        })}
        offset={offset}
        size={PAGE_SIZE}
        onPage={setOffset}
      />
    </div>
  );
}
