import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { QueryBody } from '../layout/QueryBody.tsx';
import {
  PAGE_SIZE,
  webhookDeliveriesQuery,
  webhookEndpointsQuery,
  type DeliveryFilters,
} from '../api/console-queries.ts';
import { formatInstant } from '../format.ts';
import { Pager } from '../layout/Pager.tsx';
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
  const [params, setParams] = useSearchParams();
  const filters: DeliveryFilters = {
    endpoint_id: params.get('endpoint_id') || undefined,
    event_type: params.get('event_type') || undefined,
    status: params.get('status') || undefined,
  };
  const offset = Number(params.get('offset')) || 0;
  const endpoints = useQuery(webhookEndpointsQuery(client, userId));
  const deliveries = useQuery(webhookDeliveriesQuery(client, userId, filters, offset));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    for (const [name, value] of new FormData(event.currentTarget))
      if (typeof value === 'string' && value.trim()) next[name] = value.trim();
    setParams(next);
  };
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
          <table className="console__table" data-testid="console-webhook-endpoints">
            <thead>
              <tr>
                <th>{t('console.webhooks.id')}</th>
                <th>{t('console.webhooks.url')}</th>
                <th>{t('console.webhooks.events')}</th>
                <th>{t('console.webhooks.state')}</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((endpoint) => (
                <tr key={endpoint.id} data-testid="console-webhook-endpoint">
                  <td>
                    <code>{endpoint.id}</code>
                  </td>
                  <td>
                    <code>{endpoint.url}</code>
                    {endpoint.description && <div className="muted">{endpoint.description}</div>}
                  </td>
                  <td>
                    {endpoint.events?.length ? endpoint.events.join(', ') : t('console.webhooks.allEvents')}
                  </td>
                  <td>
                    {endpoint.enabled ? t('console.webhooks.enabled') : t('console.webhooks.disabled')}
                    {!endpoint.secret_set && ` · ${t('console.webhooks.noSecret')}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryBody>

      <h2>{t('console.webhooks.deliveries')}</h2>
      <form className="console__filters" onSubmit={submit} key={params.toString()}>
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
      <QueryBody
        query={deliveries}
        what={t('console.webhooks.deliveries')}
        empty={t('console.webhooks.noDelivery')}
        testId="console-deliveries"
      >
        {(data) => (
          <>
            <table className="console__table" data-testid="console-deliveries">
              <thead>
                <tr>
                  <th>{t('console.webhooks.when')}</th>
                  <th>{t('console.webhooks.eventType')}</th>
                  <th>{t('console.webhooks.endpoint')}</th>
                  <th>{t('console.webhooks.status')}</th>
                  <th>{t('console.webhooks.attempts')}</th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((delivery) => (
                  <tr
                    key={delivery.id}
                    data-testid="console-delivery-row"
                    data-event-type={delivery.event_type}
                    data-status={delivery.status}
                  >
                    <td>
                      <Link to={`/console/webhooks/deliveries/${delivery.id}`}>
                        {formatInstant(delivery.created_at, language)}
                      </Link>
                    </td>
                    <td>
                      <code>{delivery.event_type}</code>
                    </td>
                    <td>
                      <code>{delivery.endpoint_id}</code>
                    </td>
                    <td>
                      {t(`console.webhooks.statuses.${delivery.status}`)}
                      {delivery.last_status_code !== null && ` (${delivery.last_status_code})`}
                    </td>
                    <td>{delivery.attempt_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              offset={offset}
              size={PAGE_SIZE}
              total={data.total_count}
              onChange={(next) => {
                const copy = new URLSearchParams(params);
                copy.set('offset', String(next));
                setParams(copy);
              }}
            />
          </>
        )}
      </QueryBody>
    </div>
  );
}
