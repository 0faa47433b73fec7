import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { listOutbox } from '../store/outbox.ts';
import type { Webhooks } from '../webhooks/webhooks.ts';
import { registerWebhookOutbox } from './webhook-outbox.ts';
import { isLoopbackRequest } from './loopback.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Development outbox: `/mail` and `/sms` as JSON (newest first), `/mail.html` and `/sms.html` for people.
 * Registered only in development mode, never in production, and each channel only while it is captured
 * (mail without SMTP, SMS without Twilio). Only clients on this machine see it unless `public`; others
 * get the answer of an unknown path, so that it is not advertised.
 */
export async function devOutboxPlugin(
  app: FastifyInstance,
  opts: {
    db: Database;
    channels: { mail: boolean; sms: boolean };
    public: boolean;
    /** Webhook events and their deliveries (`/webhooks`, `/webhooks.html`), where the outbox is. */
    webhooks?: Webhooks;
  },
) {
  if (!opts.public)
    app.addHook('onRequest', async (req, reply) => {
      if (!isLoopbackRequest(req)) return reply.callNotFound();
    });
  const list = (channel: 'mail' | 'sms', to: string | undefined) => listOutbox(opts.db, channel, to);

  if (opts.channels.mail)
    app.get<{ Querystring: { to?: string } }>('/mail', async (req, reply) => {
      if (wantsHtml(req.headers.accept)) return reply.redirect(`${req.url.split('?')[0]}.html`);
      const rows = await list('mail', req.query.to);
      return rows.map((r) => ({
        to: r.recipient,
        subject: r.subject,
        text: r.text_body,
        html: r.html_body,
        created_at: r.created_at.toISOString(),
      }));
    });
  if (opts.channels.sms)
    app.get<{ Querystring: { to?: string } }>('/sms', async (req, reply) => {
      if (wantsHtml(req.headers.accept)) return reply.redirect(`${req.url.split('?')[0]}.html`);
      // Any formatting of the number, and the "+" a query string turns into a space, finds it.
      const to = req.query.to === undefined ? undefined : `+${req.query.to.replace(/\D/g, '')}`;
      const rows = await list('sms', to);
      return rows.map((r) => ({
        to: r.recipient,
        text: r.text_body,
        created_at: r.created_at.toISOString(),
      }));
    });
  if (opts.webhooks) registerWebhookOutbox(app, opts.webhooks, PAGE_HEADERS, wantsHtml);
  for (const channel of ['mail', 'sms'] as const) {
    if (!opts.channels[channel]) continue;
    app.get(`/${channel}.html`, async (_req, reply) => {
      const rows = await list(channel, undefined);
      const items = rows
        .map(
          (
            r,
          ) => `<article><header><strong>${escapeHtml(r.recipient)}</strong> · <time>${r.created_at.toISOString()}</time></header>
${r.subject ? `<h2>${escapeHtml(r.subject)}</h2>` : ''}<pre>${escapeHtml(r.text_body)}</pre></article>`,
        )
        .join('\n');
      return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8')
        .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development outbox: ${channel}</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style>
</head><body><h1>Development outbox: ${channel}</h1><p>Messages captured instead of sent (development mode, no ${channel === 'mail' ? 'SMTP' : 'SMS sender'} configured). Newest first.</p>
${items || '<p>No messages yet.</p>'}</body></html>`);
    });
  }
}

/** The views are static text: no script, no frame, no referrer, also on the standalone provider. */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Browsers ask for HTML first; scripts and tests get JSON. */
function wantsHtml(accept: string | undefined): boolean {
  return !!accept && accept.startsWith('text/html');
}
