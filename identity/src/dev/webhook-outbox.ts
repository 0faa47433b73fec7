import type { RouteHandlerMethod } from 'fastify';
import { attemptsOf, recentDeliveries, recentEvents, type DeliveryListRow } from '../store/webhooks.ts';
import { subscribes } from '../webhooks/delivery.ts';
import type { Webhooks } from '../webhooks/webhooks.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Events and deliveries shown: the newest of each. */
const SHOWN = 100;

/**
 * The development outbox's webhook page: the newest events, each with its deliveries (endpoint, status,
 * attempts and the last answer), or "no endpoint subscribed" when nothing would have been sent. Types,
 * ids and statuses only: payloads can hold a code (`email.created`) and stay in the database.
 */
export function webhookOutboxHandlers(
  webhooks: Webhooks,
  headers: Record<string, string>,
  wantsHtml: (accept: string | undefined) => boolean,
): { json: RouteHandlerMethod; html: RouteHandlerMethod } {
  const load = async () => {
    const events = await recentEvents(webhooks.db, SHOWN);
    const deliveries = await recentDeliveries(webhooks.db, { limit: SHOWN * 4 });
    const attempts = await attemptsOf(
      webhooks.db,
      deliveries.map((d) => d.id),
    );
    const byEvent = new Map<string, DeliveryListRow[]>();
    for (const d of deliveries) byEvent.set(d.event_id, [...(byEvent.get(d.event_id) ?? []), d]);
    const endpoints = webhooks.endpoints();
    return events.map((e) => ({
      id: e.id,
      type: e.type,
      created_at: e.created_at.toISOString(),
      subscribed: endpoints.filter((ep) => subscribes(ep, e.type)).map((ep) => ep.id),
      deliveries: (byEvent.get(e.id) ?? []).map((d) => ({
        id: d.id,
        endpoint_id: d.endpoint_id,
        status: d.status,
        attempts: d.attempts,
        last_status_code: d.last_status_code,
        last_error: d.last_error,
        next_attempt_at: d.status === 'pending' ? d.next_attempt_at.toISOString() : null,
        attempt_log: attempts
          .filter((a) => a.delivery_id === d.id)
          .map((a) => ({
            attempt: a.attempt,
            started_at: a.started_at.toISOString(),
            status_code: a.status_code,
            latency_ms: a.latency_ms,
            error: a.error,
          })),
      })),
    }));
  };

  const json: RouteHandlerMethod = async (req, reply) => {
    if (wantsHtml(req.headers.accept)) return reply.redirect(`${req.url.split('?')[0]}.html`);
    return load();
  };
  const html: RouteHandlerMethod = async (_req, reply) => {
    const events = await load();
    const rows = events
      .map((e) => {
        const sent = e.deliveries.length
          ? e.deliveries
              .map(
                (d) =>
                  `<li>${escapeHtml(d.endpoint_id)}: <strong>${escapeHtml(d.status)}</strong> after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}` +
                  `${d.last_status_code !== null ? ` · HTTP ${d.last_status_code}` : ''}${d.last_error ? ` · ${escapeHtml(d.last_error)}` : ''}` +
                  `${d.next_attempt_at ? ` · next try ${d.next_attempt_at}` : ''}</li>`,
              )
              .join('')
          : `<li>${e.subscribed.length ? 'waiting for the worker' : 'no endpoint subscribed: nothing would be sent'}</li>`;
        return `<article><header><strong>${escapeHtml(e.type)}</strong> · <code>${escapeHtml(e.id)}</code> · <time>${e.created_at}</time></header><ul>${sent}</ul></article>`;
      })
      .join('\n');
    return reply.headers(headers).type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development outbox: webhooks</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}</style>
</head><body><h1>Development outbox: webhooks</h1><p>Events recorded and their deliveries to the configured endpoints (docs/webhooks.md). Newest first.</p>
${rows || '<p>No events yet.</p>'}</body></html>`);
  };
  return { json, html };
}
