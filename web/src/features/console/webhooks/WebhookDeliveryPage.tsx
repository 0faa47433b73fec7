import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { CONSOLE_API, consoleSend } from '../api/console-api.ts';
import { consoleKey, webhookDeliveryQuery } from '../api/console-queries.ts';
import type { WebhookDelivery } from '../api/types.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { formatInstant } from '../format.ts';
import { ConsoleTable } from '../layout/ConsoleTable.tsx';
import { useConsole } from '../useConsole.ts';

/** The body sent, indented when it is JSON. */
function pretty(payload: unknown): string {
  if (typeof payload !== 'string') return JSON.stringify(payload, null, 2);
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/**
 * /console/webhooks/deliveries/:deliveryId — a delivery: its event, endpoint, status, the payload sent and
 * every attempt; Replay sends the same event to the same endpoint again (a new delivery, recorded in the
 * audit log as the operator's).
 */
export function WebhookDeliveryPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { deliveryId = '' } = useParams();
  const { client, userId } = useConsole();
  const queries = useQueryClient();
  const delivery = useQuery(webhookDeliveryQuery(client, userId, deliveryId));
  const errorText = useConsoleErrorText();
  const replay = useMutation({
    mutationFn: () =>
      consoleSend<WebhookDelivery>(
        client,
        'POST',
        `${CONSOLE_API}/webhooks/deliveries/${encodeURIComponent(deliveryId)}/replay`,
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: consoleKey(userId) }),
  });
  if (delivery.isPending) return <Loading testId="console-delivery-loading" />;
  if (delivery.isError) {
    return (
      <LoadError
        what={t('console.webhooks.delivery')}
        message={errorText(delivery.error)}
        testId="console-delivery-error"
        onRetry={() => void delivery.refetch()}
      />
    );
  }
  const d = delivery.data;
  return (
    <div data-testid="console-delivery">
      <p>
        <Link to="/console/webhooks">{t('console.webhooks.back')}</Link>
      </p>
      <h2>
        <code>{d.event_type}</code>
      </h2>
      <p className="muted">
        <code>{d.id}</code> · <code>{d.event_id}</code> · <code>{d.endpoint_id}</code> ·{' '}
        {formatInstant(d.created_at, language)}
      </p>
      <p data-testid="console-delivery-status">
        {t(`console.webhooks.statuses.${d.status}`)}
        {d.last_error && ` · ${d.last_error}`}
        {d.next_attempt_at
          ? ` · ${t('console.webhooks.nextAttempt', { date: formatInstant(d.next_attempt_at, language) })}`
          : ''}
      </p>
      <div className="console__actions">
        <button
          type="button"
          className="button"
          disabled={replay.isPending}
          onClick={() => replay.mutate()}
          data-testid="console-delivery-replay"
        >
          {t('console.webhooks.replay')}
        </button>
      </div>
      {replay.isError && (
        <p className="status status--error" role="alert" data-testid="console-delivery-replay-error">
          {errorText(replay.error)}
        </p>
      )}
      {replay.isSuccess && (
        <p className="status status--ok" role="status" data-testid="console-delivery-replayed">
          {t('console.webhooks.replayed')}{' '}
          <Link to={`/console/webhooks/deliveries/${replay.data.id}`}>
            <code>{replay.data.id}</code>
          </Link>
        </p>
      )}
      <h3>{t('console.webhooks.attempts')}</h3>
      <ConsoleTable
        rows={d.attempts}
        empty={t('console.webhooks.noAttempt')}
        columns={[
          { header: '#', cell: (attempt) => attempt.attempt },
          {
            header: t('console.webhooks.when'),
            cell: (attempt) => formatInstant(attempt.started_at, language),
          },
          { header: t('console.webhooks.statusCode'), cell: (attempt) => attempt.status_code ?? '—' },
          {
            header: t('console.webhooks.latency'),
            cell: (attempt) => (attempt.latency_ms === null ? '—' : `${attempt.latency_ms} ms`),
          },
          {
            header: t('console.webhooks.response'),
            cell: (attempt) => (
              <code className="console__summary">{attempt.error ?? attempt.response_excerpt ?? ''}</code>
            ),
          },
        ]}
        rowKey={(attempt) => attempt.attempt}
        testId="console-delivery-attempts"
      />
      <h3>{t('console.webhooks.payload')}</h3>
      <pre className="console__payload" data-testid="console-delivery-payload">
        {pretty(d.payload)}
      </pre>
    </div>
  );
}
